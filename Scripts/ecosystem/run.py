#!/usr/bin/env python3
"""The ecosystem check: every BundleKit command run on real repositories, each judged by
something that is not BundleKit's own code.

    run.py SNAPSHOTS [--repos Scripts/ecosystem/repos.txt] [--tools DIR] [--jobs 2]
           [--only OWNER/NAME ...] [--report Benchmarks/ecosystem.md] [--timeout 120]
           [--memory-gb 4] [--scratch DIR]

SNAPSHOTS holds what `fetch github:OWNER/NAME` brought: OWNER+NAME/repo, a git directory.
Each repository is checked out at its pinned commit into a scratch tree outside this one
(git archive), and these run there, each under a time limit and a memory cap:

  version            -- and, where a spec (XcodeGen, Tuist) sits beside the .xcodeproj it
                        generates, the versions read from each agree, target for target
  bump build / bump version patch, with --dry-run
                     -- the diff passes `git apply --check` and touches no generated or
                        vendored file (Derived/, Pods/, *.xcframework)
  strings lint       -- exits 0 or 1 (a finding), never anything else
  strings compile    -- every output is a property list CoreFoundation reads (plutil -lint)
  strings extract    -- against the keys Xcode extracted into each catalog (no
                        extractionState, or extracted / extracted_with_value): recall and
                        precision
  strings sync --check
                     -- clean wherever the catalog was committed after the code last changed;
                        where the code changed after it, at the commit that last changed it
  strings export, then strings import --dry-run of that export (every language, the
  development language's own included)
                     -- imports nothing: an unedited export changes no byte
  strings export of a committed .xcloc's Source Contents
                     -- Xcode's own Localized Contents: units equal by id (source, target,
                        state, note), <file> elements and whole exports byte-identical but
                        <tool> (the order); units Xcode read from code are counted apart
  strings import of a committed .xcloc into a copy of its Source Contents, then export
                     -- Xcode's own Localized Contents again, byte for byte but <tool>
  scan               -- exits 0 or 1

A crash is any exit status but 0 and 1 (2 is a usage error, which these commands never
are); a hang is the time limit reached. The report (figures only, no third-party text) goes
to --report with the date and BundleKit's commit; an earlier report there is compared with,
and what changed is listed.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pbxproj
import xcloc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GENERATED = re.compile(r"(^|/)(Derived|Pods|DerivedData|\.build|Carthage)/|\.xcframework/")
XCODE_EXTRACTED = {None, "extracted", "extracted_with_value"}


def read_repos(path):
    repos = []
    with open(path) as file:
        for line in file:
            text = line.split("#", 1)
            fields = text[0].split()
            if len(fields) < 2:
                continue
            groups = text[1].strip() if len(text) > 1 else ""
            repos.append({"name": fields[0], "commit": fields[1], "groups": groups})
    return repos


class Runner:
    def __init__(self, args):
        self.args = args
        # The Swift packages of each tree read (a tree is walked once for them).
        self.packages_of = {}
        self.tools = os.path.abspath(args.tools) if args.tools else None
        tool = os.path.join(self.tools, "bundlekit") if self.tools else shutil.which("bundlekit")
        if not tool or not os.path.exists(tool):
            sys.exit("run.py: no bundlekit: give --tools DIR (a release build: bundlekit and bundlekit-localize)")
        self.tool = tool
        self.plutil = shutil.which("plutil")
        # The helpers beside it (bundlekit-localize) for every run, xcloc.py's too.
        if self.tools:
            os.environ["PATH"] = self.tools + os.pathsep + os.environ.get("PATH", "")

    def run(self, arguments, cwd, stdin=None):
        """Runs bundlekit under the time limit and memory cap: (status, stdout, stderr, seconds)."""
        limit = self.args.memory_gb * 1024 * 1024
        env = dict(os.environ)
        if self.tools:
            env["PATH"] = self.tools + os.pathsep + env.get("PATH", "")
        # A home of its own: journal keys and caches stay out of the user's.
        env["HOME"] = os.path.join(self.args.scratch, "home")
        env["BUNDLEKIT_STATE_DIR"] = os.path.join(self.args.scratch, "home", "state")
        command = ["bash", "-c", f'ulimit -v {limit}; exec timeout {self.args.timeout} "$0" "$@"',
                   self.tool] + arguments
        start = time.time()
        done = subprocess.run(command, cwd=cwd, capture_output=True, env=env, input=stdin)
        return done.returncode, done.stdout, done.stderr.decode(errors="replace"), time.time() - start

    def check(self, repo):
        name, commit = repo["name"], repo["commit"]
        gitdir = os.path.join(self.args.snapshots, name.replace("/", "+"), "repo")
        row = {"repo": name, "groups": repo["groups"], "crashes": [], "hangs": []}
        if not os.path.isdir(gitdir):
            row["missing"] = "no snapshot: fetch github:" + name
            return row
        tree = os.path.join(self.args.scratch, "trees", name.replace("/", "+"))
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        if not self.checkout(gitdir, commit, tree):
            row["missing"] = f"commit {commit[:12]} is not in the snapshot"
            return row
        # A repository of its own, so `git apply --check` judges the dry runs against it.
        subprocess.run(["git", "init", "-q"], cwd=tree)
        row["seconds"] = 0.0

        def bundlekit(label, arguments, cwd=tree):
            status, out, err, seconds = self.run(arguments, cwd)
            row["seconds"] += seconds
            if status == 124:
                row["hangs"].append(label)
            elif status not in (0, 1):
                row["crashes"].append(f"{label} ({status})")
            return status, out, err

        self.versions(row, tree, gitdir, commit, bundlekit)
        self.bumps(row, tree, bundlekit)
        self.tables(row, tree, gitdir, commit, bundlekit)
        status, _, _ = bundlekit("scan", ["scan", "."])
        row["scan"] = "ok" if status in (0, 1) else "crash"
        if not self.args.keep:
            for made in [tree] + row.pop("trees", []):
                shutil.rmtree(made, ignore_errors=True)
        return row

    @staticmethod
    def checkout(gitdir, commit, tree):
        """Writes the files of `commit` into `tree`. A snapshot may lack its largest files
        (and LFS content): those are left out, the rest written."""
        archive = subprocess.run(["git", "--git-dir", gitdir, "archive", commit], capture_output=True)
        if archive.returncode == 0:
            subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
            return True
        listing = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", commit],
                                 capture_output=True)
        if listing.returncode != 0:
            return False
        entries = []
        for item in listing.stdout.split(b"\0"):
            if not item:
                continue
            meta, path = item.split(b"\t", 1)
            mode, kind, oid = meta.split()
            if kind == b"blob":
                entries.append((mode, oid, path.decode(errors="surrogateescape")))
        batch = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        for mode, oid, path in entries:
            batch.stdin.write(oid + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            if len(header) < 3 or header[1] == b"missing":
                continue
            data = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)
            target = os.path.join(tree, path)
            if os.path.commonpath([os.path.abspath(target), tree]) != tree:
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if mode == b"120000":
                os.symlink(data.decode(errors="surrogateescape"), target)
            else:
                with open(target, "wb") as file:
                    file.write(data)
                if mode == b"100755":
                    os.chmod(target, 0o755)
        batch.stdin.close()
        batch.wait()
        return True

    # -- versions -------------------------------------------------------------------------

    @staticmethod
    def rows(out):
        try:
            value = json.loads(out or b"[]")
        except ValueError:
            return None
        return value if isinstance(value, list) else []

    def versions(self, row, tree, gitdir, commit, bundlekit):
        status, out, err = bundlekit("version", ["version", ".", "--format", "json"])
        rows = self.rows(out) or []
        row["targets"] = len(rows)
        row["version_problems"] = sum(1 for r in rows if r.get("problems"))
        row["version_status"] = status
        # A spec beside the project it generates: both read alone must agree.
        agree = disagree = stale = 0
        for folder, _, files in os.walk(tree):
            if "/." in folder[len(tree):] or GENERATED.search(folder[len(tree):] + "/"):
                continue
            specs = [f for f in files if f == "project.yml" or f == "Project.swift"]
            projects = [d for d in os.listdir(folder) if d.endswith(".xcodeproj")]
            if not specs or not projects:
                continue
            relative = os.path.relpath(folder, tree)
            _, spec_out, _ = bundlekit("version spec", ["version", os.path.join(relative, specs[0]), "--format", "json"])
            spec_rows = {r.get("target"): r for r in self.rows(spec_out) or []}
            spec_time = self.last_change(gitdir, commit, [os.path.join(relative, specs[0])])
            for project in projects:
                # A project committed before its spec last changed was not generated from
                # this spec: it says nothing of how the spec reads.
                project_time = self.last_change(
                    gitdir, commit, [os.path.join(relative, project, "project.pbxproj")])
                if spec_time and project_time and project_time < spec_time:
                    stale += 1
                    continue
                _, project_out, _ = bundlekit(
                    "version project", ["version", os.path.join(relative, project), "--format", "json"])
                for target in self.rows(project_out) or []:
                    # A target the project has and the spec reading lacks is a miss too
                    # (a template, a multi-platform target the spec expands).
                    spec = spec_rows.get(target.get("target"), {})
                    same = all(spec.get(k) == target.get(k)
                               for k in ("CFBundleVersion", "CFBundleShortVersionString"))
                    agree += same
                    disagree += not same
        row["spec_vs_project"] = (f"{agree}/{agree + disagree}" if agree + disagree else "-") + (
            f" ({stale} stale)" if stale else "")
        row["spec_agree"], row["spec_pairs"] = agree, agree + disagree

    # -- bumps ----------------------------------------------------------------------------

    def bumps(self, row, tree, bundlekit):
        for label, arguments in (("bump build", ["bump", "build", "--dry-run"]),
                                 ("bump patch", ["bump", "version", "patch", "--dry-run"])):
            status, out, err = bundlekit(label, arguments)
            key = label.replace(" ", "_")
            if status != 0:
                row[key] = "refused" if status == 1 else "crash"
                continue
            if not out.strip():
                row[key] = "no change"
                continue
            touched = re.findall(rb"^\+\+\+ b/(.*)$", out, re.M)
            if any(GENERATED.search(t.decode(errors="replace")) for t in touched):
                row[key] = "touches generated"
                continue
            applies = subprocess.run(["git", "apply", "--check", "-"], cwd=tree, input=out,
                                     capture_output=True)
            row[key] = "applies" if applies.returncode == 0 else "not a patch"

    # -- tables ---------------------------------------------------------------------------

    def tables(self, row, tree, gitdir, commit, bundlekit):
        status, out, err = bundlekit("strings lint", ["strings", "lint", ".", "--format", "json"])
        row["lint"] = {0: "clean", 1: "findings"}.get(status, "crash")
        # Each bundle's tables compile on their own, as each target's build compiles them:
        # two targets' Localizable.strings are two outputs, not one.
        compiled = failed = refused = 0
        for index, bundle in enumerate(self.bundles(tree)):
            output = os.path.join(self.args.scratch, "compiled", row["repo"].replace("/", "+"), str(index))
            shutil.rmtree(output, ignore_errors=True)
            status, out, err = bundlekit("strings compile", ["strings", "compile", bundle, "--output-dir", output])
            if status != 0:
                refused += 1
                continue
            for folder, _, files in os.walk(output):
                for name in files:
                    compiled += 1
                    if self.plutil:
                        lint = subprocess.run([self.plutil, "-lint", os.path.join(folder, name)],
                                              capture_output=True)
                        failed += lint.returncode != 0
            shutil.rmtree(output, ignore_errors=True)
        row["compile"] = f"{compiled - failed}/{compiled}" + (f", {refused} refused" if refused else "")
        row["compile_ok"], row["compile_total"], row["compile_refused"] = compiled - failed, compiled, refused
        self.extraction(row, tree, gitdir, commit, bundlekit)
        self.exchange(row, tree, bundlekit)
        self.committed_exports(row, tree)
        self.project_exports(row, tree, gitdir, commit)

    def project_exports(self, row, tree, gitdir, commit):
        """Where a repository commits Xcode's export beside its project (stats): the project,
        checked out at the commit that last changed the export, exported in the export's
        language; each InfoPlist.strings <file> Xcode made from a target's Info.plist is
        compared byte for byte but <tool> (the tables no file holds)."""
        made = total = found_units = xcode_units = 0
        for path in committed_xclocs(tree):
            relative = os.path.relpath(path, tree)
            earlier = self.catalog_commit_tree(row, gitdir, commit, relative)
            if not earlier:
                continue
            xcloc_then = os.path.join(earlier, relative)
            # The project the export names (Xcode 13 on), or any where it names none (11.6).
            with open(os.path.join(xcloc_then, "contents.json"), encoding="utf-8") as handle:
                named = json.load(handle).get("project")
            projects = [f for f, folders, _ in os.walk(earlier) if f.endswith(".xcodeproj")
                        and ".xcloc" not in f and (not named or os.path.basename(f) == named)]
            if not projects:
                continue
            language, development, xliff = xcloc.languages(xcloc_then)
            expected = {k: v for k, v in xcloc.blocks(xliff).items()
                        if os.path.basename(k) in ("InfoPlist.strings", "InfoPlist.xcstrings")}
            if not expected:
                continue
            with tempfile.TemporaryDirectory() as scratch:
                ours, _ = xcloc.export(self.tool, earlier, language, development, scratch)
                found = xcloc.blocks(ours) if ours else {}
                # Every unit of Xcode's export, by file and id: the code's strings and the
                # Info.plist's included, which Source Contents cannot give.
                theirs = {(f, u[0]) for f, us in xcloc.units(xliff) for u in us}
                mine = {(f, u[0]) for f, us in xcloc.units(ours) for u in us} if ours else set()
            total += len(expected)
            made += sum(1 for k, v in expected.items() if found.get(k) == v)
            xcode_units += len(theirs)
            found_units += len(theirs & mine)
        if total:
            row["infoplist"] = f"{made}/{total}"
            row["infoplist_counts"] = (made, total, found_units, xcode_units)

    @staticmethod
    def bundles(tree):
        """The folders whose tables one target compiles: the one holding `<lang>.lproj`
        folders, or a catalog's own folder; vendored and generated folders left out."""
        found = set()
        for folder, folders, files in os.walk(tree):
            relative = os.path.relpath(folder, tree)
            folders[:] = [f for f in folders if not f.startswith(".") and not f.endswith(".xcloc")
                          and not GENERATED.search(os.path.join(relative, f) + "/")]
            if relative.endswith(".lproj") and any(f.endswith((".strings", ".stringsdict")) for f in files):
                found.add(os.path.dirname(relative) or ".")
            if any(f.endswith(".xcstrings") for f in files):
                found.add(relative)
        # A folder inside another found one is compiled with it only when it is its own
        # bundle: keep every one, but each as its own run.
        return sorted(found)

    @staticmethod
    def catalogs(tree):
        found = []
        for folder, folders, files in os.walk(tree):
            relative = os.path.relpath(folder, tree)
            folders[:] = [f for f in folders if not f.startswith(".") and not f.endswith(".xcloc")
                          and not GENERATED.search(os.path.join(relative, f) + "/")]
            found += [os.path.join(relative, f) for f in files if f.endswith(".xcstrings")]
        return sorted(found)

    @staticmethod
    def target_folder(tree, catalog):
        """The folder a catalog's strings come from: the nearest one above it holding Swift."""
        folder = os.path.dirname(catalog)
        while True:
            full = os.path.join(tree, folder)
            for _, _, files in os.walk(full):
                if any(f.endswith(".swift") for f in files):
                    return folder or "."
            if folder in ("", "."):
                return "."
            folder = os.path.dirname(folder)

    @staticmethod
    def holding_folders(tree, catalog):
        """The source folders of the targets that hold an app's catalog, as its Xcode project
        says (a widget extension without the catalog adds nothing to it); None when no
        project says."""
        for folder, folders, _ in os.walk(tree):
            folders[:] = sorted(f for f in folders if not f.startswith(".")
                                and not GENERATED.search(os.path.join(folder, f) + "/"))
            for name in list(folders):
                if name.endswith(".xcodeproj"):
                    project = os.path.relpath(os.path.join(folder, name), tree)
                    found = pbxproj.folders_of_targets_holding(
                        tree, project, os.path.normpath(catalog))
                    if found:
                        return found
            folders[:] = [f for f in folders if not f.endswith((".xcodeproj", ".xcworkspace"))]
        return None

    @staticmethod
    def module_folder(catalog, package):
        """The folder of the package target a catalog belongs to: Sources/<Target> (or
        Sources itself when the catalog sits there), so its tests and other targets are not
        read; the package folder when the catalog is outside Sources/."""
        parts = catalog[len(package) + 1:].split("/")
        if "Sources" in parts:
            at = parts.index("Sources")
            keep = at + 2 if at + 2 < len(parts) else at + 1
            return "/".join([package] + parts[:keep])
        return package

    @staticmethod
    def package_folders(tree):
        """The folders below the root that are Swift packages (hold a Package.swift)."""
        found = []
        for folder, folders, files in os.walk(tree):
            relative = os.path.relpath(folder, tree)
            folders[:] = [f for f in folders if not f.startswith(".")
                          and not GENERATED.search(os.path.join(relative, f) + "/")]
            if relative != "." and "Package.swift" in files:
                found.append(relative)
                folders[:] = []
        return sorted(found)

    @staticmethod
    def app_folders(tree, packages):
        """The top folders of the app's own code: every folder of the root but the Swift
        packages (a folder that holds packages is entered, its other folders taken)."""
        result = []

        def visit(relative):
            full = os.path.join(tree, relative)
            for name in sorted(os.listdir(full)):
                child = os.path.normpath(os.path.join(relative, name))
                if name.startswith(".") or not os.path.isdir(os.path.join(tree, child)):
                    continue
                if GENERATED.search(child + "/") or child in packages:
                    continue
                if any(p.startswith(child + "/") for p in packages):
                    visit(child)
                else:
                    result.append(child)

        visit(".")
        return result

    @staticmethod
    def interface_files(tree):
        """The names (without extension) of the storyboards and xibs of the tree: a catalog
        named after one holds Interface Builder's strings, which Xcode extracts from it, not
        from Swift."""
        names = set()
        for folder, folders, files in os.walk(tree):
            folders[:] = [f for f in folders if not f.startswith(".")]
            for name in files:
                if name.endswith((".storyboard", ".xib")):
                    names.add(name.rsplit(".", 1)[0])
        return names

    def extraction(self, row, tree, gitdir, commit, bundlekit):
        found = self.catalogs(tree)
        interface = self.interface_files(tree)
        # Xcode's keys by table: every catalog of one name is one table (a shared catalog
        # collects the strings of several targets' sources).
        expected = {}
        places = {}
        manual = {}
        sync_folders = {}
        for catalog in found:
            table = os.path.basename(catalog)[: -len(".xcstrings")]
            if table in interface:
                continue
            try:
                with open(os.path.join(tree, catalog), encoding="utf-8") as file:
                    strings = json.load(file).get("strings", {})
            except (ValueError, OSError):
                continue
            # The empty key too: Xcode extracts Toggle("", isOn:) as "".
            xcode = {k for k, v in strings.items()
                     if isinstance(v, dict) and v.get("extractionState") in XCODE_EXTRACTED}
            if not xcode:
                continue
            # Keys a person added (manual) are in the catalog whatever the code holds: one
            # we extract too is neither a hit nor a false one.
            manual.setdefault(table, set()).update(
                k for k, v in strings.items()
                if isinstance(v, dict) and v.get("extractionState") == "manual")
            expected.setdefault(table, set()).update(xcode)
            places.setdefault(table, []).append(catalog)
        if not expected:
            row["extraction"] = "-"
            row["sync"] = "-"
            return
        ours = {}
        for table, catalogs in places.items():
            folders = set()
            for catalog in catalogs:
                sources = self.source_folders(tree, catalog)
                folders.update(sources)
                sync_folders[catalog] = self.sync_paths(catalog, sources)
            if not folders:
                continue
            status, out, err = bundlekit(
                "strings extract", ["strings", "extract", *sorted(folders), "--format", "json"])
            if status != 0 and "bundlekit-localize" in err:
                row["extraction"] = "no helper"
                return
            try:
                extracted = json.loads(out or b"[]")
            except ValueError:
                extracted = []
            ours[table] = {s.get("key") for s in extracted if s.get("table") == table}
        expected_total = matched_total = extracted_total = 0
        for table, xcode in expected.items():
            mine = ours.get(table, set()) - (manual.get(table, set()) - xcode)
            expected_total += len(xcode)
            extracted_total += len(mine)
            matched_total += len(mine & xcode)
        row["recall"] = matched_total / expected_total
        row["precision"] = matched_total / extracted_total if extracted_total else 0.0
        row["extraction"] = (f"{100 * row['recall']:.1f}% / {100 * row['precision']:.1f}% "
                             f"({matched_total} of {expected_total})")
        row["catalogs_judged"] = sum(len(v) for v in places.values())
        # Sync: judged where the catalog was committed after the code last changed, on the
        # folders its strings come from (the sources of the targets holding it, as for
        # extraction). Where the code changed after it, at the commit that last changed the
        # catalog: there the catalog is Xcode's own extraction of that code.
        clean = eligible = earlier = 0
        for table, catalogs in places.items():
            for catalog in catalogs:
                folders = sync_folders.get(catalog) or [self.target_folder(tree, catalog)]
                # A folder's Swift files, or a Swift file named on its own (where a folder's
                # files are given one by one); the catalog itself is no source.
                swift_time = self.last_change(
                    gitdir, commit,
                    [f if f.endswith(".swift") else os.path.join(f, "*.swift")
                     for f in folders if not f.endswith(".xcstrings")])
                catalog_time = self.last_change(gitdir, commit, [catalog])
                if not (catalog_time and swift_time):
                    continue
                where = tree
                if catalog_time < swift_time:
                    where = self.catalog_commit_tree(row, gitdir, commit, catalog)
                    if where is None:
                        continue
                    # The targets as that commit's project had them.
                    folders = self.sync_paths(catalog, self.source_folders(where, catalog))
                    # The sources as that commit had them (a file added since is not there).
                    folders = [f for f in folders if os.path.exists(os.path.join(where, f))]
                    if not folders:
                        continue
                    earlier += 1
                eligible += 1
                status, out, err = bundlekit(
                    "strings sync --check", ["strings", "sync", *folders, "--check"], cwd=where)
                clean += status == 0
                if status != 0 and self.args.verbose:
                    print(f"sync {row['repo']} {catalog} ({where}, {folders}): {out.decode(errors='replace')[:3000]} {err[-3000:]}",
                          file=sys.stderr)
        row["sync"] = (f"{clean}/{eligible}" + (f" ({earlier} at the catalog's commit)" if earlier else "")
                       if eligible else "-")
        row["sync_clean"], row["sync_eligible"] = clean, eligible

    def source_folders(self, tree, catalog):
        """What Xcode extracts into a catalog is the code of the targets that hold it: an
        app's folders (not the Swift packages beside it, whose strings go to their own
        bundles), or the package a module catalog is in."""
        if tree not in self.packages_of:
            self.packages_of[tree] = self.package_folders(tree)
        packages = self.packages_of[tree]
        owner = next((p for p in packages if catalog.startswith(p + "/")), None)
        if owner:
            return [self.module_folder(catalog, owner)]
        return self.holding_folders(tree, catalog) or self.app_folders(tree, packages)

    @staticmethod
    def sync_paths(catalog, sources):
        """Sync reads the same sources, and the catalog itself for the table (named on its
        own: its folder may hold other targets' sources, a widget's beside an app's catalog
        at the root)."""
        catalog_folder = os.path.dirname(os.path.normpath(catalog)) or "."
        if not any(catalog_folder == f or catalog_folder.startswith(f + "/")
                   or f == "." for f in sources):
            sources = list(sources) + [os.path.normpath(catalog)]
        return sorted(sources)

    @staticmethod
    def source_language(catalog):
        try:
            with open(catalog, encoding="utf-8") as handle:
                return json.load(handle).get("sourceLanguage") or "en"
        except (OSError, ValueError):
            return "en"

    def catalog_commit_tree(self, row, gitdir, commit, catalog):
        """A checkout of the commit that last changed `catalog` (up to `commit`), or None;
        removed with the repository's tree."""
        done = subprocess.run(["git", "--git-dir", gitdir, "log", "-1", "--format=%H", commit, "--", catalog],
                              capture_output=True, text=True)
        earlier = done.stdout.strip()
        if not earlier:
            return None
        tree = os.path.join(self.args.scratch, "trees", row["repo"].replace("/", "+") + "@" + earlier[:12])
        if not os.path.isdir(tree):
            row.setdefault("trees", []).append(tree)
            os.makedirs(tree)
            if not self.checkout(gitdir, earlier, tree):
                shutil.rmtree(tree, ignore_errors=True)
                return None
        return tree

    @staticmethod
    def last_change(gitdir, commit, paths):
        done = subprocess.run(["git", "--git-dir", gitdir, "log", "-1", "--format=%ct", commit, "--"] + paths,
                              capture_output=True, text=True)
        text = done.stdout.strip()
        return int(text) if text.isdigit() else None

    def committed_exports(self, row, tree):
        """Each committed .xcloc exported again from its own Source Contents, against Xcode's;
        and Xcode's export imported into a copy of its Source Contents, then exported again
        (the translations and strings from code Source Contents leaves out)."""
        units = equal = missing = files = identical = whole = exports = again = 0
        for path in committed_xclocs(tree):
            try:
                result = xcloc.counts(self.tool, path)
                same, _ = xcloc.round_trip(self.tool, path)
            except Exception as error:  # an export that failed or a bundle Python cannot read
                row["crashes"].append(f"xcloc {os.path.basename(path)} ({type(error).__name__})")
                continue
            again += bool(same)
            equal, units = equal + result["equal"], units + result["units"]
            missing += result["missing"]
            identical, files = identical + result["identical"], files + result["files"]
            whole, exports = whole + result["whole"], exports + 1
        if files:
            row["xcloc"] = (f"units {equal}/{units} ({missing} only in Xcode's), files {identical}/{files}, "
                            f"exports {whole}/{exports}, imported and exported {again}/{exports}")
            row["xcloc_counts"] = (equal, units, identical, files, missing, whole, exports, again)

    def exchange(self, row, tree, bundlekit):
        exported = os.path.join(self.args.scratch, "xcloc", row["repo"].replace("/", "+"))
        shutil.rmtree(exported, ignore_errors=True)
        status, out, err = bundlekit("strings export", ["strings", "export", ".", "--xcloc", exported])
        # The development language's own export too: imported unedited, it must change nothing
        # either. It is the only one of tables in that language alone (Cami's catalog).
        development = next((self.source_language(os.path.join(tree, c)) for c in self.catalogs(tree)),
                           "en")
        only_development = status != 0 and "other than the development language" in err
        if status == 0 or only_development:
            own, _, own_err = bundlekit("strings export", [
                "strings", "export", ".", "--xcloc", exported, "--language", development,
                "--development-language", development])
            if only_development:
                status, err = own, own_err
        if status != 0:
            row["import"] = "nothing to export" if "nothing to export" in err else "export refused"
            return
        bundles = sorted(os.path.join(exported, b) for b in os.listdir(exported) if b.endswith(".xcloc"))
        status, out, err = bundlekit("strings import", ["strings", "import", *bundles, ".", "--dry-run"])
        row["import"] = ("no-op" if status == 0 and not out.strip() else
                         ("changes" if status == 0 else "refused"))
        shutil.rmtree(exported, ignore_errors=True)


