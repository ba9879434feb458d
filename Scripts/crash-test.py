#!/usr/bin/env python3
"""Crash consistency: SIGKILLs BundleKit commands at random moments and checks that every
write is all or nothing once the next run has looked at the tree, and that no temporary file
survives that run.

    Scripts/crash-test.py --bundlekit .build/release/bundlekit [--kills 200] [--seed 7]
                          [--commands bump,compile,create,extract,claim,index,tmx,import,sync] [--seconds 600]

For each command, one normal run is timed; then each kill starts the command on the current
state and sends SIGKILL after a random delay in [0, 1.3 x that time], so the kill lands
before, during and after the writes. After each kill, `bundlekit recover` on the tree (read-
only commands never finish a killed write; a writer of the same folder, or `recover`, does),
then the checker named below must find the files either all as they were or all as the
command would have left them, and no scratch file (`~bundlekit-`, `.bundlekit-`) anywhere.

Hostile neighbours are planted beside every tree and must survive every kill untouched:
inside the tree, a committed journal in the old unsigned format, one with a forged MAC, and
a scratch file, all aimed through a link `h` at a canary folder outside; above the tree, a
journal signed with this user's own key (as a run on a bigger tree would leave it), which a
run on the tree below must never act on.

  bump     60 Info.plists in 30 folders; checker `bundlekit version`: one CFBundleVersion
           for all (old or old + 1), every file a valid plist (plistlib).
  compile  6 tables in 3 languages, two sets of inputs compiled in turn into one folder;
           checker `bundlekit strings lint OUT`: every compiled table from the same input set.
  create   a 300-file tree archived to out.tar.gz over an older archive; checker
           `bundlekit archive list`: the archive is the old one or the new one, complete.
  extract  archives A and B (same names, other contents, B with more files) extracted in
           turn into one existing folder; checker `bundlekit strings lint PARENT`: the folder
           holds A's files alone or all of B's.
  claim    `bump build --claim origin` in a clone of a bare repository; checker: the build
           number is the old one or a number claimed on the remote (refs/tags/build/N), never
           one an earlier run wrote (a kill between claim and write wastes a number, never
           repeats one).
  index    a translation memory rebuilt over an older one; checker: the next `translate
           index` run (the memory opens with sqlite3, old or new).
  tmx      a memory imported from a TMX of 3,000 entries, then one of 4,000 merged into it;
           checker: sqlite3 opens it and it holds the first file's 3,000 German values alone
           (old) or those and the second file's 4,000 (new), nothing between.
  import   30 String Catalogs exported to XLIFF, translated twice (A and B) with Python's
           ElementTree, imported in turn; checker: every catalog holds one import's French
           alone, the same in all of them.
  sync     30 String Catalogs synced with sources that switch between two sets of 50 keys
           each (needs bundlekit-localize beside bundlekit); checker: every catalog valid
           JSON (json) with one set's keys alone, the same set in all of them.

The seed is printed; failures are listed with the seed and kill number, and the exit status
is 1 when any check failed. --seconds bounds the run: the kills are spread over the commands
and the loop stops early when the time is up (reported).
"""
import argparse
import json
import os
import plistlib
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ElementTree

SCRATCH = ("~bundlekit-", ".bundlekit-")
PLANTED = "planted"  # the hostile neighbours' folder inside each tree
DEAD = "yyyyyyz1k"  # a transaction whose process cannot exist


