#!/usr/bin/env bash
# Stage the package (js/ with the real clang wasm instead of the source tree's
# symlink) into build/pkg/ and `npm pack` it there: prints the tarball's path.
# Also copies it to build/memdomain.tgz, a name without the version that
# examples/worker/package.json can point at ("file:../../build/memdomain.tgz").
#   usage: tools/pack.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$root" && mkdir -p "${1:-build}" && cd "${1:-build}" && pwd)
wasm="$build/memdomain.wasm"
[ -f "$wasm" ] || { echo "pack: $wasm is missing (run make wasm)" >&2; exit 1; }
pkg="$build/pkg"
rm -rf "$pkg" && mkdir -p "$pkg"
# Everything package.json "files" names, except the wasm symlink; then the real file.
(cd "$root/js" && cp -R index.js index.d.ts package.json src cache types "$pkg/")
# the adapters' entry points and the memdomain-mcp command, where this tree has them
for d in adapters bin; do [ ! -d "$root/js/$d" ] || cp -R "$root/js/$d" "$pkg/"; done
cp "$wasm" "$pkg/memdomain.wasm"
cd "$pkg"
tgz=$(npm pack --silent --pack-destination "$build" | tail -n 1)
cp "$build/$tgz" "$build/memdomain.tgz"
echo "$build/$tgz"
