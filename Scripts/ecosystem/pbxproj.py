"""Which targets of an Xcode project hold a file, and which folders their Swift sources are
in: the ecosystem check's own reader of project.pbxproj (OpenStep property lists), kept
apart from BundleKit's so that the check does not take BundleKit's word for what it judges.

    folders_of_targets_holding(tree, project, path) -> [folder, ...] or None
"""
import os
import re

TOKEN = re.compile(
    r'\s+|//[^\n]*|/\*.*?\*/|"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_$/:.+\-<>]+)|([{}()=;,])',
    re.S)


def parse(text):
    """The value an OpenStep property list spells: dicts, lists and strings."""
    tokens = []
    for match in TOKEN.finditer(text):
        quoted, word, mark = match.groups()
        if quoted is not None:
            tokens.append(("s", bytes(quoted, "utf-8").decode("unicode_escape")
                           if "\\" in quoted else quoted))
        elif word is not None:
            tokens.append(("s", word))
        elif mark is not None:
            tokens.append(("m", mark))
    position = 0

    def value():
        nonlocal position
        kind, token = tokens[position]
        position += 1
        if kind == "s":
            return token
        if token == "{":
            result = {}
            while tokens[position] != ("m", "}"):
                key = value()
                position += 1  # =
                result[key] = value()
                position += 1  # ;
            position += 1
            return result
        if token == "(":
            result = []
            while tokens[position] != ("m", ")"):
                result.append(value())
                if tokens[position] == ("m", ","):
                    position += 1
            position += 1
            return result
        raise ValueError(f"unexpected {token!r}")

    return value()


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return parse(file.read())
    except (OSError, ValueError, IndexError, RecursionError):
        return None


def group_paths(objects, project):
    """Every file reference's and group's path relative to the project's folder."""
    paths = {}

    def walk(identifier, parent, depth):
        item = objects.get(identifier)
        if not isinstance(item, dict) or depth > 64:
            return
        tree = item.get("sourceTree", "<group>")
        path = item.get("path", "")
        if tree == "<group>":
            full = os.path.normpath(os.path.join(parent, path)) if path else parent
        elif tree == "SOURCE_ROOT":
            full = os.path.normpath(path) if path else "."
        else:
            return
        paths[identifier] = full
        for child in item.get("children", []):
            walk(child, full, depth + 1)

    main = project.get("mainGroup")
    if main:
        walk(main, ".", 0)
    return paths


