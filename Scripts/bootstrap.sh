#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages BundleKit needs, when they are missing.
#   Scripts/bootstrap.sh            build dependencies (libxml2, libarchive, SQLite, pkg-config)
#   Scripts/bootstrap.sh --oracles  also the tools the tests compare against
#                                   (plistutil, bsdtar, python3)
#   Scripts/bootstrap.sh --bench    also the load generator of the lookup benchmark (wrk)
set -euo pipefail

# libsqlite3-dev: the translation memory (GRDB) in bundlekit-translate.
packages=(libxml2-dev libarchive-dev libsqlite3-dev pkg-config)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(wrk)
fi
if [[ "${1:-}" == "--oracles" ]]; then
  packages+=(libplist-utils libarchive-tools)
  command -v python3 >/dev/null 2>&1 || packages+=(python3)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "bootstrap: please install: ${missing[*]} (no apt-get on this machine)" >&2
  exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "bootstrap: run as root or install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "bootstrap: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
