#!/usr/bin/env python3
"""The peer of the `bump` benchmarks: a one-process Python plistlib loop raising
CFBundleVersion in ROOT/*/Info.plist, each file written to a temporary file beside it and
moved over it with os.replace. Modes:
  (none)  each file replaced in turn, nothing flushed;
  fsync   each temporary file flushed before its replace (what an atomic write needs to
          survive a crash);
  batch   BundleKit's protocol without its folder locks: every temporary file written
          first, all flushed together (os.sync: Python has no syncfs), then every replace,
          then a flush, so that a failure before the replaces changes no file.
With --below=PATH, each folder's Info.plist is in PATH below it (ROOT/*/PATH/Info.plist):
the loop is told where the files are, and searches for none.
Usage: plistlib-bump.py ROOT [fsync|batch] [--below=PATH]"""
import os
import plistlib
import sys
import tempfile

root = sys.argv[1]
options = sys.argv[2:]
below = ''
for option in options:
    if option.startswith('--below='):
        below = option[len('--below='):]
options = [option for option in options if not option.startswith('--below=')]
mode = options[0] if options else ''
staged = []
for folder in sorted(os.listdir(root)):
    path = os.path.join(root, folder, below, 'Info.plist')
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
        if mode == 'fsync':
            f.flush()
            os.fsync(f.fileno())
    if mode == 'batch':
        staged.append((temporary, path))
    else:
        os.replace(temporary, path)
if mode == 'batch':
    os.sync()
    for temporary, path in staged:
        os.replace(temporary, path)
    os.sync()
