#!/usr/bin/env python3
"""Compare BundleKit's export with a committed Xcode export (.xcloc), unit for unit.

An .xcloc's `Source Contents/` holds the very tables Xcode exported from, so exporting them
again with `bundlekit strings export` must give Xcode's `Localized Contents/<lang>.xliff`:
the same files in the same order, the same units (id, source, target, state, note) matched
by id, and the same bytes apart from each file's `<tool>` line (which judges the order too).
Units Xcode extracted from code are not in `Source Contents/`: counted as "only in Xcode's". Translations of
`.strings` tables are not in `Source Contents/` (only the development language's are), nor
are a catalog's since Xcode 15.3, so a target is compared only where the tables give one.

Units Xcode read from code, and the translations, are then judged by a round trip: Xcode's
export imported into a copy of its Source Contents must export again byte for byte.

    xcloc.py BUNDLEKIT XCLOC...      prints one row per .xcloc and the differences
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{urn:oasis:names:tc:xliff:document:1.2}"


def units(path):
    """[(original, [(id, source, target, state, note, translate)])] of an XLIFF file."""
    files = []
    for file in ET.parse(path).getroot().iter(NS + "file"):
        found = []
        for unit in file.iter(NS + "trans-unit"):
            def text(name):
                element = unit.find(NS + name)
                return None if element is None else (element.text or "")
            target = unit.find(NS + "target")
            found.append(
                (
                    unit.get("id"),
                    text("source"),
                    text("target"),
                    None if target is None else target.get("state"),
                    text("note"),
                    unit.get("translate"),
                )
            )
        files.append((file.get("original"), found))
    return files


def without_tool(path):
    with open(path, "rb") as handle:
        return re.sub(rb"[ \t]*<tool [^>]*/>\n", b"", handle.read())


def blocks(path):
    """{original: bytes of its <file> element, the <tool> line left out}."""
    found = {}
    for match in re.finditer(rb'  <file original="([^"]*)".*?</file>\n', without_tool(path), re.S):
        found[match.group(1).decode()] = match.group(0)
    return found


def counts(bundlekit, xcloc):
    """{units, equal, missing, files, identical} for one .xcloc (what the ecosystem runner sums)."""
    result = {}
    compare(bundlekit, xcloc, result)
    if not result:
        raise RuntimeError(f"{xcloc}: the export failed")
    return result


def languages(xcloc):
    """(language, development language, Xcode's XLIFF) of an .xcloc."""
    with open(os.path.join(xcloc, "contents.json")) as handle:
        contents = json.load(handle)
    language = contents["targetLocale"]
    return (language, contents["developmentRegion"],
            os.path.join(xcloc, "Localized Contents", language + ".xliff"))


def export(bundlekit, tree, language, development, scratch):
    """BundleKit's export of `tree` in `language`: (its XLIFF, or None, and why)."""
    run = subprocess.run(
        [bundlekit, "strings", "export", ".", "--xcloc", scratch, "--language", language,
         "--development-language", development],
        cwd=tree, capture_output=True, text=True, timeout=300)
    ours = os.path.join(scratch, language + ".xcloc", "Localized Contents", language + ".xliff")
    if run.returncode != 0 or not os.path.exists(ours):
        return None, f"export failed ({run.returncode}): {run.stderr.strip()[:300]}"
    return ours, ""


def compare(bundlekit, xcloc, counted=None):
    """(row, differences) for one .xcloc; `counted` gets the figures."""
    language, development, xliff = languages(xcloc)
    with tempfile.TemporaryDirectory() as scratch:
        ours, why = export(bundlekit, os.path.join(xcloc, "Source Contents"), language, development,
                           scratch)
        if ours is None:
            return f"{xcloc}: {why}", []
        theirs_files, our_files = units(xliff), units(ours)
        differences = []
        theirs_names = [name for name, _ in theirs_files]
        our_names = [name for name, _ in our_files]
        if theirs_names != our_names:
            differences.append(f"files: Xcode {theirs_names} ours {our_names}")
        strings_translation = language != development
        ours_by_name = dict(our_files)
        total = equal = missing = 0
        for name, their_units in theirs_files:
            mine = ours_by_name.get(name, [])
            total += len(their_units)
            # Units are matched by id (their order is judged by the byte-identical files). A
            # unit Xcode has and ours lacks is one Xcode read from code, which Source
            # Contents does not hold.
            mine_by_id = {u[0]: u for u in mine}
            missing += sum(1 for u in their_units if u[0] not in mine_by_id)
            if [u[0] for u in their_units] != [u[0] for u in mine]:
                differences.append(
                    f"{name}: ids differ: Xcode {len(their_units)}, ours {len(mine)}; first "
                    f"{next((a[0], b[0]) for a, b in zip(their_units + [('-',)], mine + [('-',)]) if a[0] != b[0])}")
            for theirs in their_units:
                ours_unit = mine_by_id.get(theirs[0])
                if ours_unit is None:
                    continue
                a, b = list(theirs), list(ours_unit)
                if strings_translation and b[2] is None:
                    # The translation is not in Source Contents: a `.strings` table's lies
                    # beside it, and Xcode 15.3 strips catalogs to the source language.
                    a[2] = a[3] = None
                if a == b:
                    equal += 1
                elif len(differences) < 12:
                    differences.append(f"{name}: {theirs} != {ours_unit}")
        identical = without_tool(xliff) == without_tool(ours)
        if counted is not None:
            their_blocks, our_blocks = blocks(xliff), blocks(ours)
            counted.update(units=total, equal=equal, missing=missing, files=len(their_blocks),
                           identical=sum(1 for n, b in their_blocks.items() if our_blocks.get(n) == b),
                           whole=int(identical))
        their_blocks, our_blocks = blocks(xliff), blocks(ours)
        same_blocks = sum(1 for name, block in their_blocks.items() if our_blocks.get(name) == block)
        row = (f"{xcloc}: {language} (development {development}): units {equal}/{total} equal "
               f"({missing} only in Xcode's), "
               f"files byte-identical {same_blocks}/{len(their_blocks)}, "
               f"whole file {'identical' if identical else 'differs'} (apart from <tool>)")
        return row, differences


def round_trip(bundlekit, xcloc):
    """Whether Xcode's export, imported into a copy of its own Source Contents, exports
    again byte for byte (apart from <tool>): the oracle for a translation, whose tables
    Source Contents leaves out. None when the import or the export fails (with why)."""
    language, development, xliff = languages(xcloc)
    with tempfile.TemporaryDirectory() as scratch:
        tree = os.path.join(scratch, "tree")
        shutil.copytree(os.path.join(xcloc, "Source Contents"), tree, symlinks=True)
        run = subprocess.run([bundlekit, "strings", "import", xliff, tree], capture_output=True,
                             text=True, timeout=300)
        if run.returncode != 0:
            return None, run.stderr.strip()[:300]
        ours, why = export(bundlekit, tree, language, development, os.path.join(scratch, "out"))
        if ours is None:
            return None, why
        return without_tool(xliff) == without_tool(ours), ""


def main():
    bundlekit, xclocs = sys.argv[1], sys.argv[2:]
    for xcloc in xclocs:
        row, differences = compare(os.path.abspath(bundlekit), xcloc)
        same, why = round_trip(os.path.abspath(bundlekit), xcloc)
        print(row + f"; imported then exported: {'identical' if same else 'differs' if same is not None else 'refused: ' + why}")
        for line in differences:
            print("   ", line)


if __name__ == "__main__":
    main()
