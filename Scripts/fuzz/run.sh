#!/usr/bin/env bash
# The fuzzing campaign: builds every libFuzzer target of this package with
# `-sanitize=fuzzer,address` (a debug build: the internal readers are reached through
# @testable imports), seeds each from ../shared/corpus and the project's own fixtures, and
# runs it for 10^6 executions or 10 minutes, whichever comes first.
#
#   Scripts/fuzz/run.sh [TARGET...]         every target, or the ones named (FuzzStrings ...)
#   RUNS=100000 SECONDS_EACH=60 Scripts/fuzz/run.sh
#
# A crash, leak or timeout is written to Regressions/<TARGET>/ (crash-*, leak-*, timeout-*):
# commit it with its fix; FuzzRegressionTests runs every file there as an ordinary test.
# The working corpora stay in .build-fuzz/, outside git. Figures: .build-fuzz/figures.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scratch="$root/.build-fuzz"
corpus="$root/../shared/corpus"
runs=${RUNS:-1000000}
seconds=${SECONDS_EACH:-600}

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(FuzzBinaryPlist FuzzXMLPlist FuzzStrings FuzzStringsdict FuzzCatalog FuzzPBXProj
    FuzzXcconfig FuzzYAMLSpec FuzzTuistManifest FuzzXLIFF FuzzTMX FuzzSwiftExtraction)
fi

swift build --package-path "$here" --scratch-path "$scratch" -c debug \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

# The project's own fixtures of each kind, made where they are generated.
fixtures="$scratch/fixtures"
if [[ ! -d "$fixtures" ]]; then
  mkdir -p "$fixtures"
  python3 "$root/Tests/VersioningTests/Fixtures/Projects/make-projects.py" "$fixtures/projects" >/dev/null
  python3 "$root/Tests/BundleKitCLITests/Hostile/make-hostile.py" "$fixtures/hostile" >/dev/null
fi

# seeds TARGET: the files a target starts from, one path per line.
seeds() {
  local find_in=("$corpus" "$root/Tests" "$root/Examples" "$fixtures" "$here/Seeds/$1")
  case "$1" in
  FuzzBinaryPlist) find "${find_in[@]}" -type f -name '*.bplist' -size -1024k ;;
  FuzzXMLPlist) find "${find_in[@]}" -type f \( -name '*.plist' -o -name '*.xml' \) -size -1024k ;;
  FuzzStrings) find "${find_in[@]}" -type f -name '*.strings' -size -1024k | head -400 ;;
  FuzzStringsdict) find "${find_in[@]}" -type f -name '*.stringsdict' -size -1024k ;;
  FuzzCatalog) find "${find_in[@]}" -type f -name '*.xcstrings' -size -1024k ;;
  FuzzPBXProj) find "${find_in[@]}" -type f -name 'project.pbxproj' -size -1024k ;;
  FuzzXcconfig) find "${find_in[@]}" -type f -name '*.xcconfig' -size -1024k ;;
  FuzzYAMLSpec) find "${find_in[@]}" -type f \( -name '*.yml' -o -name '*.yaml' \) -size -1024k ;;
  FuzzTuistManifest) find "${find_in[@]}" -type f -name 'Project.swift' -size -1024k ;;
  FuzzXLIFF) find "${find_in[@]}" -type f \( -name '*.xliff' -o -name '*.xlf' \) -size -1024k ;;
  FuzzTMX) find "${find_in[@]}" -type f -name '*.tmx' -size -1024k ;;
  FuzzSwiftExtraction) find "${find_in[@]}" -type f -name '*.swift' -size -64k | grep -v '/\.build' | head -400 ;;
  esac 2>/dev/null || true
}

: >"$scratch/figures.txt"
for target in "${targets[@]}"; do
  work="$scratch/corpus/$target"
  mkdir -p "$work" "$here/Regressions/$target"
  seeds "$target" | while read -r file; do
    cp -f "$file" "$work/seed-$(sha1sum "$file" | cut -c1-16)" 2>/dev/null || true
  done
  log="$scratch/$target.log"
  echo "fuzz: $target ($(ls "$work" | wc -l) inputs to start from)"
  set +e
  (cd "$scratch" && ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$scratch/debug/$target" "$work" -runs="$runs" -max_total_time="$seconds" \
    -rss_limit_mb=4096 -timeout=20 -max_len=262144 -print_final_stats=1 \
    -artifact_prefix="$here/Regressions/$target/" >"$log" 2>&1)
  status=$?
  set -e
  executions=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  found=$(ls "$here/Regressions/$target" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-' || true)
  echo "$target executions=${executions:-?} exit=$status findings=$found" | tee -a "$scratch/figures.txt"
done
