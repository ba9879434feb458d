#!/usr/bin/env python3
"""The peer of the `bump` benchmarks: a one-process Python plistlib loop raising
CFBundleVersion in ROOT/*/Info.plist, each file written to a temporary file beside it and
moved over it with os.replace; with `fsync`, each temporary file is flushed first (what an
atomic write needs to survive a crash, and what BundleKit does once per batch).
Usage: plistlib-bump.py ROOT [fsync]"""
import os
import plistlib
import sys
import tempfile

root = sys.argv[1]
durable = len(sys.argv) > 2
for folder in sorted(os.listdir(root)):
    path = os.path.join(root, folder, 'Info.plist')
    if not os.path.exists(path):
        continue
    with open(path, 'rb') as f:
        data = f.read()
    fmt = plistlib.FMT_BINARY if data.startswith(b'bplist') else plistlib.FMT_XML
    value = plistlib.loads(data)
    value['CFBundleVersion'] = str(int(value['CFBundleVersion']) + 1)
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(fd, 'wb') as f:
        plistlib.dump(value, f, fmt=fmt, sort_keys=False)
        if durable:
            f.flush()
            os.fsync(f.fileno())
    os.replace(temporary, path)
