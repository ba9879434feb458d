#!/usr/bin/env python3
"""Seeded mutations of real project specs (XcodeGen's YAML, Tuist's Project.swift) from the
ecosystem snapshots, each read by `bundlekit version` under a memory cap and a time limit:
no crash, no hang, no run past the cap, whatever the mutation.

    mutate-specs.py SNAPSHOTS --tools DIR [--count 300] [--seed N] [--memory-mb 1024]

Mutations: bytes flipped, lines dropped, duplicated or swapped, an anchor and aliases to it
multiplied (alias bombs), nesting deepened, quotes and brackets left open, the file cut short,
includes pointing at themselves. The files stay outside the repository; only the figures are
printed.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import read_repos  # noqa: E402


def specs(snapshots, repos):
    """(name, bytes) of every spec in the pinned commits."""
    found = []
    for repo in repos:
        gitdir = os.path.join(snapshots, repo["name"].replace("/", "+"), "repo")
        if not os.path.isdir(gitdir):
            continue
        files = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", repo["commit"]],
                               capture_output=True, text=True).stdout.splitlines()
        for path in files:
            name = path.rsplit("/", 1)[-1]
            if name in ("project.yml", "Project.swift") or (name.startswith("project") and name.endswith(".yml")):
                blob = subprocess.run(["git", "--git-dir", gitdir, "show", f"{repo['commit']}:{path}"],
                                      capture_output=True).stdout
                if blob and len(blob) < 512 * 1024:
                    found.append((name, blob))
    return found


def mutate(data, random):
    lines = data.split(b"\n")
    kind = random.choice(["flip", "drop", "duplicate", "swap", "bomb", "deepen", "open", "cut",
                          "self-include", "anchor-alias", "merge"])
    if kind == "flip" and data:
        out = bytearray(data)
        for _ in range(random.randint(1, 8)):
            out[random.randrange(len(out))] = random.randrange(256)
        return kind, bytes(out)
    if kind == "drop" and len(lines) > 1:
        del lines[random.randrange(len(lines))]
    elif kind == "duplicate" and lines:
        index = random.randrange(len(lines))
        lines[index:index] = [lines[index]] * random.randint(1, 2000)
    elif kind == "swap" and len(lines) > 1:
        a, b = random.randrange(len(lines)), random.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    elif kind == "bomb":
        bomb = [b"a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in range(1, random.randint(5, 14)):
            bomb.append(b"a%d: &a%d [" % (level, level) + b", ".join([b"*a%d" % (level - 1)] * 10) + b"]")
        lines = bomb + lines
    elif kind == "deepen":
        depth = random.randint(50, 20000)
        lines.append(b"deep: " + b"[" * depth + b"]" * depth)
    elif kind == "open" and lines:
        index = random.randrange(len(lines))
        lines[index] += random.choice([b" '", b' "', b" [", b" {", b" /*", b" (", b' """'])
    elif kind == "cut" and data:
        return kind, data[: random.randrange(len(data))]
    elif kind == "self-include":
        lines.insert(0, b"include: [project.yml, ./project.yml, ../project/project.yml]")
    elif kind == "anchor-alias" and lines:
        index = random.randrange(len(lines))
        lines[index] = lines[index] + b" &x"
        lines.append(b"z: *x")
    elif kind == "merge":
        lines.append(b"m: &m {CURRENT_PROJECT_VERSION: 1}\nn:\n  <<: [*m, *m, *m]\n  <<: *m")
    return kind, b"\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("snapshots")
    parser.add_argument("--tools", required=True)
    parser.add_argument("--repos", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "repos.txt"))
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--memory-mb", type=int, default=1024)
    parser.add_argument("--timeout", type=int, default=60)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    print(f"seed {seed} (replay with --seed {seed})")
    rng = random.Random(seed)
    found = specs(os.path.abspath(args.snapshots), read_repos(args.repos))
    if not found:
        sys.exit("mutate-specs.py: no specs in the snapshots")
    tool = os.path.join(os.path.abspath(args.tools), "bundlekit")
    scratch = tempfile.mkdtemp(prefix="bundlekit-mutations-")
    counts = {"ok": 0, "error": 0, "crash": 0, "hang": 0, "memory": 0}
    slowest = 0.0
    kinds = {}
    try:
        for index in range(args.count):
            name, data = rng.choice(found)
            kind, mutated = mutate(data, rng)
            kinds[kind] = kinds.get(kind, 0) + 1
            folder = os.path.join(scratch, str(index))
            os.makedirs(folder)
            with open(os.path.join(folder, name), "wb") as file:
                file.write(mutated)
            limit = args.memory_mb * 1024
            start = time.time()
            run = subprocess.run(
                ["bash", "-c", f'ulimit -v {limit}; exec timeout {args.timeout} "$0" version .', tool],
                cwd=folder, capture_output=True)
            seconds = time.time() - start
            slowest = max(slowest, seconds)
            if run.returncode == 0:
                counts["ok"] += 1
            elif run.returncode == 1:
                counts["error"] += 1
            elif run.returncode == 124:
                counts["hang"] += 1
                print(f"hang: #{index} {kind} {name}")
            elif b"Cannot allocate" in run.stderr or b"out of memory" in run.stderr.lower():
                counts["memory"] += 1
                print(f"past the memory cap: #{index} {kind} {name}")
            else:
                counts["crash"] += 1
                print(f"crash ({run.returncode}): #{index} {kind} {name}: {run.stderr[-300:]!r}")
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{args.count} mutations of {len(found)} real specs ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}): "
          f"{counts['ok']} read, {counts['error']} located errors, {counts['crash']} crashes, "
          f"{counts['hang']} hangs, {counts['memory']} past {args.memory_mb} MiB; slowest {slowest:.2f} s")
    sys.exit(1 if counts["crash"] or counts["hang"] or counts["memory"] else 0)


if __name__ == "__main__":
    main()
