#!/bin/bash
# Repeated `bundlekit bump build` runs next to the Python loop of the `bump` benchmark
# (Scripts/plistlib-bump.py), each tool alone on a fresh ext4 file system of its own (a
# loop-mounted image, mounted with `discard` like this VM's root), without and with a
# journal: RUNS runs per tool, PAUSE seconds apart, on 1,000 Info.plists (half XML, half
# binary). Beside the `bump` suite it adds journaled ext4 mounted with `discard`, and file
# systems nothing else touches: on ext4 without a journal each run pays for the inodes that
# runs of the last minutes freed (see the README).
# Needs root (mkfs.ext4, mount) and a release build of bundlekit (BUNDLEKIT_TOOL=... runs
# another one, as the benchmarks do).
# Usage: Scripts/bench-bump-repeated.sh [RUNS [PAUSE]]
set -euo pipefail
runs=${1:-4}
pause=${2:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${BUNDLEKIT_TOOL:-$root/.build/release/bundlekit}
peer=$root/Scripts/plistlib-bump.py
# The interpreter itself, not a launcher in front of it (pyenv's `python3` is a bash shim that
# runs `pyenv` first: about 55 ms a start, which would be timed as the loop's).
python=$(python3 -c 'import sys; print(sys.executable)')
[ -x "$tool" ] || { echo "build it first: swift build -c release --product bundlekit" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "needs root (mkfs.ext4, mount -o loop)" >&2; exit 1; }
work=$(mktemp -d)
mkdir "$work/mnt"
cleanup() { umount "$work/mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

make_tree() {
  python3 - "$1" <<'PY'
import os, plistlib, sys
for i in range(1000):
    folder = f"{sys.argv[1]}/Target{i}"
    os.makedirs(folder)
    value = {"CFBundleIdentifier": f"com.example.target{i}", "CFBundleName": f"Target{i}",
             "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
             "LSRequiresIPhoneOS": True, "UIRequiredDeviceCapabilities": ["arm64"]}
    with open(folder + "/Info.plist", "wb") as f:
        plistlib.dump(value, f, fmt=plistlib.FMT_XML if i % 2 == 0 else plistlib.FMT_BINARY)
PY
}

milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }

header="| file system | tool |"
rule="|---|---|"
for i in $(seq "$runs"); do header+=" run $i |"; rule+="---:|"; done
echo "$runs runs per tool, $pause s apart, each tool on a fresh file system of its own"
echo
echo "$header"
echo "$rule"
for system in "ext4, no journal:-O ^has_journal" "ext4, journal:"; do
  name=${system%%:*}
  options=${system#*:}
  for which in bundlekit "plistlib, no fsync" "plistlib, fsync per file" "plistlib, batch as BundleKit"; do
    truncate -s 1G "$work/fs.img"
    # shellcheck disable=SC2086
    mkfs.ext4 -q -F $options "$work/fs.img"
    mount -o loop,discard "$work/fs.img" "$work/mnt"
    make_tree "$work/mnt/tree"
    row="| $name | $which |"
    for _ in $(seq "$runs"); do
      sync
      sleep "$pause"
      start=$(milliseconds)
      case $which in
        bundlekit) "$tool" bump build "$work/mnt/tree" >/dev/null ;;
        "plistlib, no fsync") "$python" "$peer" "$work/mnt/tree" ;;
        "plistlib, fsync per file") "$python" "$peer" "$work/mnt/tree" fsync ;;
        *) "$python" "$peer" "$work/mnt/tree" batch ;;
      esac
      row+=" $(( $(milliseconds) - start )) ms |"
    done
    umount "$work/mnt"
    rm -f "$work/fs.img"
    echo "$row"
  done
done
