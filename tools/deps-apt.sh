#!/usr/bin/env bash
# Install the Debian packages memdomain builds and tests with, only those missing.
set -euo pipefail
pkgs=(clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32 libclang-rt-14-dev wabt emscripten
      unicode-data python3 python3-networkx python3-numpy libopenblas0-pthread valgrind chromium gzip
      nodejs npm g++ make)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from outside Debian (as on these machines): skip them then.
if command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=(); for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || tmp+=("$p"); done
  missing=("${tmp[@]+"${tmp[@]}"}")
fi
if ((${#missing[@]})); then
  echo "deps: apt-get update, then install ${#missing[@]} packages and what they need: ${missing[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  # -q, not -qq: apt prints each package as it fetches and sets it up (Chromium and Emscripten take minutes)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q -o Dpkg::Use-Pty=0 "${missing[@]}"
else
  echo "deps: apt packages present"
fi
