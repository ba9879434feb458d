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
started=$SECONDS
# The translation memory first: its tests run `bundlekit translate`, and BundleKit's crash
# harness then finds bundlekit-translate beside bundlekit and kills `translate index` too.
swift build --package-path Packages/BundleKitTranslate "${scratch[@]}" --product bundlekit
swift test --package-path Packages/BundleKitTranslate "${scratch[@]}" "${checks[@]}" "$@" 2>&1 | tee "$log"
count_skipped BundleKitTranslate
step "BundleKitTranslate done"
swift test "${scratch[@]}" "${checks[@]}" "$@" 2>&1 | tee "$log"
count_skipped BundleKit
step "BundleKit done"
swift test --package-path Packages/BundleKitLocalize "${scratch[@]}" "${checks[@]}" "$@" 2>&1 | tee "$log"
count_skipped BundleKitLocalize
step "BundleKitLocalize done"
if [[ "$skipped_total" -gt 0 ]]; then
  echo "test.sh: $skipped_total corpus tests or suites skipped (${skipped_detail[*]}): ../shared/corpus is not beside this clone"
else
  echo "test.sh: no corpus test skipped (../shared/corpus is beside this clone)"
fi