def folders_of_targets_holding(tree, project_path, relative):
    """The folders (relative to `tree`) of the Swift sources of the targets that hold the
    file `relative` (relative to `tree`) as a resource, as the project says; None when the
    project cannot be read or does not name the file."""
    document = read(os.path.join(tree, project_path, "project.pbxproj"))
    if not isinstance(document, dict):
        return None
    objects = document.get("objects", {})
    root = objects.get(document.get("rootObject"), {})
    base = os.path.dirname(project_path) or "."
    paths = group_paths(objects, root)
    for identifier, item in objects.items():
        if isinstance(item, dict) and item.get("isa") == "PBXFileSystemSynchronizedRootGroup":
            # A synchronized folder outside the main group's tree is rare: its path is the
            # project folder's then.
            paths.setdefault(identifier, os.path.normpath(item.get("path", "")))
    target_of = os.path.relpath(os.path.join(tree, relative), os.path.join(tree, base))
    holders = set()
    folders = {}
    targets = {k: v for k, v in objects.items()
               if isinstance(v, dict) and v.get("isa") == "PBXNativeTarget"}
    for identifier, target in targets.items():
        synchronized = [paths.get(g) for g in target.get("fileSystemSynchronizedGroups", [])]
        synchronized = [p for p in synchronized if p]
        sources = set(synchronized)
        for phase_id in target.get("buildPhases", []):
            phase = objects.get(phase_id, {})
            for build_file in phase.get("files", []):
                reference = objects.get(build_file, {}).get("fileRef")
                path = paths.get(reference)
                if not path:
                    continue
                if phase.get("isa") == "PBXResourcesBuildPhase":
                    if path == target_of or target_of.startswith(path + "/"):
                        holders.add(identifier)
                elif phase.get("isa") == "PBXSourcesBuildPhase" and path.endswith(".swift"):
                    sources.add(os.path.dirname(path) or ".")
        folders[identifier] = sources
        for folder in synchronized:
            if target_of.startswith(folder + "/"):
                holders.add(identifier)
    # A synchronized folder's exceptions: for its own target they take files out, for
    # another target they put them in.
    owners = {}
    for identifier, target in targets.items():
        for group in target.get("fileSystemSynchronizedGroups", []):
            owners.setdefault(group, set()).add(identifier)
    for identifier, item in objects.items():
        if not isinstance(item, dict) or item.get("isa") != "PBXFileSystemSynchronizedRootGroup":
            continue
        folder = paths.get(identifier)
        if not folder or not target_of.startswith(folder + "/"):
            continue
        inside = target_of[len(folder) + 1:]
        for exception_id in item.get("exceptions", []):
            exception = objects.get(exception_id, {})
            listed = inside in exception.get("membershipExceptions", [])
            target = exception.get("target")
            if not listed or target not in targets:
                continue
            if target in owners.get(identifier, set()):
                holders.discard(target)
            else:
                holders.add(target)
    if not holders:
        return None
    # The sources' own exceptions: a file of a target's synchronized folder that the target
    # leaves out (IceCubes' widget-only file), and files of another synchronized folder that
    # a target takes in one by one (WebA11Y's Intents).
    excluded = {}
    included = {}
    for identifier, item in objects.items():
        if not isinstance(item, dict) or item.get("isa") != "PBXFileSystemSynchronizedRootGroup":
            continue
        folder = paths.get(identifier)
        if not folder:
            continue
        for exception_id in item.get("exceptions", []):
            exception = objects.get(exception_id, {})
            target = exception.get("target")
            if target not in targets:
                continue
            names = [os.path.normpath(os.path.join(folder, name))
                     for name in exception.get("membershipExceptions", [])
                     if name.endswith(".swift")]
            if target in owners.get(identifier, set()):
                excluded.setdefault(target, set()).update(names)
            else:
                included.setdefault(target, set()).update(names)
    result = set()
    files = set()
    left_out = set()
    for holder in holders:
        for folder in folders[holder]:
            full = os.path.normpath(os.path.join(base, folder))
            if not full.startswith(".."):
                result.add(full)
        for name in included.get(holder, set()):
            full = os.path.normpath(os.path.join(base, name))
            if not full.startswith(".."):
                files.add(full)
        left_out |= {os.path.normpath(os.path.join(base, n)) for n in excluded.get(holder, set())}
    # A file one holder leaves out stays when another holder takes it.
    for holder in holders:
        for folder in folders[holder]:
            full = os.path.normpath(os.path.join(base, folder))
            left_out -= {f for f in left_out if f.startswith(full + "/")
                         and f not in {os.path.normpath(os.path.join(base, n))
                                       for n in excluded.get(holder, set())}}
    # The outermost folders only.
    outer = sorted(result, key=len)
    kept = []
    for folder in outer:
        if folder == "." or not any(folder.startswith(k + "/") or k == "." for k in kept):
            kept.append(folder)
    # A folder with files left out is given as its other Swift files.
    expanded = []
    for folder in kept:
        if not any(f.startswith(folder + "/") or folder == "." for f in left_out):
            expanded.append(folder)
            continue
        for walked, subfolders, names in os.walk(os.path.join(tree, folder)):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for name in sorted(names):
                if name.endswith(".swift"):
                    relative = os.path.relpath(os.path.join(walked, name), tree)
                    if relative not in left_out:
                        expanded.append(relative)
    expanded += [f for f in sorted(files)
                 if not any(f.startswith(k + "/") or k == "." for k in kept)]
    return sorted(expanded) or None
