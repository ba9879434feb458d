#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test of the three packages:
# BundleKit, Packages/BundleKitTranslate (the translation memory and server) and
# Packages/BundleKitLocalize (extraction from Swift sources), each helper with the `bundlekit`
# that runs it built beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --oracles
Scripts/check-availability.sh
# The committed .swift-format, strictly: formatting, documentation of public API, for-in loops.
swift format lint --strict --recursive --parallel \
  Sources Tests Plugins Examples/DemoApp/Sources Benchmarks/Sources Packages/BundleKitTranslate/Sources \
  Packages/BundleKitTranslate/Tests Packages/BundleKitLocalize/Sources Packages/BundleKitLocalize/Plugins \
  Packages/BundleKitLocalize/Tests Scripts/fuzz/Sources
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Corpus tests skip (with their reason) when ../shared/corpus is not beside the clone: each
# package's count is kept, and one line at the end says what did not run.
skipped_total=0
skipped_detail=()
count_skipped() {
  local count
  count=$(grep -E '(Test|Suite) .* skipped' "$log" | grep -c 'corpus:' || true)
  skipped_total=$((skipped_total + count))
  skipped_detail+=("$1 $count")
}
# The three packages build in one scratch folder, the root's: SwiftPM finds BundleKit's
# modules, compiled by the same commands for each package, done already, and each helper is
# beside `bundlekit`. The consumer packages the tests build (ConsumerPackage) use it too.
scratch=("--scratch-path" "$PWD/.build")
# Every import of a module must be a dependency the manifest declares.
checks=("--explicit-target-dependency-import-check" "error")
step() { echo "test.sh: $1 at $((SECONDS - started)) s"; }
# SwiftPM keeps the build plan of the package it built last in the scratch folder, and can
# take it for the next package's: the root's `swift test` after the translation package's ran
# the translation package's tests again, and passed. The plan is dropped before each package
# (the compiled modules stay), and each run must show a suite of its own package.
arguments=$#
replan() { rm -f .build/debug.yaml .build/*/debug/description.json; }
ran() {
  # Arguments to `swift test` (a --filter) may leave the suite out.
  [[ "$arguments" -eq 0 ]] || return 0
  if ! grep -q "$2" "$log"; then
    echo "test.sh: the $1 tests did not run (no \"$2\" in the output)" >&2
    exit 1
  fi
}
started=$SECONDS
# The translation memory first: its tests run `bundlekit translate`, and BundleKit's crash
# harness then finds bundlekit-translate beside bundlekit and kills `translate index` too.
replan
swift build --package-path Packages/BundleKitTranslate "${scratch[@]}" --product bundlekit
swift test --package-path Packages/BundleKitTranslate "${scratch[@]}" "${checks[@]}" "$@" 2>&1 | tee "$log"
ran BundleKitTranslate 'Suite "PostgreSQL memory"'
count_skipped BundleKitTranslate
step "BundleKitTranslate done"
replan
swift test "${scratch[@]}" "${checks[@]}" "$@" 2>&1 | tee "$log"
ran BundleKit 'Suite PackageShapeTests'
count_skipped BundleKit
step "BundleKit done"
replan
swift test --package-path Packages/BundleKitLocalize "${scratch[@]}" "${checks[@]}" "$@" 2>&1 | tee "$log"
ran BundleKitLocalize 'Suite SyncPluginTests'
count_skipped BundleKitLocalize
step "BundleKitLocalize done"
if [[ "$skipped_total" -gt 0 ]]; then
  echo "test.sh: $skipped_total corpus tests or suites skipped (${skipped_detail[*]}): ../shared/corpus is not beside this clone"
else
  echo "test.sh: no corpus test skipped (../shared/corpus is beside this clone)"
fi
