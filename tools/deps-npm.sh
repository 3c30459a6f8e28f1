#!/usr/bin/env bash
# The npm dev dependencies (package-lock.json), in steps that say what each does and
# how long it took:
#   1. npm ci --ignore-scripts: every package, no install script yet. npm runs on
#      NPM_NODE_DIR's Node (make deps passes Node 24 from the registry): sqlite-wasm,
#      miniflare and usearch want Node >= 22 and would warn EBADENGINE on Node 20.
#   2. the install scripts that only check or link a binary shipped in a registry
#      package (esbuild, workerd, deno, usearch, @parcel/watcher).
#   3. better-sqlite3 compiled from source for the machine's own Node (its prebuilt
#      binary is on GitHub, which these machines cannot reach), two jobs, with a line
#      every 30 s while it compiles: the tests compare it with the other backends on
#      Node 20, where node:sqlite does not exist.
set -euo pipefail
t0=$SECONDS
npm_node_path=${NPM_NODE_DIR:+$NPM_NODE_DIR:}$PATH
since() { echo "$((SECONDS - $1)) s"; }

s=$SECONDS
echo "deps: npm [1/3] npm ci --ignore-scripts (node $(PATH=$npm_node_path node --version)): $(node -p 'Object.keys(require("./package-lock.json").packages).length - 1') packages ..."
PATH=$npm_node_path npm ci --ignore-scripts --no-audit --no-fund --loglevel=warn
echo "deps: npm [1/3] done in $(since "$s")"

s=$SECONDS
scripts=(esbuild workerd deno usearch @parcel/watcher)
echo "deps: npm [2/3] install scripts of ${scripts[*]} ..."
PATH=$npm_node_path npm rebuild --no-audit --no-fund --loglevel=warn "${scripts[@]}"
echo "deps: npm [2/3] done in $(since "$s")"

s=$SECONDS
echo "deps: npm [3/3] better-sqlite3 from source for node $(node --version) (the SQLite amalgamation and its C++ binding; minutes) ..."
log=$(mktemp "${TMPDIR:-/tmp}/memdomain-better-sqlite3.XXXXXX")
npm_config_build_from_source=true JOBS=2 npm rebuild --no-audit --no-fund --foreground-scripts better-sqlite3 > "$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null && sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "deps: npm [3/3] still compiling better-sqlite3: $(since "$s") so far; last: $(grep -Eo '(CC|CXX|AR|SOLINK_MODULE|COPY)\([^)]*\) [^ ]+' "$log" | tail -1)"
  fi
done
if ! wait "$pid"; then
  tail -40 "$log"
  echo "deps: npm [3/3] better-sqlite3 failed to build (the log above: $log)"
  exit 1
fi
node -e 'new (require("better-sqlite3"))(":memory:").close()' || { tail -40 "$log"; echo "deps: better-sqlite3 was built but does not load"; exit 1; }
rm -f "$log"
echo "deps: npm [3/3] done in $(since "$s")"
echo "deps: npm dependencies ready in $(since "$t0")"