def journal_key():
    base = (os.environ.get("BUNDLEKIT_STATE_DIR")
            or os.path.join(os.environ.get("XDG_STATE_HOME")
                            or os.path.expanduser("~/.local/state"), "bundlekit"))
    path = os.path.join(base, "journal-key")
    if not os.path.exists(path):  # made as bundlekit makes it on first use
        os.makedirs(base, mode=0o700, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(descriptor, os.urandom(32))
        os.close(descriptor)
    with open(path, "rb") as file:
        return file.read()


def signed_journal(folder, renames):
    """A journal as this user's runs write it (format 3, HMAC-SHA-256 under the user's key):
    each target with its state now (device:inode:mtime:size, or - for none)."""
    import hashlib
    import hmac

    def state(target):
        try:
            info = os.lstat(os.path.join(folder, target))
        except FileNotFoundError:
            return b"-"
        time = f"{info.st_mtime_ns // 10**9}.{info.st_mtime_ns % 10**9}"
        return f"{info.st_dev}:{info.st_ino}:{time}:{info.st_size}".encode()

    body = b"".join(source.encode() + b"\0" + target.encode() + b"\0" + state(target) + b"\0"
                    for source, target in renames)
    message = os.path.realpath(folder).encode() + b"\0" + DEAD.encode() + b"\0" + body
    mac = hmac.new(journal_key(), message, hashlib.sha256).hexdigest().encode()
    return b"bundlekit rename journal 3\n" + mac + b"\n" + body


def plant(h, root):
    """Hostile journals in the tree and a genuine one above it; returns what to check."""
    canary = os.path.join(h.work, "canary-" + os.path.basename(root))
    os.makedirs(canary, exist_ok=True)
    with open(os.path.join(canary, ".bashrc"), "w") as file:
        file.write("precious\n")
    planted = os.path.join(root, PLANTED)
    os.makedirs(planted, exist_ok=True)
    os.symlink(canary, os.path.join(planted, "h"))
    scratch = f".x~bundlekit-{DEAD}.0"
    with open(os.path.join(planted, scratch), "w") as file:
        file.write("attacker\n")
    body = scratch.encode() + b"\0h/.bashrc\0"
    with open(os.path.join(planted, f".bundlekit-{DEAD}.committed"), "wb") as file:
        file.write(b"bundlekit rename journal 1\n" + body)
    with open(os.path.join(planted, f".bundlekit-yyyyyyz2k.committed"), "wb") as file:
        file.write(b"bundlekit rename journal 2\n" + b"0" * 64 + b"\n" + body)
    # Above the tree: a real, signed journal rolling a file of the tree back to "ancestor".
    parent = os.path.dirname(root)
    name = os.path.basename(root)
    above = os.path.join(parent, f".bundlekit-{DEAD}.committed")
    if not os.path.exists(above):
        with open(os.path.join(parent, f".a~bundlekit-{DEAD}.0"), "w") as file:
            file.write("ancestor\n")
        with open(above, "wb") as file:
            file.write(signed_journal(parent, [(f".a~bundlekit-{DEAD}.0", f"{name}/ancestor")]))
        os.chmod(above, 0o600)
    return canary, above


def check_planted(h, name, kill, root, canary, above):
    with open(os.path.join(canary, ".bashrc")) as file:
        if file.read() != "precious\n" or os.listdir(canary) != [".bashrc"]:
            h.fail(name, kill, "the canary outside the tree was written")
    if not os.path.exists(above) or os.path.exists(os.path.join(root, "ancestor")):
        h.fail(name, kill, "the journal above the tree was acted on")


def scratch_files(root):
    """BundleKit's scratch names, and any other hidden name (the fixtures have none): a
    temporary file of any naming that a run left behind."""
    found = []
    for folder, dirs, files in os.walk(root):
        if os.path.basename(folder) == PLANTED:
            continue
        # A git repository's own folder (the claim's clone) is git's business.
        if ".git" in dirs:
            dirs.remove(".git")
        for name in dirs + files:
            if name.startswith(".") or any(marker in name for marker in SCRATCH):
                found.append(os.path.join(folder, name))
    return found


class Harness:
    def __init__(self, tool, seed, work):
        self.tool = tool
        self.random = random.Random(seed)
        self.seed = seed
        self.work = work
        self.failures = []

    def run(self, args, cwd=None, check=True):
        result = subprocess.run([self.tool] + args, cwd=cwd, capture_output=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: exit {result.returncode}: {result.stderr.decode()}")
        return result

    def timed(self, args, cwd=None):
        start = time.monotonic()
        self.run(args, cwd=cwd)
        return time.monotonic() - start

    def kill_during(self, args, duration, cwd=None):
        delay = self.random.uniform(0, duration * 1.3)
        process = subprocess.Popen(
            [self.tool] + args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        return process.returncode

    def fail(self, command, kill, message):
        self.failures.append(f"{command} kill {kill} (seed {self.seed}): {message}")
        print(f"FAIL {command} kill {kill}: {message}", file=sys.stderr)


# bump ---------------------------------------------------------------------------------------

def bump_setup(h):
    root = os.path.join(h.work, "bump")
    for index in range(60):
        folder = os.path.join(root, f"Target{index % 30}", f"Bundle{index}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "Info.plist"), "wb") as file:
            plistlib.dump({"CFBundleIdentifier": f"com.example.{index}",
                           "CFBundleShortVersionString": "1.0", "CFBundleVersion": "100"}, file)
    return root


def bump_state(h, root):
    h.run(["recover", root])
    result = h.run(["version", root, "--format", "json"])
    rows = json.loads(result.stdout)
    values = set()
    for folder, _, files in os.walk(root):
        for name in files:
            if name == "Info.plist":
                with open(os.path.join(folder, name), "rb") as file:
                    values.add(plistlib.load(file)["CFBundleVersion"])
    return rows, values


def bump_kill(h, root, duration, kill):
    before = bump_state(h, root)[1]
    h.kill_during(["bump", "build", root], duration)
    rows, values = bump_state(h, root)
    if len(values) != 1:
        h.fail("bump", kill, f"versions after the kill: {sorted(values)}")
        return
    old = int(next(iter(before)))
    new = int(next(iter(values)))
    if new not in (old, old + 1):
        h.fail("bump", kill, f"{old} became {new}")
    if len(rows) != 60:
        h.fail("bump", kill, f"version listed {len(rows)} bundles")


# compile ------------------------------------------------------------------------------------

def compile_setup(h):
    root = os.path.join(h.work, "compile")
    for variant in "AB":
        for language in ("en", "de", "fr"):
            folder = os.path.join(root, variant, f"{language}.lproj")
            os.makedirs(folder, exist_ok=True)
            for table in ("Localizable", "Other"):
                lines = "".join(f'"key{n}" = "{variant}-{language}-{n}";\n' for n in range(400))
                with open(os.path.join(folder, f"{table}.strings"), "w") as file:
                    file.write(lines)
    out = os.path.join(root, "out")
    h.run(["strings", "compile", os.path.join(root, "A"), "--output-dir", out])
    return root


def compile_state(h, root):
    out = os.path.join(root, "out")
    h.run(["recover", out])
    h.run(["strings", "lint", out], check=False)
    variants = set()
    for folder, _, files in os.walk(out):
        for name in files:
            if name.startswith("."):
                continue  # a leftover: reported by the scratch check
            with open(os.path.join(folder, name), "rb") as file:
                variants.add(plistlib.load(file)["key0"][0])
    return variants


def compile_kill(h, root, duration, kill):
    variant = "AB"[kill % 2]
    h.kill_during(["strings", "compile", os.path.join(root, variant), "--output-dir",
                   os.path.join(root, "out")], duration)
    variants = compile_state(h, root)
    if len(variants) != 1:
        h.fail("compile", kill, f"tables of several runs mixed: {sorted(variants)}")


# archive create -----------------------------------------------------------------------------

def create_setup(h):
    root = os.path.join(h.work, "create")
    source = os.path.join(root, "Resources")
    for index in range(300):
        folder = os.path.join(source, f"d{index % 20}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"f{index}.bin"), "wb") as file:
            file.write(os.urandom(4096 + index * 50))
    h.run(["archive", "create", source, "-o", os.path.join(root, "out.tar.gz")])
    return root


def create_kill(h, root, duration, kill):
    out = os.path.join(root, "out.tar.gz")
    source = os.path.join(root, "Resources")
    # A new file each time, so the old and the new archive differ.
    with open(os.path.join(source, f"new{kill}.txt"), "w") as file:
        file.write(str(kill))
    expected_old = set(tarfile.open(out).getnames())
    h.kill_during(["archive", "create", source, "-o", out], duration)
    names = set(tarfile.open(out).getnames())  # raises on a torn archive
    expected_new = expected_old | {f"Resources/new{kill}.txt"}
    if names not in (expected_old, expected_new):
        h.fail("create", kill, "the archive is neither the old nor the new one")
    # The next run removes what the killed one left.
    h.run(["archive", "create", source, "-o", out])


# archive extract ----------------------------------------------------------------------------

def extract_setup(h):
    root = os.path.join(h.work, "extract")
    for variant, count in (("A", 150), ("B", 200)):
        source = os.path.join(root, "src" + variant, "Payload")
        for index in range(count):
            folder = os.path.join(source, f"d{index % 10}")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"f{index}.txt"), "w") as file:
                file.write(f"{variant}{index}\n" * 200)
        h.run(["archive", "create", source, "-o", os.path.join(root, variant + ".tar")])
    dest = os.path.join(root, "parent", "dest")
    os.makedirs(os.path.join(root, "parent"), exist_ok=True)
    h.run(["archive", "extract", os.path.join(root, "A.tar"), "-C", dest])
    return root


def extract_state(h, root):
    parent = os.path.join(root, "parent")
    h.run(["recover", parent])
    h.run(["strings", "lint", parent], check=False)
    contents = {}
    for folder, _, files in os.walk(os.path.join(parent, "dest")):
        for name in files:
            if name.startswith("."):
                continue
            with open(os.path.join(folder, name)) as file:
                contents[name] = file.read(1)
    return contents


def extract_kill(h, root, duration, kill):
    # Back to A's state, then B is extracted over it and killed.
    dest = os.path.join(root, "parent", "dest")
    shutil.rmtree(dest, ignore_errors=True)
    h.run(["archive", "extract", os.path.join(root, "A.tar"), "-C", dest])
    h.kill_during(["archive", "extract", os.path.join(root, "B.tar"), "-C", dest], duration)
    contents = extract_state(h, root)
    if contents.get("f0.txt") == "A" and set(contents.values()) == {"A"} and len(contents) == 150:
        return
    if set(contents.values()) == {"B"} and len(contents) == 200:
        return
    h.fail("extract", kill, f"a mix: {len(contents)} files, {sorted(set(contents.values()))}")


# translate index ----------------------------------------------------------------------------

def index_setup(h):
    root = os.path.join(h.work, "index")
    for language in ("en", "de", "fr", "es"):
        folder = os.path.join(root, "App", f"{language}.lproj")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "Localizable.strings"), "w") as file:
            file.write("".join(f'"k{n}" = "{language} {n}";\n' for n in range(3000)))
    h.run(["translate", "index", os.path.join(root, "App"), "-o", os.path.join(root, "tm.db")])
    return root


def index_kill(h, root, duration, kill):
    out = os.path.join(root, "tm.db")
    h.kill_during(["translate", "index", os.path.join(root, "App"), "-o", out], duration)
    try:
        connection = sqlite3.connect(f"file:{out}?mode=ro", uri=True)
        count = connection.execute("SELECT COUNT(*) FROM translations").fetchone()[0]
        connection.close()
    except sqlite3.Error as error:
        h.fail("index", kill, f"the memory does not open: {error}")
        return
    if count != 12000:
        h.fail("index", kill, f"{count} translations instead of 12000")
    h.run(["translate", "index", os.path.join(root, "App"), "-o", out])


# strings sync -------------------------------------------------------------------------------

SYNC_TABLES = 30
# Keys a table. A kill tests the all-or-nothing write only between the journal's creation and
# the run's end, about 22 ms for any number of keys; a debug helper spends the rest of a run
# parsing the sources (200 keys: 3.5 s a run, 50: 0.93 s). Fewer keys, more kills that count.
SYNC_KEYS = 50


def sync_sources(root, variant):
    """One Swift file per table using SYNC_KEYS keys of that variant ("a" or "b")."""
    for table in range(SYNC_TABLES):
        lines = "".join(
            f'  let s{n} = String(localized: "t{table}.{variant}{n}", table: "T{table}", '
            f'comment: "{variant}")\n' for n in range(SYNC_KEYS))
        with open(os.path.join(root, "Sources", f"T{table}.swift"), "w") as file:
            file.write(f"struct T{table} {{\n{lines}}}\n")


def sync_setup(h):
    root = os.path.join(h.work, "sync")
    os.makedirs(os.path.join(root, "Sources"), exist_ok=True)
    os.makedirs(os.path.join(root, "Resources"), exist_ok=True)
    for table in range(SYNC_TABLES):
        with open(os.path.join(root, "Resources", f"T{table}.xcstrings"), "w") as file:
            file.write('{\n  "sourceLanguage" : "en",\n  "strings" : {\n\n  },\n  "version" : "1.0"\n}')
    sync_sources(root, "a")
    h.run(["strings", "sync", root])
    sync_sources(root, "b")
    return root


def sync_state(h, root):
    h.run(["recover", root])
    variants = set()
    for table in range(SYNC_TABLES):
        with open(os.path.join(root, "Resources", f"T{table}.xcstrings")) as file:
            keys = json.load(file)["strings"]
        found = {key.split(".")[1][0] for key in keys}
        if len(keys) != SYNC_KEYS or len(found) != 1:
            variants.add(f"T{table}: {len(keys)} keys of {sorted(found)}")
        else:
            variants.add(found.pop())
    return variants


def sync_kill(h, root, duration, kill):
    before = sync_state(h, root)
    variant = "ab"[kill % 2]
    sync_sources(root, variant)
    h.kill_during(["strings", "sync", root], duration)
    after = sync_state(h, root)
    if len(after) != 1 or not after <= before | {variant}:
        h.fail("sync", kill, f"catalogs of several runs mixed: {sorted(after)}")
    h.run(["strings", "sync", root])


# strings import -----------------------------------------------------------------------------

IMPORT_TABLES = 30


def import_setup(h):
    root = os.path.join(h.work, "import")
    project = os.path.join(root, "Project")
    os.makedirs(project, exist_ok=True)
    for table in range(IMPORT_TABLES):
        strings = ",\n".join(f'    "t{table}.k{n}" : {{\n      "comment" : "c"\n    }}' for n in range(200))
        with open(os.path.join(project, f"T{table}.xcstrings"), "w") as file:
            file.write('{\n  "sourceLanguage" : "en",\n  "strings" : {\n' + strings
                       + '\n  },\n  "version" : "1.0"\n}')
    h.run(["strings", "export", "Project", "--xcloc", "out", "--language", "fr"], cwd=root)
    exported = os.path.join(root, "out", "fr.xcloc", "Localized Contents", "fr.xliff")
    namespace = "urn:oasis:names:tc:xliff:document:1.2"
    ElementTree.register_namespace("", namespace)
    for variant in "AB":
        tree = ElementTree.parse(exported)
        for unit in tree.iter(f"{{{namespace}}}trans-unit"):
            target = ElementTree.SubElement(unit, f"{{{namespace}}}target")
            target.text = f"{variant} {unit.get('id')}"
            target.set("state", "translated")
        tree.write(os.path.join(root, f"{variant}.xliff"), xml_declaration=True, encoding="UTF-8")
    h.run(["strings", "import", "A.xliff"], cwd=root)
    return root


def import_state(h, root):
    h.run(["recover", root])
    variants = set()
    for table in range(IMPORT_TABLES):
        with open(os.path.join(root, "Project", f"T{table}.xcstrings")) as file:
            strings = json.load(file)["strings"]
        found = {entry["localizations"]["fr"]["stringUnit"]["value"][0] for entry in strings.values()}
        variants.add(found.pop() if len(found) == 1 and len(strings) == 200 else f"T{table}: {sorted(found)}")
    return variants


def import_kill(h, root, duration, kill):
    variant = "BA"[kill % 2]
    h.kill_during(["strings", "import", f"{variant}.xliff"], duration, cwd=root)
    after = import_state(h, root)
    if len(after) != 1:
        h.fail("import", kill, f"catalogs of several imports mixed: {sorted(after)}")
    h.run(["strings", "import", f"{variant}.xliff"], cwd=root)


# translate import (TMX) ---------------------------------------------------------------------

def tmx_setup(h):
    root = os.path.join(h.work, "tmx")
    os.makedirs(root, exist_ok=True)
    for variant, count in (("A", 3000), ("B", 4000)):
        units = "".join(
            f'<tu><prop type="x-bundlekit-key">k{n}</prop>'
            f'<tuv xml:lang="en"><seg>text {n}</seg></tuv>'
            f'<tuv xml:lang="de"><seg>{variant} {n}</seg></tuv></tu>\n' for n in range(count))
        with open(os.path.join(root, f"{variant}.tmx"), "w") as file:
            file.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">'
                       '<header srclang="en"/><body>\n' + units + "</body></tmx>\n")
    h.run(["translate", "import", os.path.join(root, "A.tmx"), "--memory",
           os.path.join(root, "tm.db")])
    return root


