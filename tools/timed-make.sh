#!/usr/bin/env bash
# Run make targets one after another, timing each; every target runs even if
# an earlier one failed. Prints a table at the end: wall time, and the CPU time
# (user + system, all processes) each took, which depends less on what else
# the machine is running; exits nonzero if any failed.
#   usage: tools/timed-make.sh TARGET...
#   MAKE names the make to run; MAKEFLAGS_PART adds flags to each (e.g. "-j2 -Otarget").
set -uo pipefail
make=${MAKE:-make}
declare -a rows
# CPU seconds (user + system) of all finished children so far, into $CPU
# (`times` must run in this shell, not in a command substitution).
tf=$(mktemp); trap 'rm -f "$tf"' EXIT
cpu() { times > "$tf"; CPU=$(tail -n 1 "$tf" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } print t }'); }
failed=0
t0=$EPOCHREALTIME
for t in "$@"; do
  s=$EPOCHREALTIME; cpu; c=$CPU
  # shellcheck disable=SC2086
  if "$make" --no-print-directory ${MAKEFLAGS_PART:-} "$t"; then r=ok; else r=FAILED; failed=1; fi
  cpu
  rows+=("$(awk -v a="$s" -v b="$EPOCHREALTIME" -v c="$c" -v d="$CPU" -v t="$t" -v r="$r" 'BEGIN { printf "%-24s %7.1f s wall %7.1f s cpu  %s", t, b - a, d - c, r }')")
done
echo
echo "== time per target (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${rows[@]}"
cpu
awk -v a="$t0" -v b="$EPOCHREALTIME" -v d="$CPU" 'BEGIN { printf "%-24s %7.1f s wall %7.1f s cpu\n", "total", b - a, d }'
exit $failed
