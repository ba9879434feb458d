#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test of the three packages:
# BundleKit, Packages/BundleKitTranslate (the translation memory and server) and
# Packages/BundleKitLocalize (extraction from Swift sources), each helper with the `bundlekit`
# that runs it built beside it.
#
# Arguments go to the Swift Testing runner of each package (`--filter NAME`, `--skip NAME`).
#
# On two cores the run is compile time and test time in about equal parts, and the tests leave
# a core idle a quarter of the time. So the packages build one after another first (each
# compile uses both cores), with the flags below, and then the three test bundles run at once
# (the root bundle's consumer builds in a process of their own, below), beside the release
# build the artifact-bundle tests pack (started with the first build: it fills the cores the
# debug builds leave idle while they link).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { echo "test.sh: $1 at $((SECONDS - started)) s"; }
logs=$(mktemp -d)
pids=()
# A run stopped half way stops what it started (but an install, which is left to finish: a
# package manager stopped half way leaves its database to mend).
test_tmp=
stop() {
  for pid in "${pids[@]}"; do kill -- -"$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  rm -rf "$logs" ${test_tmp:+"$test_tmp"}
}
trap stop EXIT
set -m # each background job its own process group, so the trap stops its children too

# What the builds need, first. What only the tests need (the oracles, PostgreSQL, Chromium, the
# Python readers: on a new machine about 30 s of unpacking and compiling Python, 33 CPU-s) is
# installed while the packages build, and waited for before the tests start: the first build
# starts 23-31 s sooner.
Scripts/bootstrap.sh
oracles=()
if [[ "$(uname)" == Darwin ]]; then
  Scripts/bootstrap.sh --oracles
else
  Scripts/bootstrap.sh --oracles > "$logs/bootstrap.log" 2>&1 &
  oracles=("$!")
fi
Scripts/check-availability.sh
# The tests' temporary folders (their trees, the consumer packages they build, the PostgreSQL
# clusters) on the RAM disk when there is one with room: they make and remove many thousands
# of files, and on this machine's disk (ext4 without a journal, mounted with `discard`) each
# new inode is searched for among those freed in the last minutes (the root bundle alone
# after a build: 88 -> 73 CPU-s). The test phase, four alternated pairs: 0 to 49 CPU-s less
# of 300-360, its time within the machine's noise. The tests pass on either (a developer's
# /tmp is a tmpfs on many systems). A caller's TMPDIR is kept. Set before the builds start, as
# every variable is (below), and so their temporary files go there too.
# (Not where it is mounted `noexec`, as containers often have it: the consumer packages the
# tests build there run what they build.)
shm_options=$(awk '$2 == "/dev/shm" { print $4 }' /proc/mounts 2>/dev/null | tail -n 1 || true)
if [[ -z "${TMPDIR:-}" && -d /dev/shm && -w /dev/shm && ",$shm_options," != *,noexec,* ]] &&
  [[ "$(df --output=avail -k /dev/shm 2>/dev/null | tail -n 1)" -gt $((4 * 1024 * 1024)) ]]; then
  test_tmp=$(mktemp -d /dev/shm/bundlekit-tests.XXXXXX)
  export TMPDIR=$test_tmp
fi
# The committed .swift-format, strictly: formatting, documentation of public API, for-in loops.
# Beside the first build's package resolution, which leaves a core to spare; its findings are
# printed, and fail the run, once the first build is done.
swift format lint --strict --recursive --parallel \
  Sources Tests Plugins Examples/DemoApp/Sources Benchmarks/Sources Packages/BundleKitTranslate/Sources \
  Packages/BundleKitTranslate/Tests Packages/BundleKitLocalize/Sources Packages/BundleKitLocalize/Plugins \
  Packages/BundleKitLocalize/Tests Scripts/fuzz/Sources > "$logs/lint.log" 2>&1 &
lint=$!
pids+=("$lint")

