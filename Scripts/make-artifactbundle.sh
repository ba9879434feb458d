#!/usr/bin/env bash
# Builds `bundlekit` in release mode and packs it as a SwiftPM artifact bundle (SE-0305), the
# way SwiftLint and SwiftGen ship their tools, so plugins run a prebuilt binary instead of
# compiling the tool in every user's build.
#
#   Scripts/make-artifactbundle.sh [--output DIR]      # default: Artifacts/
#
# Writes DIR/bundlekit.artifactbundle (a folder SwiftPM reads by path) and
# DIR/bundlekit.artifactbundle.zip with its checksum (for `.binaryTarget(url:checksum:)`). On
# Linux the Swift runtime and Foundation are linked in statically; the binary needs only the
# system's libxml2 and libarchive. Run it on each platform to ship (linux x86_64, linux
# aarch64, macOS) and merge the variants: info.json lists one per triple. With
# Artifacts/bundlekit.artifactbundle present, BundleKit's own plugins use it (Package.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
output=Artifacts
if [[ "${1:-}" == "--output" ]]; then output=$2; fi
mkdir -p "$output"
version=$(sed -n 's/.*version: "\([0-9.]*\)".*/\1/p' Sources/BundleKitCLI/BundleKit.swift | head -1)
triple=$(swift -print-target-info | python3 -c "import json,sys; print(json.load(sys.stdin)['target']['unversionedTriple'])")
flags=()
if [[ "$(uname)" == "Linux" ]]; then flags=(-Xswiftc -static-stdlib); fi
echo "make-artifactbundle: building bundlekit $version for $triple" >&2
# A scratch folder of its own: the static build must not replace the usual release build.
swift build -c release --product bundlekit --scratch-path .build-artifact "${flags[@]}" >&2
bundle="$output/bundlekit.artifactbundle"
variant="bundlekit-$version-$triple"
rm -rf "$bundle"
mkdir -p "$bundle/$variant/bin"
cp .build-artifact/release/bundlekit "$bundle/$variant/bin/bundlekit"
# The symbol table is a quarter of the static binary (85 MB -> 62 MB); debug builds keep it.
if command -v strip >/dev/null; then strip "$bundle/$variant/bin/bundlekit"; fi
cp LICENSE "$bundle/" 2>/dev/null || true
cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "bundlekit": {
      "version": "$version",
      "type": "executable",
      "variants": [
        {
          "path": "$variant/bin/bundlekit",
          "supportedTriples": ["$triple"]
        }
      ]
    }
  }
}
JSON
(cd "$output" && rm -f bundlekit.artifactbundle.zip && python3 -c "
import os, zipfile
with zipfile.ZipFile('bundlekit.artifactbundle.zip', 'w', zipfile.ZIP_DEFLATED) as archive:
    for folder, _, names in sorted(os.walk('bundlekit.artifactbundle')):
        for name in sorted(names):
            path = os.path.join(folder, name)
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (os.stat(path).st_mode & 0xFFFF) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, open(path, 'rb').read())
")
checksum=$(swift package compute-checksum "$output/bundlekit.artifactbundle.zip")
echo "$bundle"
echo "make-artifactbundle: $output/bundlekit.artifactbundle.zip checksum $checksum" >&2
