#!/usr/bin/env bash
# Run make targets one after another, timing each; every target runs even if
# an earlier one failed. Prints a table of the times (and which failed) at the
# end and exits nonzero if any failed.
#   usage: tools/timed-make.sh TARGET...        (MAKE may name the make to run)
set -uo pipefail
make=${MAKE:-make}
declare -a rows
failed=0
t0=$EPOCHREALTIME
for t in "$@"; do
  s=$EPOCHREALTIME
  if "$make" --no-print-directory "$t"; then r=ok; else r=FAILED; failed=1; fi
  rows+=("$(awk -v a="$s" -v b="$EPOCHREALTIME" -v t="$t" -v r="$r" 'BEGIN { printf "%-24s %7.1f s  %s", t, b - a, r }')")
done
echo
echo "== time per target (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${rows[@]}"
awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%-24s %7.1f s\n", "total", b - a }'
exit $failed
