#!/usr/bin/env bash
# Installs what BundleKit needs to build and test, when it is missing, and says what it does.
#   Scripts/bootstrap.sh            build dependencies: libxml2, libarchive, SQLite (for the
#                                   translation package), pkg-config
#   Scripts/bootstrap.sh --oracles  also the tools the tests compare against (plistutil,
#                                   bsdtar, python3) and the servers they start for real
#                                   (PostgreSQL, in a throwaway cluster of their own; headless
#                                   Chromium, driven through websocket-client from PyPI)
#   Scripts/bootstrap.sh --bench    also the load generator of the lookup benchmark (wrk)
#
# Debian and Ubuntu: apt-get (as root, or with sudo). macOS: Homebrew; libarchive is
# keg-only there, so the script prints the PKG_CONFIG_PATH to export before `swift build`
# (pkg-config finds libxml2 in the SDK).
set -euo pipefail
mode=${1:-}

if [[ "$(uname)" == "Darwin" ]]; then
  if ! command -v brew >/dev/null 2>&1; then
    echo "bootstrap: Homebrew is needed (https://brew.sh) to install libarchive and pkg-config" >&2
    exit 1
  fi
  formulas=(libarchive pkg-config)
  [[ "$mode" == "--oracles" ]] && formulas+=(libplist python3 postgresql@17)
  [[ "$mode" == "--bench" ]] && formulas+=(wrk)
  for formula in "${formulas[@]}"; do
    if ! brew list --versions "$formula" >/dev/null 2>&1; then
      echo "bootstrap: brew install $formula" >&2
      brew install "$formula" >/dev/null
    fi
  done
  prefix=$(brew --prefix libarchive)
  echo "bootstrap: libarchive is keg-only; before building, run:" >&2
  echo "  export PKG_CONFIG_PATH=\"$prefix/lib/pkgconfig:\${PKG_CONFIG_PATH:-}\"" >&2
  # bsdtar ships with macOS; python3 with the Xcode command-line tools.
  exit 0
fi

packages=(libxml2-dev libarchive-dev zlib1g-dev libsqlite3-dev pkg-config)
if [[ "$mode" == "--bench" ]]; then
  packages+=(wrk)
fi
if [[ "$mode" == "--oracles" ]]; then
  packages+=(libplist-utils libarchive-tools unzip python3-pip postgresql chromium)
  command -v python3 >/dev/null 2>&1 || packages+=(python3)
fi

# Translate Toolkit (PyPI) writes the foreign TMX the translate tests import (po2tmx).
# websocket-client drives headless Chromium through its DevTools protocol (the page test).
# junitparser and sarif-tools read the CI reports (ReportFormatTests).
python_oracles() {
  [[ "$mode" == "--oracles" ]] || return 0
  local wanted=()
  python3 -c "import translate.convert.po2tmx" >/dev/null 2>&1 || wanted+=(translate-toolkit)
  python3 -c "import websocket" >/dev/null 2>&1 || wanted+=(websocket-client)
  # Readers of the CI report formats that are not ours: JUnit XML and SARIF.
  python3 -c "import junitparser" >/dev/null 2>&1 || wanted+=(junitparser)
  python3 -c "import sarif.loader" >/dev/null 2>&1 || wanted+=(sarif-tools)
  [[ ${#wanted[@]} -eq 0 ]] && return 0
  echo "bootstrap: pip install ${wanted[*]}" >&2
  python3 -m pip install --quiet --user --break-system-packages "${wanted[@]}" >/dev/null 2>&1 \
    || python3 -m pip install --quiet --user "${wanted[@]}" >/dev/null
}

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  python_oracles
  exit 0
fi

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
echo "bootstrap: apt-get install ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
python_oracles
