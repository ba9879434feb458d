#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test of both packages:
# BundleKit, and Packages/BundleKitTranslate (the translation memory and server, with the
# `bundlekit` it runs built beside its helper).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --oracles
Scripts/check-availability.sh
# The committed .swift-format, strictly: formatting, documentation of public API, for-in loops.
swift format lint --strict --recursive --parallel \
  Sources Tests Plugins Examples/DemoApp/Sources Packages/BundleKitTranslate/Sources \
  Packages/BundleKitTranslate/Tests
swift test "$@"
swift build --package-path Packages/BundleKitTranslate --product bundlekit
swift test --package-path Packages/BundleKitTranslate "$@"
