#!/usr/bin/env bash
# The quick start: installs what is missing, builds `bundlekit`, and runs the main job, the
# release chain, on a copy of Examples/DemoApp (so the checkout stays as it is): lint and
# compile its strings tables, bump its build numbers, archive each target's resources under
# dist/, print the report. Then builds and runs the demo app itself, whose plugins compile its
# tables, generate accessors, embed files and stamp its build info.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build -c release --product bundlekit
bundlekit=$PWD/.build/release/bundlekit
work=${BUNDLEKIT_DEMO_DIR:-$(mktemp -d)}
mkdir -p "$work"
rm -rf "$work/DemoApp"
cp -R Examples/DemoApp "$work/DemoApp"
rm -rf "$work/DemoApp/.build" "$work/DemoApp/dist" "$work/DemoApp/Package.resolved"
# The copy depends on this checkout by absolute path.
sed -i.orig "s#path: \"../..\"#path: \"$PWD\"#" "$work/DemoApp/Package.swift"
rm -f "$work/DemoApp/Package.swift.orig"
set -x
"$bundlekit" scan "$work/DemoApp"
"$bundlekit" release "$work/DemoApp" --dry-run
"$bundlekit" release "$work/DemoApp"
"$bundlekit" archive list "$work/DemoApp/dist/DemoKit-1.4.0-13.tar.gz"
swift run --package-path "$work/DemoApp" DemoApp
set +x
echo
echo "The demo package is in $work/DemoApp; its archives are in $work/DemoApp/dist."