def committed_xclocs(tree):
    """The .xcloc bundles a repository commits (outside vendored folders), sorted."""
    found = []
    for folder, folders, _ in os.walk(tree):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in ("Pods", "Carthage"))
        for name in list(folders):
            if name.endswith(".xcloc"):
                path = os.path.join(folder, name)
                # An export to compare holds Xcode's XLIFF (mastoot's fr.xcloc has none).
                localized = os.path.join(path, "Localized Contents")
                if (os.path.exists(os.path.join(path, "contents.json")) and os.path.isdir(localized)
                        and any(n.endswith(".xliff") for n in os.listdir(localized))):
                    found.append(path)
                folders.remove(name)
    return sorted(found)


COLUMNS = [("repo", "repository"), ("targets", "targets"), ("spec_vs_project", "spec = project"),
           ("bump_build", "bump build"), ("bump_patch", "bump patch"), ("lint", "lint"),
           ("compile", "compile (plutil)"), ("extraction", "extract recall / precision"),
           ("sync", "sync clean"), ("import", "import of export"),
           ("xcloc", "Xcode's export again"), ("problems", "crashes, hangs")]


def cells(row):
    """A row's cells as the report writes them."""
    if "missing" in row:
        return [row["repo"], row["missing"]] + ["-"] * (len(COLUMNS) - 2)
    return [cell(row, key).replace("|", "/") for key, _ in COLUMNS]