# The release build the artifact-bundle tests pack (Scripts/make-artifactbundle.sh, in its
# scratch folder .build-artifact): the tests run the script, which then finds it done. (It
# ends long before the translate package is built: at 169-175 s of 246-251 in fresh clones.)
(
  bash Scripts/make-artifactbundle.sh --build-only && status=0 || status=$?
  echo "test.sh: the release build ended at $((SECONDS - started)) s"
  exit "$status"
) > "$logs/release.log" 2>&1 &
release=$!
pids+=("$release")

# The three packages build in one scratch folder, the root's: SwiftPM finds BundleKit's
# modules, compiled by the same commands for each package, done already, and each helper is
# beside `bundlekit`. The consumer packages the tests build (ConsumerPackage) use it too, with
# the same flags (BUNDLEKIT_TEST_BUILD_FLAGS), so they compile only their own code.
scratch=("--scratch-path" "$PWD/.build")
# Every import of a module must be a dependency the manifest declares.
checks=("--explicit-target-dependency-import-check" "error")
# No debug information (nothing here runs a debugger; crash reports name functions from the
# symbol table), and each module compiled by one frontend job on two threads instead of
# batches that each type-check the whole module again: a cold build in three quarters of the
# time. That job also writes the module its dependents import, instead of a second job that
# type-checks the module's declarations for it (which lets dependents start sooner, but on two
# busy cores is 10 % more work: the localize package cold, 139 s -> 126 s). No index store
# either, but for the test targets, whose index SwiftPM's test discovery on Linux reads: each
# manifest gives them one when BUNDLEKIT_TEST_INDEX_STORE names it (indexing every module costs
# a cold build 4 to 7 %: BoringSSL's C++ files 7 %, the localize package 251 -> 222 CPU-s).
flags=(-debug-info-format none -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc 2 -Xswiftc -disable-batch-mode
  -Xswiftc -no-emit-module-separately-wmo --disable-index-store)
export BUNDLEKIT_TEST_BUILD_FLAGS="${flags[*]}"
# SwiftPM keys its caches of compiled manifests and plugin scripts on the whole environment,
# down to the shell's `_` (the path of the command it ran). The builds below and the test
# bundles, whose consumer packages run SwiftPM in the same scratch folder, see one: every
# variable is set before the first build, and builds and bundles alike are started through
# `env`. A consumer's build then finds the plugins the package's build compiled, instead of
# compiling eleven of them again (15 to 20 CPU-s).
if [[ "$(uname)" != Darwin ]]; then
  export BUNDLEKIT_TEST_INDEX_STORE="$PWD/.build/$(uname -m)-unknown-linux-gnu/debug/index/store"
  # Where the tests will find the release `bundlekit` (below); unset if it is not built.
  test_tool=.build/test-tool
  export BUNDLEKIT_TEST_TOOL="$PWD/$test_tool/bundlekit"