def tmx_kill(h, root, duration, kill):
    memory = os.path.join(root, "tm.db")
    if os.path.exists(memory):
        os.remove(memory)
    h.run(["translate", "import", os.path.join(root, "A.tmx"), "--memory", memory])
    h.kill_during(["translate", "import", os.path.join(root, "B.tmx"), "--memory", memory], duration)
    h.run(["recover", root])
    try:
        connection = sqlite3.connect(f"file:{memory}?mode=ro", uri=True)
        german = connection.execute("SELECT value FROM translations WHERE language = 'de'").fetchall()
        connection.close()
    except sqlite3.Error as error:
        h.fail("tmx", kill, f"the memory does not open: {error}")
        return
    # Each file is its own project (tmx:A.tmx, tmx:B.tmx): B merges beside A.
    found = {}
    for (value,) in german:
        found[value[0]] = found.get(value[0], 0) + 1
    if found not in ({"A": 3000}, {"A": 3000, "B": 4000}):
        h.fail("tmx", kill, f"neither the old memory nor the new one: {found}")


# bump build --claim -----------------------------------------------------------------------

GIT_IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@t"}


def git(*arguments, cwd=None):
    subprocess.run(["git", *arguments], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, **GIT_IDENTITY})


def claim_setup(h):
    remote = os.path.join(h.work, "claim-remote.git")
    root = os.path.join(h.work, "claim")
    git("init", "-q", "--bare", "-b", "main", remote)
    os.makedirs(os.path.join(root, "App"))
    with open(os.path.join(root, "App", "Info.plist"), "wb") as file:
        plistlib.dump({"CFBundleIdentifier": "com.example.claim", "CFBundleVersion": "100"}, file)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", ".", cwd=root)
    git("commit", "-q", "-m", "start", cwd=root)
    git("remote", "add", "origin", remote, cwd=root)
    git("push", "-q", "origin", "main", cwd=root)
    h.claim_written = {}  # number -> the kill that wrote it
    return root