def cell(row, key):
    if key == "problems":
        found = [f"crash: {c}" for c in row.get("crashes", [])] + [f"hang: {h}" for h in row.get("hangs", [])]
        return "; ".join(found) or "-"
    value = row.get(key, "-")
    return str(value)


def summary(rows):
    def count(key, value):
        return sum(1 for r in rows if r.get(key) == value)

    judged = [r for r in rows if "missing" not in r]
    agree = sum(r.get("spec_agree", 0) for r in judged)
    pairs = sum(r.get("spec_pairs", 0) for r in judged)
    recalls = [r["recall"] for r in judged if "recall" in r]
    precisions = [r["precision"] for r in judged if "precision" in r]
    clean = sum(r.get("sync_clean", 0) for r in judged)
    eligible = sum(r.get("sync_eligible", 0) for r in judged)
    compiled = sum(r.get("compile_ok", 0) for r in judged)
    compiled_total = sum(r.get("compile_total", 0) for r in judged)
    crashes = sum(len(r.get("crashes", [])) for r in judged)
    hangs = sum(len(r.get("hangs", [])) for r in judged)
    bumps = sum(1 for r in judged for k in ("bump_build", "bump_patch") if r.get(k) == "applies")
    bump_runs = sum(1 for r in judged for k in ("bump_build", "bump_patch")
                    if r.get(k) in ("applies", "not a patch", "touches generated"))
    refused = sum(1 for r in judged for k in ("bump_build", "bump_patch") if r.get(k) == "refused")
    compile_refused = sum(r.get("compile_refused", 0) for r in judged)
    exports = [r["xcloc_counts"] for r in judged if "xcloc_counts" in r]
    imports = sum(1 for r in judged if r.get("import") == "no-op")
    import_runs = sum(1 for r in judged if r.get("import") in ("no-op", "changes", "refused"))
    return {
        "repositories": len(judged), "missing": len(rows) - len(judged),
        "targets": sum(r.get("targets", 0) for r in judged),
        "versions consistent": f"{agree}/{pairs}",
        "bumps that apply": f"{bumps}/{bump_runs} ({refused} runs refused)",
        "compiled files plutil reads": f"{compiled}/{compiled_total} ({compile_refused} bundles refused)",
        "extraction recall (median, min)": (f"{100 * sorted(recalls)[len(recalls) // 2]:.1f}%, {100 * min(recalls):.1f}%"
                                            if recalls else "-"),
        "extraction precision (median, min)": (f"{100 * sorted(precisions)[len(precisions) // 2]:.1f}%, {100 * min(precisions):.1f}%"
                                               if precisions else "-"),
        "apps at 98% recall and precision": f"{sum(1 for r in judged if r.get('recall', 0) >= 0.98 and r.get('precision', 0) >= 0.98)}/{len(recalls)}",
        "sync clean": f"{clean}/{eligible}",
        "import no-op": f"{imports}/{import_runs}",
        "committed Xcode exports exported again (units equal by id, <file>s byte-identical, "
        "exports byte-identical apart from <tool>)": (
            f"{sum(e[0] for e in exports)}/{sum(e[1] for e in exports)} "
            f"({sum(e[4] for e in exports)} only in Xcode's: read from code), "
            f"{sum(e[2] for e in exports)}/{sum(e[3] for e in exports)}, "
            f"{sum(e[5] for e in exports)}/{sum(e[6] for e in exports)} "
            f"(in {sum(1 for e in exports if e[5])} of {len(exports)} repositories)"),
        "committed Xcode exports imported into their Source Contents, then exported byte-identical": (
            f"{sum(e[7] for e in exports)}/{sum(e[6] for e in exports)} "
            f"(in {sum(1 for e in exports if e[7])} of {len(exports)} repositories)"),
        "committed exports made again from the project at their commit (Info.plist tables "
        "byte-identical, units of Xcode's found by id)": (
            f"{sum(r['infoplist_counts'][0] for r in judged if 'infoplist_counts' in r)}/"
            f"{sum(r['infoplist_counts'][1] for r in judged if 'infoplist_counts' in r)}, "
            f"{sum(r['infoplist_counts'][2] for r in judged if 'infoplist_counts' in r)}/"
            f"{sum(r['infoplist_counts'][3] for r in judged if 'infoplist_counts' in r)}"),
        "crashes": crashes, "hangs": hangs,
    }


