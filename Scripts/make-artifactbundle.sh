#!/usr/bin/env bash
# Builds `bundlekit` in release mode and packs it as a SwiftPM artifact bundle (SE-0305), the
# way SwiftLint and SwiftGen ship their tools, so plugins run a prebuilt binary instead of
# compiling the tool in every user's build.
#
#   Scripts/make-artifactbundle.sh [--output DIR] [--no-build | --build-only]
#                                  [--plugin-package DIR [--url URL]]
#
# Writes DIR/bundlekit.artifactbundle (default DIR: Artifacts) and
# DIR/bundlekit.artifactbundle.zip with its checksum (for `.binaryTarget(url:checksum:)`).
#   - Linux: the Swift runtime and Foundation linked in statically; the binary needs only the
#     system's C libraries, and libarchive and libxml2 when it first uses them (loaded then).
#     One variant per triple (x86_64, aarch64).
#   - macOS: one universal binary (arm64 and x86_64), variant `bundlekit-VERSION-macos`.
# Each run adds its platform's variant to the bundle already in DIR (info.json lists every
# variant present), so running it on Linux and macOS into one folder makes one bundle.
# --plugin-package DIR also writes BundleKitPlugins (Scripts/make-plugin-package.py): with
# --url, its binaryTarget names the zip at that URL with this checksum; without, it copies the
# bundle in and names it by path (what the consumer test builds). --no-build packs the
# variants already in DIR (a release job that downloaded each platform's); --build-only
# compiles the release binary and packs nothing (Scripts/test.sh runs it beside the tests, so
# that the artifact-bundle tests find the build done).
#
# Written for macOS's stock bash 3.2: no associative arrays, mapfile or ${x,,}, and no
# empty-array expansion under `set -u`.
set -eu
set -o pipefail
cd "$(dirname "$0")/.."
output=Artifacts
plugin_package=""
url=""
build=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --output) output=$2; shift 2 ;;
    --plugin-package) plugin_package=$2; shift 2 ;;
    --url) url=$2; shift 2 ;;
    --no-build) build=no; shift ;;
    --build-only) build=only; shift ;;
    *)
      echo "usage: $0 [--output DIR] [--no-build | --build-only] [--plugin-package DIR [--url URL]]" >&2
      exit 2 ;;
  esac
done
[ "$build" = only ] || mkdir -p "$output"
version=$(sed -n 's/.*version: "\([0-9.]*\)".*/\1/p' Sources/BundleKitCLI/BundleKit.swift | head -1)
bundle="$output/bundlekit.artifactbundle"
if [ "$build" != no ]; then
  # A scratch folder of its own: the release build for the bundle must not replace the usual one.
  if [ "$(uname)" = "Darwin" ]; then
    variant="bundlekit-$version-macos"
    triples="arm64-apple-macosx x86_64-apple-macosx"
    echo "make-artifactbundle: building bundlekit $version for macOS (arm64, x86_64)" >&2
    swift build -c release --product bundlekit --scratch-path .build-artifact \
      --arch arm64 --arch x86_64 >&2
    built=.build-artifact/apple/Products/Release/bundlekit
  else
    triples=$(swift -print-target-info \
      | python3 -c "import json,sys; print(json.load(sys.stdin)['target']['unversionedTriple'])")
    variant="bundlekit-$version-$triples"
    echo "make-artifactbundle: building bundlekit $version for $triples" >&2
    swift build -c release --product bundlekit --scratch-path .build-artifact \
      -Xswiftc -static-stdlib >&2
    built=.build-artifact/release/bundlekit
  fi
  if [ "$build" = only ]; then exit 0; fi
  mkdir -p "$bundle"
  # Variants of another version are stale; this platform's is replaced.
  for old in "$bundle"/bundlekit-*; do
    [ -e "$old" ] || continue
    case "$old" in
      "$bundle/bundlekit-$version-"*) ;;
      *) rm -rf "$old" ;;
    esac
  done
  rm -rf "${bundle:?}/$variant"
  mkdir -p "$bundle/$variant/bin"
  cp "$built" "$bundle/$variant/bin/bundlekit"
  # The symbol table is a quarter of the static binary (85 MB -> 62 MB); debug builds keep it.
  if command -v strip >/dev/null; then strip "$bundle/$variant/bin/bundlekit"; fi
  echo "$triples" > "$bundle/$variant/triples"
  if [ -f LICENSE ]; then cp LICENSE "$bundle/"; fi
fi
# info.json lists every variant in the folder, with the triples each was built for.
python3 - "$bundle" "$version" <<'PY'
import json, os, sys
bundle, version = sys.argv[1], sys.argv[2]
variants = []
for name in sorted(os.listdir(bundle)):
    triples = os.path.join(bundle, name, "triples")
    if name.startswith("bundlekit-") and os.path.exists(triples):
        variants.append({"path": name + "/bin/bundlekit",
                         "supportedTriples": open(triples).read().split()})
info = {"schemaVersion": "1.0",
        "artifacts": {"bundlekit": {"version": version, "type": "executable", "variants": variants}}}
with open(os.path.join(bundle, "info.json"), "w") as handle:
    json.dump(info, handle, indent=2)
    handle.write("\n")
PY
# The same bytes for the same files: sorted entries, fixed dates, modes kept.
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
echo "$checksum" > "$output/bundlekit.artifactbundle.zip.checksum"
echo "$bundle"
echo "make-artifactbundle: $output/bundlekit.artifactbundle.zip checksum $checksum" >&2
if [ -n "$plugin_package" ]; then
  if [ -n "$url" ]; then
    python3 Scripts/make-plugin-package.py "$plugin_package" --url "$url" --checksum "$checksum"
  else
    python3 Scripts/make-plugin-package.py "$plugin_package" --bundle "$bundle"
  fi
fi