def claimed(h):
    listed = subprocess.run(["git", "ls-remote", "--refs", os.path.join(h.work, "claim-remote.git"),
                             "refs/tags/build/*"], capture_output=True, check=True).stdout.decode()
    return {int(line.rsplit("/", 1)[1]) for line in listed.splitlines() if line.strip()}


def claim_kill(h, root, duration, kill):
    """A kill after the claim and before the write leaves a number claimed and unused; no
    number is ever written by two runs, and every number written was claimed."""
    path = os.path.join(root, "App", "Info.plist")
    with open(path, "rb") as file:
        before = int(plistlib.load(file)["CFBundleVersion"])
    h.kill_during(["bump", "build", "--claim", "origin"], duration, cwd=root)
    h.run(["recover", root])
    with open(path, "rb") as file:
        after = int(plistlib.load(file)["CFBundleVersion"])
    if after == before:
        return
    if after < before:
        h.fail("claim", kill, f"{before} went down to {after}")
    if after not in claimed(h):
        h.fail("claim", kill, f"{after} was written without being claimed")
    if after in h.claim_written:
        h.fail("claim", kill, f"{after} written twice (kills {h.claim_written[after]} and {kill})")
    h.claim_written[after] = kill


COMMANDS = {
    "bump": (bump_setup, lambda root: ["bump", "build", root], bump_kill),
    "compile": (compile_setup,
                lambda root: ["strings", "compile", os.path.join(root, "B"), "--output-dir",
                              os.path.join(root, "out")], compile_kill),
    "create": (create_setup,
               lambda root: ["archive", "create", os.path.join(root, "Resources"), "-o",
                             os.path.join(root, "out.tar.gz")], create_kill),
    "extract": (extract_setup,
                lambda root: ["archive", "extract", os.path.join(root, "B.tar"), "-C",
                              os.path.join(root, "parent", "dest-timing")], extract_kill),
    "claim": (claim_setup, lambda root: ["bump", "build", "--claim", "origin", root], claim_kill),
    "tmx": (tmx_setup,
            lambda root: ["translate", "import", os.path.join(root, "B.tmx"), "--memory",
                          os.path.join(root, "tm.db")], tmx_kill),
    "import": (import_setup,
               lambda root: ["strings", "import", os.path.join(root, "B.xliff"), root], import_kill),
    "sync": (sync_setup, lambda root: ["strings", "sync", root], sync_kill),
    "index": (index_setup,
              lambda root: ["translate", "index", os.path.join(root, "App"), "-o",
                            os.path.join(root, "tm.db")], index_kill),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bundlekit", required=True)
    parser.add_argument("--kills", type=int, default=200, help="kills per command")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--seconds", type=float, default=1800, help="time bound for the run")
    parser.add_argument("--work", default=None, help="folder to work in (default: a temporary one)")
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else random.randrange(1 << 32)
    print(f"crash-test: seed {seed}, {arguments.kills} kills per command", file=sys.stderr)
    work = tempfile.mkdtemp(prefix="bundlekit-crash-", dir=arguments.work)
    harness = Harness(os.path.abspath(arguments.bundlekit), seed, work)
    commands = [name for name in arguments.commands.split(",") if name]
    deadline = time.monotonic() + arguments.seconds
    summary = []
    try:
        for position, name in enumerate(commands):
            setup, timing_args, kill = COMMANDS[name]
            root = setup(harness)
            canary, above = plant(harness, root)
            duration = harness.timed(timing_args(root))
            # Each command gets its share of the time that is left.
            share = (deadline - time.monotonic()) / (len(commands) - position)
            stop = time.monotonic() + share
            done = 0
            before = len(harness.failures)
            for number in range(arguments.kills):
                if time.monotonic() > stop:
                    break
                try:
                    kill(harness, root, duration, number)
                except Exception as error:  # a torn file, a checker that failed
                    harness.fail(name, number, f"{type(error).__name__}: {error}")
                check_planted(harness, name, number, root, canary, above)
                leftovers = scratch_files(root)
                if leftovers:
                    harness.fail(name, number, f"scratch files survived the next run: {leftovers[:3]}")
                done += 1
            failed = len(harness.failures) - before
            summary.append((name, done, failed, duration))
            note = "" if done == arguments.kills else f" (stopped at the time bound)"
            print(f"crash-test: {name}: {done} kills, {failed} failures, one run "
                  f"{duration * 1000:.0f} ms{note}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"seed": seed, "commands": [
        {"command": name, "kills": done, "failures": failed} for name, done, failed, _ in summary]}))
    for failure in harness.failures:
        print(failure, file=sys.stderr)
    return 1 if harness.failures else 0


if __name__ == "__main__":
    sys.exit(main())