def previous_rows(path):
    """The rows of an earlier report, by repository, as {column title: cell} (a column the
    earlier report lacks is not compared)."""
    rows = {}
    if not os.path.exists(path):
        return rows
    titles = None
    with open(path) as file:
        for line in file:
            if not line.startswith("| ") or line.startswith("| ---"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| repository"):
                titles = cells
            elif titles and len(cells) == len(titles):
                rows[cells[0]] = dict(zip(titles, cells))
    return rows


def report(rows, path, started, seconds):
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    before = previous_rows(path)
    lines = [
        "# Ecosystem check",
        "",
        f"`Scripts/ecosystem/run.py` on {started:%Y-%m-%d %H:%M} UTC, BundleKit {commit}, "
        f"{len(rows)} repositories pinned in `Scripts/ecosystem/repos.txt`, {seconds / 60:.1f} minutes "
        "on 2 cores. Figures only: no file of these repositories is kept here.",
        "",
        "## Summary",
        "",
    ]
    for key, value in summary(rows).items():
        lines.append(f"- {key}: {value}")
    changes = []
    for row in rows:
        now_cells = cells(row)
        old = before.get(row["repo"])
        if old:
            for (key, title), now in zip(COLUMNS, now_cells):
                was = old.get(title)
                if was is not None and was != now:
                    changes.append(f"- {row['repo']}: {title} {was} -> {now}")
    lines += ["", "## Changes since the last report", ""]
    lines += changes or (["- none"] if before else ["- no earlier report"])
    lines += ["", "## Repositories", "",
              "| " + " | ".join(title for _, title in COLUMNS) + " |",
              "| " + " | ".join("---" for _ in COLUMNS) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(cells(row)) + " |")
    text = "\n".join(lines) + "\n"
    with open(path, "w") as file:
        file.write(text)
    return changes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshots")
    parser.add_argument("--repos", default=os.path.join(HERE, "repos.txt"))
    parser.add_argument("--tools", help="the folder holding bundlekit and bundlekit-localize")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--report", default=os.path.join(ROOT, "Benchmarks", "ecosystem.md"))
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--memory-gb", type=int, default=4)
    parser.add_argument("--scratch", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the scratch trees")
    parser.add_argument("--verbose", action="store_true", help="print what sync --check lists")
    args = parser.parse_args()
    args.snapshots = os.path.abspath(args.snapshots)
    args.scratch = os.path.abspath(args.scratch or tempfile.mkdtemp(prefix="bundlekit-ecosystem-"))
    if os.path.commonpath([args.scratch, ROOT]) == ROOT:
        sys.exit("run.py: the scratch folder must be outside the repository")
    os.makedirs(os.path.join(args.scratch, "home", "state"), exist_ok=True)
    repos = read_repos(args.repos)
    if args.only:
        repos = [r for r in repos if r["name"] in args.only]
    runner = Runner(args)
    started = datetime.datetime.utcnow()
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(runner.check, repos))
    for row in rows:
        print(" | ".join(cell(row, key) for key, _ in COLUMNS) if "missing" not in row
              else f"{row['repo']} | {row['missing']}", flush=True)
    changes = report(rows, args.report, started, time.time() - start)
    total = summary(rows)
    print("summary: " + "; ".join(f"{k} {v}" for k, v in total.items()))
    for change in changes:
        print("changed:", change[2:])
    if not args.keep:
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
