#!/usr/bin/env bash
# Install the Debian packages whose documents the relevance harness (bench/relevance) builds
# its corpora from, only those missing. The corpora are those packages' own files (dpkg -L),
# so every machine with the same package versions builds the same corpora.
set -euo pipefail
# Not nodejs-doc: on a machine with NodeSource's nodejs it conflicts with it, and apt removes Node.
pkgs=(groff-base manpages manpages-dev libssl-doc git-man perl-doc python3-doc postgresql-doc-15
  linux-doc-6.1 debian-handbook debian-faq debian-reference-en rust-doc
  coreutils findutils grep sed diffutils gzip gettext wget gnupg nettle-dev libffi-dev libtasn1-doc time
  jargon-text r-doc-html)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps-relevance: installing ${missing[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "deps-relevance: apt packages present (${pkgs[*]})"
fi
