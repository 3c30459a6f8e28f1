#!/usr/bin/env bash
# Count the hand-written argument checks of the JavaScript API (issue 45): in js/src, calls of
# validate.js's checkers that name an argument by hand and typeError(/rangeError( sites; in
# js/cache, calls of its checkers (finite, known, record, ...) and enum/boolean checks written out.
# The checkers themselves and the generated files (args.js, api.js, constants.js, schema.js's
# table) are not counted. `tools/count-checks.sh [REF]` counts a git ref (default: the work tree).
set -euo pipefail
ref=${1:-}
list() { if [ -z "$ref" ]; then ls $1/*.js; else git ls-tree --name-only "$ref" $1/ | grep '\.js$'; fi; }
show() { if [ -z "$ref" ]; then cat "$1"; else git show "$ref:$1"; fi; }
src_re='(^|[^.A-Za-z0-9_$])(num|numOr|numNullish|str|arr|obj|map|dateMs|vector|per|count|typeError|rangeError)\('
cache_re='\b(finite|known|record|onlyKnown|time|counter|typeError|progressFn)\(|!== "boolean"|must be "'
src=0; cache=0
for f in $(list js/src); do
  case $f in *validate.js|*constants.js|*api.js|*args.js) continue;; esac
  src=$((src + $({ show "$f" | grep -v '^\s*//' | grep -oE "$src_re" || true; } | wc -l)))
done
for f in $(list js/cache); do
  case $f in *validate.js|*schema.js) continue;; esac
  cache=$((cache + $({ show "$f" | grep -oE "$cache_re" || true; } | wc -l)))
done
echo "js/src $src  js/cache $cache  total $((src + cache))"