fi
# BoringSSL's C++ files (529 of them, in the two copies the translate package's dependencies
# compile: swift-crypto's and swift-nio-ssl's) spend half their compile time parsing the same
# C++ standard library headers and instantiating the same templates. So those headers
# (Scripts/cxx-standard-library.h) are precompiled once, templates instantiated, and every C++
# compile of the builds includes the result first, as CMake's precompiled headers do: the 529
# files 201 -> 105 CPU-s. 527 of their objects are the same bytes as without it; the other two
# (crypto/bio/file.cc, which defines _FILE_OFFSET_BITS before its includes, after the header
# has brought in stdio.h) call `fopen` where they called `fopen64`, one function under two
# names on 64-bit glibc. The header is made with the flags SwiftPM gives a debug build's C++
# files; should clang refuse it (other flags, changed system headers), the build runs again
# without it. Linux only; nothing else in the builds is C++.
cxx_flags=()
if [[ "$(uname)" == Linux ]]; then
  pch=.build/cxx-standard-library.pch
  # The toolchain's own clang, the one SwiftPM runs (found through the compiler, not `swift` on
  # the PATH, which may be a proxy such as swiftly's). Another clang's header is refused.
  resources=$(swift -print-target-info 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeResourcePath"])' \
      2>/dev/null || true)
  clang="$resources/../../bin/clang"
  pch_flags=(-target "$(uname -m)-unknown-linux-gnu" -O0 -DSWIFT_PACKAGE=1 -DDEBUG=1 -fblocks -fPIC -g0
    -fno-omit-frame-pointer -w -std=c++17)
  # Made again only when missing, stale or refused. (A C++ object depends on the header and the
  # headers it includes, as its compile lists them, not on the date of this file.)
  if [[ -x "$clang" ]]; then
    if [[ ! -f "$pch" || Scripts/cxx-standard-library.h -nt "$pch" || "$clang" -nt "$pch" ]] ||
      ! "$clang" "${pch_flags[@]}" -include-pch "$pch" -fsyntax-only -x c++ /dev/null 2>/dev/null; then
      mkdir -p .build
      "$clang" "${pch_flags[@]}" -fpch-instantiate-templates -x c++-header Scripts/cxx-standard-library.h \
        -o "$pch.new" && mv "$pch.new" "$pch" || rm -f "$pch" "$pch.new"
    fi
    if [[ -f "$pch" ]]; then cxx_flags=(-Xcxx -include-pch -Xcxx "$PWD/$pch"); fi
  fi
fi
# SwiftPM keeps the build plan of the package it built last in the scratch folder, and can
# take it for the next package's: the plan is dropped before each package (the compiled
# modules stay).
replan() { rm -f .build/debug.yaml .build/*/debug/description.json; }
# SwiftPM also keeps one package's resolution in the scratch folder (workspace-state.json),
# and a resolution there deletes the checkouts its package does not need: the consumer
# packages the tests build deleted the translate package's dependencies, which the next run
# in the same tree checked out again, as new files, and compiled again whole (the three
# builds 161 s instead of 24 on a built tree; a fresh clone has nothing to keep). So each
# package's state is kept after its build (.build/package-states), with the checkouts
# hard-linked beside it (the same files: the inodes and times the build's records hold; 0.4 s
# for 10,000 files), and both are put back before its next build. A checkout SwiftPM makes
# anew (another version) is kept anew. (Linux only: BSD cp has no -l.)
states=.build/package-states
keep_state() {
  [[ "$(uname)" == Linux && -f .build/workspace-state.json ]] || return 0
  mkdir -p "$states/checkouts"
  cp .build/workspace-state.json "$states/$1.json"
  local checkout name
  for checkout in .build/checkouts/*/; do
    [[ -d "$checkout" ]] || continue
    name=$(basename "$checkout")
    if [[ ! "$checkout/Package.swift" -ef "$states/checkouts/$name/Package.swift" ]]; then
      rm -rf "${states:?}/checkouts/$name"
      cp -al "$checkout" "$states/checkouts/$name"
    fi
  done
}
restore_state() {
  [[ "$(uname)" == Linux && -f "$states/$1.json" ]] || return 0
  local kept name
  mkdir -p .build/checkouts
  for kept in "$states"/checkouts/*/; do
    [[ -d "$kept" ]] || continue
    name=$(basename "$kept")
    [[ -e ".build/checkouts/$name" ]] || cp -al "$kept" ".build/checkouts/$name"
  done
  cp "$states/$1.json" .build/workspace-state.json
}
packages=(BundleKitTranslate BundleKit BundleKitLocalize)
package_path() { if [[ "$1" == BundleKit ]]; then echo .; else echo "Packages/$1"; fi; }
build() {
  replan
  local status=0
  # Whole-module jobs are not incremental; the driver says so once per module. Line by line,
  # so that a log timestamped as it is read shows when each step ended.
  env swift build --build-tests "$@" "${scratch[@]}" "${checks[@]}" "${flags[@]}" ${cxx_flags[@]+"${cxx_flags[@]}"} 2>&1 \
    | grep --line-buffered -v -e "remark: Incremental compilation has been disabled" \
    | tee "$logs/build.log" || status=$?
  if [[ "$status" != 0 && ${#cxx_flags[@]} -gt 0 ]] && grep -q -e "precompiled file" -e "precompiled header" "$logs/build.log"; then
    echo "test.sh: clang refused the precompiled C++ header ($pch): building without it"
    cxx_flags=()
    build "$@"
    return
  fi
  return "$status"
}
for name in "${packages[@]}"; do
  restore_state "$name"
  build --package-path "$(package_path "$name")"
  keep_state "$name"
  step "$name built"
  # The lint's findings, once the first build is done (the lint long before).
  if [[ -n "${lint:-}" ]]; then
    lint_status=0
    wait "$lint" || lint_status=$?
    cat "$logs/lint.log"
    unset lint
    if [[ "$lint_status" != 0 ]]; then
      echo "test.sh: swift format lint --strict failed (above)" >&2
      exit 1
    fi
  fi
done

# The tests run `bundlekit` thousands of times, as a user does, and the release build above
# does the same work on a quarter of the CPU the debug build takes (in the root bundle's run,
# 62 -> 14 CPU-s; the test phase 318 -> 277 s). So once it is done the tests run it
# (BUNDLEKIT_TEST_TOOL), from a folder of its own with this build's helpers beside it, as
# `make install` lays them out. The checks are the same: the sources have no `assert` or
# `#if DEBUG`. If it failed, the tests run the debug build and the failure is reported at the
# end.
if [[ "$(uname)" != Darwin ]]; then
  release_status=0
  wait "$release" || release_status=$?
  if [[ "$release_status" == 0 ]]; then
    grep "^test.sh: the release build ended" "$logs/release.log" || true
    step "release built"
    rm -rf "$test_tool" && mkdir -p "$test_tool"
    # A copy, not a link: the artifact-bundle tests run the release build's script again.
    cp .build-artifact/release/bundlekit "$test_tool/bundlekit"
    for helper in bundlekit-morse bundlekit-translate bundlekit-localize; do
      ln -s "$PWD/.build/debug/$helper" "$test_tool/$helper"
    done
  else
    unset BUNDLEKIT_TEST_TOOL
  fi
fi

# SwiftPM builds the tools of a build-tool plugin in a phase of its own, with a database of its
# own (plugin-tools.db) that knows nothing of the builds above. So the demo app's first build
# in this folder compiled every module of `bundlekit` again, and then every SwiftPM run of the
# tests rebuilt some of them (CYaml, Yams, `bundlekit`) in one database or the other, each
# finding the files changed by the other: 6 CPU-s a run. Seeded with the builds' database, the
# phase finds them done. The commands are the same, and llbuild still checks each command's
# signature and each file it made, so an entry that does not match is built again, as before.
# (Another build system keeps no such database: then there is nothing to seed.)
if [[ -f .build/build.db ]]; then cp .build/build.db .build/plugin-tools.db; fi

# Each package's test bundle, straight from the scratch folder (`swift test` would plan the
# package again and hold the folder's lock, which the consumer builds of the other bundles
# need): XCTest's half, then Swift Testing's. On macOS the bundles are not executables:
# `swift test` runs them, one package after another.
#
# On Linux the root bundle's consumer builds (the suites that build packages with SwiftPM
# and run their plugins, mostly waiting on `swift`) run as a process of their own, started
# with the others: inside the root bundle they queued behind its 400 other tests and ran
# last, on one core, while the other stood idle. With arguments the bundle runs whole (a
# filter of the caller's and one of ours would add up, not narrow).
consumers='BundleKitCLITests\.(PluginTests|PluginPackageTests|ArtifactBundleTests)'
runs=(BundleKitTranslate BundleKit BundleKitLocalize)
if [[ "$(uname)" != Darwin && $# -eq 0 ]]; then runs+=(BundleKitConsumers); fi
run_tests() {
  local name=$1 package=$1 status=0 selection=() xctest=yes
  case "$name" in
    BundleKitConsumers) package=BundleKit selection=(--filter "$consumers") xctest=no ;;
    BundleKit) if [[ "${#runs[@]}" -gt 3 ]]; then selection=(--skip "$consumers"); fi ;;
  esac
  local bundle=".build/debug/${package}PackageTests.xctest"
  if [[ "$(uname)" == Darwin ]]; then
    replan
    swift test --skip-build --package-path "$(package_path "$package")" "${scratch[@]}" "${@:2}" \
      > "$logs/$name.log" 2>&1 || status=$?
  else
    # Through `env`, as the builds ran (above).
    { if [[ "$xctest" == yes ]]; then env "$bundle"; fi &&
      env "$bundle" --testing-library swift-testing "${selection[@]}" "${@:2}"; } \
      > "$logs/$name.log" 2>&1 || status=$?
  fi
  echo "$status" > "$logs/$name.status"
}
# The tools the tests need, installed while the packages built.
if [[ ${#oracles[@]} -gt 0 ]]; then
  oracles_status=0
  wait "${oracles[0]}" || oracles_status=$?
  cat "$logs/bootstrap.log"
  if [[ "$oracles_status" != 0 ]]; then
    echo "test.sh: Scripts/bootstrap.sh --oracles failed (above)" >&2
    exit 1
  fi
  step "test tools installed"
fi
test_pids=()
for name in "${runs[@]}"; do
  run_tests "$name" "$@" &
  pids+=("$!")
  test_pids+=("$!")
  if [[ "$(uname)" == Darwin ]]; then wait "$!"; fi
done
# Corpus tests skip (with their reason) when ../shared/corpus is not beside the clone: each
# package's count is kept, and one line at the end says what did not run.
skipped_total=0
skipped_detail=()
failed=()
# Each package's output in order, when it is done; each run must show a suite of its own
# package (arguments may leave it out).
expected=('Suite "PostgreSQL memory"' 'Suite PackageShapeTests' 'Suite SyncPluginTests'
  'Suite PluginTests')
for index in "${!runs[@]}"; do
  name=${runs[$index]}
  wait "${test_pids[$index]}" 2>/dev/null || true
  status=$(cat "$logs/$name.status" 2>/dev/null || echo "no status")
  # A filter that matches nothing in this package: Swift Testing exits 69 when no test ran,
  # which is no failure here.
  if [[ "$status" == 69 && $# -gt 0 ]] && grep -q "Test run with 0 tests" "$logs/$name.log"; then
    status=0
  fi
  cat "$logs/$name.log"
  step "$name tested (exit $status)"
  if [[ "$status" != 0 ]]; then failed+=("$name"); fi
  if [[ $# -eq 0 ]] && ! grep -q "${expected[$index]}" "$logs/$name.log"; then
    echo "test.sh: the $name tests did not run (no ${expected[$index]} in the output)" >&2
    failed+=("$name")
  fi
  count=$(grep -E '(Test|Suite) .* skipped' "$logs/$name.log" | grep -c 'corpus:' || true)
  skipped_total=$((skipped_total + count))
  skipped_detail+=("$name $count")
done
# The release build ended before the tests (Linux), or long ago, or the artifact-bundle tests
# waited for it; its own failure shows in theirs, and here.
if [[ -z "${release_status:-}" ]]; then
  release_status=0
  wait "$release" || release_status=$?
fi
if [[ "$release_status" != 0 ]]; then
  tail -n 40 "$logs/release.log"
  failed+=("release build")
fi
if [[ "$skipped_total" -gt 0 ]]; then
  echo "test.sh: $skipped_total corpus tests or suites skipped (${skipped_detail[*]}): ../shared/corpus is not beside this clone"
else
  echo "test.sh: no corpus test skipped (../shared/corpus is beside this clone)"
fi
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "test.sh: failed: ${failed[*]}" >&2
  exit 1
fi
