#!/usr/bin/env python3
"""What a fetched repository exercises, read from its git directory without checking it out:
which groups of the ecosystem list it belongs to. For choosing repos.txt entries.

    classify.py SNAPSHOTS_DIR [OWNER+NAME ...]
"""
import json
import os
import re
import subprocess
import sys


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True).stdout


def classify(gitdir):
    commit = git(gitdir, "rev-parse", "HEAD").decode().strip()
    files = git(gitdir, "ls-tree", "-r", "--name-only", "HEAD").decode(errors="replace").splitlines()
    groups = set()
    names = [f.rsplit("/", 1)[-1] for f in files]
    if any(n == "project.yml" or re.match(r"project.*\.ya?ml$", n) for n in names):
        groups.add("xcodegen")
    manifests = [f for f in files if f.endswith("Project.swift")]
    for path in manifests[:20]:
        if b"ProjectDescription" in git(gitdir, "show", f"HEAD:{path}"):
            groups.add("tuist")
            break
    pbxprojs = [f for f in files if f.endswith(".xcodeproj/project.pbxproj")]
    types = set()
    for path in pbxprojs[:30]:
        text = git(gitdir, "show", f"HEAD:{path}")
        if b"PBXFileSystemSynchronizedRootGroup" in text:
            groups.add("xcode16")
        types.update(t.decode() for t in re.findall(rb'productType = "com\.apple\.product-type\.([^"]+)"', text))
    if any(t.startswith("watchkit") or t.startswith("application.watchapp") for t in types):
        groups.add("watch")
    if any("widget" in f.lower() for f in files) and "app-extension" in types:
        groups.add("widgets")
    if "application.on-demand-install-capable" in types:
        groups.add("appclip")
    if {"xpc-service", "tool"} & types or any("LoginItem" in f or "Helper" in f.split("/")[0] for f in files):
        if any(f.endswith(".entitlements") for f in files):
            groups.add("macos-helpers")
    if any(n == "Podfile" for n in names) and any(".xcworkspace/" in f for f in files):
        groups.add("cocoapods")
    catalogs = [f for f in files if f.endswith(".xcstrings")]
    for path in catalogs[:10]:
        text = git(gitdir, "show", f"HEAD:{path}")
        if b'"extractionState"' in text or (b'"strings"' in text and b'"version"' in text):
            groups.add("catalogs")
            break
    if any(f.endswith(".xliff") or ".xcloc/" in f for f in files):
        groups.add("exports")
    size = sum(1 for _ in files)
    return {"commit": commit, "groups": sorted(groups), "files": size, "types": sorted(types)[:12],
            "projects": len(pbxprojs), "catalogs": len(catalogs)}


def main():
    root = sys.argv[1]
    names = sys.argv[2:] or sorted(os.listdir(root))
    for name in names:
        gitdir = os.path.join(root, name, "repo")
        if not os.path.isdir(gitdir):
            continue
        info = classify(gitdir)
        print(f"{name.replace('+', '/')} {info['commit'][:12]} {','.join(info['groups'])} "
              f"files={info['files']} projects={info['projects']} catalogs={info['catalogs']} "
              f"types={','.join(info['types'])}")


if __name__ == "__main__":
    main()
