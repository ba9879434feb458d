#!/usr/bin/env python3
"""Mutation fuzzing of the `bundlekit` command line: inputs from ../shared/corpus and the
tests, changed at random (bytes, or types inside their structure), run through the commands
that read them. A run fails on a signal, a hang (20 s), an exit code above 2, a failure
with nothing on standard error, or an exit 0 whose output an independent implementation
contradicts: plistlib (property lists, stringsdicts, compiled tables), the toolchain's plutil
(.strings as CoreFoundation reads them), bsdtar (archive list and extract), and the encoder
for Morse (decode(encode(text)) == text). Each such input is kept in the work folder.

Usage: Scripts/fuzz-cli.py [KIND ...] [--seed N] [--runs N]
KIND: text (plists and strings tables), archives, zips (CRC and size fields corrupted,
checked against Python's zipfile, unzip -t and bsdtar), projects, catalogs, badutf8
(catalogs with bytes that are not UTF-8, checked against Python's json), stringsdicts,
morse; all when none is given. Needs a release build: swift build -c release --product bundlekit
(or BUNDLEKIT=path of another build)."""
import argparse
import copy
import filecmp
import glob
import json
import os
import plistlib
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.environ.get('BUNDLEKIT', os.path.join(ROOT, '.build/release/bundlekit'))
PLUTIL = shutil.which('plutil')
BSDTAR = shutil.which('bsdtar')
UNZIP = shutil.which('unzip')
CORPUS = os.path.join(ROOT, '../shared/corpus')


def corpus(*patterns, limit=300_000):
    files = []
    for pattern in patterns:
        files += glob.glob(os.path.join(CORPUS, '**', pattern), recursive=True)
        files += glob.glob(os.path.join(ROOT, 'Tests', '**', pattern), recursive=True)
    return sorted(f for f in set(files) if os.path.isfile(f) and os.path.getsize(f) < limit)


class Fuzzer:
    def __init__(self, seed, work):
        self.rng = random.Random(seed)
        self.work = work
        self.failures = 0
        self.oracle_checks = 0
        self.tally = __import__('collections').Counter()

    def mutate(self, data, alphabet=None):
        data = bytearray(data or b'x')
        for _ in range(self.rng.randint(1, 8)):
            at = self.rng.randrange(len(data)) if data else 0
            operation = self.rng.randrange(4)
            if operation == 0 and data:
                data[at] = self.rng.choice(alphabet) if alphabet else self.rng.randrange(256)
            elif operation == 1:
                del data[at:at + self.rng.randint(1, 16)]
            elif operation == 2:
                data[at:at] = bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 8)))
            elif data:
                start = self.rng.randrange(len(data))
                data[at:at] = data[start:start + self.rng.randint(1, 64)]
        return bytes(data)

    def retype(self, value, replacements):
        """Puts a value of another type at one to four random places of a JSON-like tree."""
        for _ in range(self.rng.randint(1, 4)):
            places = list(self.places(value))
            if not places:
                break
            path = self.rng.choice(places)
            parent = value
            for step in path[:-1]:
                parent = parent[step]
            parent[path[-1]] = copy.deepcopy(self.rng.choice(replacements))
        return value

    def places(self, value, path=()):
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        for key, child in children:
            yield path + (key,)
            yield from self.places(child, path + (key,))

    def run(self, arguments, keep, stdin=None):
        """Runs bundlekit; returns the result when it exited 0 (else None)."""
        try:
            result = subprocess.run([TOOL] + arguments, input=stdin, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            self.fail('hang', arguments, keep, b'')
            return None
        if result.returncode < 0 or result.returncode > 2 or (result.returncode != 0 and not result.stderr.strip()):
            self.fail(f'exit {result.returncode}', arguments, keep, result.stderr[-400:])
        return result if result.returncode == 0 else None

    def check(self, agrees, what, arguments, keep):
        """An exit 0 that the oracle contradicts is a failure: a wrong result."""
        self.oracle_checks += 1
        if not agrees:
            self.fail(f'wrong output ({what})', arguments, keep, b'')

    # Oracles.

    @staticmethod
    def plistlib_value(path):
        try:
            with open(path, 'rb') as file:
                return plistlib.load(file)
        except Exception:
            return None

    @staticmethod
    def plutil_value(path):
        """The file as CoreFoundation reads it (the toolchain's plutil), as JSON; None when it
        refuses it or has no JSON form for it."""
        if not PLUTIL:
            return None
        result = subprocess.run([PLUTIL, '-convert', 'json', '-o', '-', path], capture_output=True, timeout=20)
        if result.returncode != 0:
            return None
        try:
            return json.loads(result.stdout)
        except Exception:
            return None

    def compiled_tables(self, out):
        tables = {}
        for folder, _, names in os.walk(out):
            for name in names:
                value = self.plistlib_value(os.path.join(folder, name))
                tables[os.path.relpath(os.path.join(folder, name), out)] = value
        return tables

    def fail(self, what, arguments, keep, stderr):
        self.failures += 1
        kept = os.path.join(self.work, f'failure-{self.failures}-{os.path.basename(keep)}')
        if os.path.isdir(keep):
            shutil.copytree(keep, kept)
        elif os.path.exists(keep):
            shutil.copy(keep, kept)
        print(f'{what}: bundlekit {" ".join(arguments[:2])} (input kept as {kept})')
        print('  ' + stderr.decode('utf-8', 'replace').strip().replace('\n', '\n  '))

    def fresh(self, name):
        folder = os.path.join(self.work, name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        return folder

    # The kinds.

    def text(self, runs):
        sources = corpus('*.plist', '*.strings', '*.stringsdict', '*.xcstrings')
        for _ in range(runs):
            source = self.rng.choice(sources)
            extension = source.rsplit('.', 1)[-1]
            folder = self.fresh('text')
            path = os.path.join(folder, 'en.lproj', 'Table.' + extension)
            os.makedirs(os.path.dirname(path))
            with open(source, 'rb') as file:
                data = self.mutate(file.read())
            with open(path, 'wb') as file:
                file.write(data)
            if extension == 'plist':
                self.run(['plist', 'lint', path], path)
                out = os.path.join(self.work, 'out.plist')
                arguments = ['plist', 'convert', path, '-f', 'xml1', '-o', out]
                if self.run(arguments, path) is not None:
                    # What plistlib reads (XML and binary inputs) must be what we wrote.
                    expected = self.plistlib_value(path)
                    if expected is not None:
                        self.check(self.plistlib_value(out) == expected, 'plistlib', arguments, path)
                self.run(['plist', 'print', path], path)
            else:
                self.run(['strings', 'lint', folder], path)
                self.compile_and_compare(folder, path, extension)

    def compile_and_compare(self, folder, path, extension):
        out = os.path.join(self.work, 'out')
        shutil.rmtree(out, ignore_errors=True)
        arguments = ['strings', 'compile', folder, '--output-dir', out]
        if self.run(arguments, path) is None:
            return
        compiled = self.compiled_tables(out)
        name = os.path.relpath(path, folder)
        if extension == 'strings':
            expected = self.plutil_value(path)
            if expected is not None:
                self.check(compiled.get(name) == expected, 'plutil', arguments, path)
        elif extension == 'stringsdict':
            expected = self.plistlib_value(path)
            if expected is not None:
                self.check(compiled.get(name) == expected, 'plistlib', arguments, path)
        elif extension == 'xcstrings':
            self.check_catalog(path, compiled, arguments)

    def check_catalog(self, path, compiled, arguments):
        """A source-language string unit compiles to its value: the part of a catalog's
        compile an oracle can say without reimplementing it."""
        try:
            with open(path) as file:
                catalog = json.load(file)
            source = catalog['sourceLanguage']
            strings = catalog['strings']
        except Exception:
            return
        table = os.path.splitext(os.path.basename(path))[0]
        values = compiled.get(f'{source}.lproj/{table}.strings') or {}
        for key, entry in strings.items() if isinstance(strings, dict) else []:
            try:
                unit = entry['localizations'][source]['stringUnit']['value']
            except Exception:
                continue
            if isinstance(unit, str) and key in values:
                self.check(values[key] == unit, 'catalog source value', arguments, path)

    def archives(self, runs):
        source = self.fresh('archive-source')
        os.makedirs(os.path.join(source, 'a/b'))
        with open(os.path.join(source, 'a/b/f.txt'), 'w') as file:
            file.write('hello\n')
        with open(os.path.join(source, 'a/n.txt'), 'w') as file:
            file.write('\n'.join(map(str, range(3000))))
        os.symlink('b/f.txt', os.path.join(source, 'a/link'))
        seeds = []
        for extension in ['tar', 'tar.gz', 'tar.xz', 'zip', '7z', 'cpio']:
            seed = os.path.join(self.work, 'seed.' + extension)
            if subprocess.run([TOOL, 'archive', 'create', source, '-o', seed], capture_output=True).returncode == 0:
                seeds.append(seed)
        for _ in range(runs):
            seed = self.rng.choice(seeds)
            path = os.path.join(self.work, 'case.' + seed.split('seed.')[1])
            with open(seed, 'rb') as file:
                data = self.mutate(file.read())
            with open(path, 'wb') as file:
                file.write(data)
            listed = self.run(['archive', 'list', path, '--format', 'json'], path)
            ours = self.fresh('extracted')
            arguments = ['archive', 'extract', path, '-C', ours]
            extracted = self.run(arguments, path)
            if not BSDTAR:
                continue
            theirs = self.fresh('bsdtar')
            reference = subprocess.run([BSDTAR, '-xf', path, '-C', theirs], capture_output=True, timeout=20)
            if listed is not None:
                names = subprocess.run([BSDTAR, '-tf', path], capture_output=True, timeout=20)
                if names.returncode == 0:
                    expected = [self.bsdtar_name(n).rstrip('/') for n in names.stdout.split(b'\n')[:-1]]
                    got = [e['name'].rstrip('/') for e in json.loads(listed.stdout)]
                    self.check(got == expected, 'bsdtar -t', ['archive', 'list', path], path)
            if extracted is not None and reference.returncode == 0:
                self.check(self.same_tree(ours, theirs), 'bsdtar -x', arguments, path)

    def zips(self, runs):
        """Zips whose data, CRC-32 or size fields are changed: whatever Python's zipfile,
        `unzip -t` or bsdtar finds damaged must not extract with exit 0; what they all take
        must extract to what bsdtar extracts."""
        import zipfile
        for index in range(runs):
            path = os.path.join(self.work, 'case.zip')
            method = self.rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
            with zipfile.ZipFile(path, 'w', method) as archive:
                for number in range(self.rng.randint(1, 3)):
                    text = ''.join(self.rng.choice('abc \n') for _ in range(self.rng.randint(1, 4000)))
                    archive.writestr(f'dir/file{number}.txt', text)
            data = bytearray(open(path, 'rb').read())
            local = data.find(b'PK\x03\x04')
            central = data.find(b'PK\x01\x02')
            choice = self.rng.randrange(4)
            if choice == 0:
                # A byte of the first entry's data.
                start = local + 30 + int.from_bytes(data[local + 26:local + 28], 'little')
                end = central if central > start else len(data)
                if end > start:
                    data[self.rng.randrange(start, end)] ^= 1 << self.rng.randrange(8)
            elif choice == 1:
                # The CRC-32, in the local header, the central directory or both.
                for header, offset in self.rng.sample([(local, 14), (central, 16)], self.rng.randint(1, 2)):
                    data[header + offset + self.rng.randrange(4)] ^= 0xFF
            else:
                # A size: compressed or not, local or central.
                header, offset = self.rng.choice([(local, 18), (local, 22), (central, 20), (central, 24)])
                value = int.from_bytes(data[header + offset:header + offset + 4], 'little')
                value = max(0, value + self.rng.choice([-1, 1, -7, 100, 1 << 20]))
                data[header + offset:header + offset + 4] = (value & 0xFFFFFFFF).to_bytes(4, 'little')
            with open(path, 'wb') as file:
                file.write(data)
            damaged = False
            try:
                with zipfile.ZipFile(path) as archive:
                    damaged = archive.testzip() is not None
            except Exception:
                damaged = True
            if UNZIP:
                damaged |= subprocess.run([UNZIP, '-tqq', path], capture_output=True, timeout=20).returncode != 0
            theirs = self.fresh('bsdtar')
            if BSDTAR:
                damaged |= subprocess.run([BSDTAR, '-xf', path, '-C', theirs], capture_output=True, timeout=20).returncode != 0
            ours = self.fresh('extracted')
            arguments = ['archive', 'extract', path, '-C', ours]
            extracted = self.run(arguments, path)
            self.tally['zips damaged' if damaged else 'zips intact'] += 1
            if damaged:
                self.check(extracted is None, 'damaged zip extracted with exit 0 (zipfile/unzip -t/bsdtar refuse it)', arguments, path)
            elif extracted is not None and BSDTAR:
                self.check(self.same_tree(ours, theirs), 'bsdtar -x', arguments, path)

    def badutf8(self, runs):
        """Catalogs with bytes that are not UTF-8 put into a string: Python's json refuses
        them, so lint and compile must fail with a located error, never replace them."""
        sources = corpus('*.xcstrings')
        bad = [b'\xff', b'\xc3', b'\xe2\x82', b'\xed\xa0\x80', b'\xc0\xaf', b'\xf5\x80\x80\x80']
        for _ in range(runs):
            with open(self.rng.choice(sources), 'rb') as file:
                data = bytearray(file.read())
            quotes = [at for at, byte in enumerate(data) if byte == 0x22]
            if not quotes:
                continue
            at = self.rng.choice(quotes) + 1
            data[at:at] = self.rng.choice(bad)
            try:
                json.loads(bytes(data).decode('utf-8'))
                refused = False
            except Exception:
                refused = True
            self.tally['catalogs json refuses' if refused else 'catalogs json takes'] += 1
            folder = self.fresh('badutf8')
            path = os.path.join(folder, 'Catalog.xcstrings')
            with open(path, 'wb') as file:
                file.write(data)
            for arguments in (['strings', 'lint', folder], ['strings', 'compile', folder, '--output-dir', os.path.join(self.work, 'out')]):
                result = self.run(arguments, path)
                if refused:
                    self.check(result is None, 'invalid UTF-8 accepted (Python json refuses it)', arguments, path)

    @staticmethod
    def bsdtar_name(line):
        """A name as `bsdtar -t` prints it (control bytes as \\ooo, \\n ...), read back as
        BundleKit lists it: the bytes, bytes that are not UTF-8 as %XX."""
        raw = bytearray()
        index = 0
        simple = {ord('n'): 10, ord('t'): 9, ord('r'): 13, ord('\\'): 92, ord('a'): 7,
                  ord('b'): 8, ord('f'): 12, ord('v'): 11}
        while index < len(line):
            byte = line[index]
            if byte == 92 and index + 3 < len(line) + 0 and all(48 <= c <= 55 for c in line[index + 1:index + 4]) \
                    and len(line[index + 1:index + 4]) == 3:
                raw.append(int(line[index + 1:index + 4], 8))
                index += 4
            elif byte == 92 and index + 1 < len(line) and line[index + 1] in simple:
                raw.append(simple[line[index + 1]])
                index += 2
            else:
                raw.append(byte)
                index += 1
        text = ''
        position = 0
        while position < len(raw):
            for length in (4, 3, 2, 1):
                chunk = bytes(raw[position:position + length])
                if len(chunk) < length:
                    continue
                try:
                    text += chunk.decode('utf-8')
                    position += length
                    break
                except UnicodeDecodeError:
                    continue
            else:
                text += '%%%02X' % raw[position]
                position += 1
        return text

    @staticmethod
    def same_tree(a, b):
        def listing(root):
            found = {}
            for folder, dirs, files in os.walk(root):
                for name in dirs + files:
                    full = os.path.join(folder, name)
                    found[os.path.relpath(full, root)] = full
            return found
        left, right = listing(a), listing(b)
        if set(left) != set(right):
            return False
        for name, path in left.items():
            other = right[name]
            if os.path.islink(path) or os.path.islink(other):
                if not (os.path.islink(path) and os.path.islink(other) and os.readlink(path) == os.readlink(other)):
                    return False
            elif os.path.isfile(path) and not filecmp.cmp(path, other, shallow=False):
                return False
        return True

    def projects(self, runs):
        sources = corpus('project.pbxproj', limit=2_000_000)
        for _ in range(runs):
            with open(self.rng.choice(sources), 'rb') as file:
                data = self.mutate(file.read(), alphabet=b'{}();=",/*\\\n 0aZ$')
            project = os.path.join(self.fresh('project'), 'App.xcodeproj')
            os.makedirs(project)
            with open(os.path.join(project, 'project.pbxproj'), 'wb') as file:
                file.write(data)
            for arguments in (['version', project], ['bump', 'build', project, '--dry-run'],
                              ['bump', 'version', 'minor', project]):
                self.run(arguments, project)

    def catalogs(self, runs):
        sources = corpus('*.xcstrings')
        replacements = [None, 5, -1, 1.5, True, '', '%@ %d %1$@ %#@x@', [], {}, {'stringUnit': 3},
                        {'state': 'translated'}, [1, 2], 'x' * 1000]
        for _ in range(runs):
            with open(self.rng.choice(sources)) as file:
                value = self.retype(json.load(file), replacements)
            folder = self.fresh('catalog')
            path = os.path.join(folder, 'Catalog.xcstrings')
            with open(path, 'w') as file:
                json.dump(value, file)
            self.run(['strings', 'lint', folder], path)
            self.compile_and_compare(folder, path, 'xcstrings')

    def stringsdicts(self, runs):
        sources = corpus('*.stringsdict')
        replacements = [5, -1, 1.5, True, '', '%@ %d %1$@ %#@x@', '%#@', '%#@a@ %#@a@', '%1$#@x@', [], {},
                        {'NSStringFormatSpecTypeKey': 'NSStringPluralRuleType'},
                        {'NSStringFormatValueTypeKey': 3}, b'data', 'x' * 500, '%99$d']
        for _ in range(runs):
            try:
                with open(self.rng.choice(sources), 'rb') as file:
                    value = self.retype(plistlib.load(file), replacements)
            except Exception:
                continue
            folder = self.fresh('stringsdict')
            path = os.path.join(folder, 'en.lproj', 'Localizable.stringsdict')
            os.makedirs(os.path.dirname(path))
            with open(path, 'wb') as file:
                plistlib.dump(value, file, fmt=self.rng.choice([plistlib.FMT_XML, plistlib.FMT_BINARY]))
            self.run(['strings', 'lint', folder], path)
            self.compile_and_compare(folder, path, 'stringsdict')
            for key in list(value)[:3] if isinstance(value, dict) else []:
                self.run(['strings', 'lookup', str(key), '--in', folder, '--', '1', '2', '-3', '1e400'], path)

    def morse(self, runs):
        rng = self.rng
        makers = [
            lambda: ' '.join(str(rng.choice([1, -1]) * rng.choice([0, 1, 60, 180, 420, 10 ** rng.randint(0, 19), rng.random() * 1000]))
                             for _ in range(rng.randint(0, 300))),
            lambda: ''.join(rng.choice('.-/ \n|x') for _ in range(rng.randint(0, 500))),
            lambda: bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))).decode('latin-1'),
            lambda: ' '.join(rng.choice(['nan', 'inf', '-inf', '1e308', '-0', '1e-320', '99999999999999999999999'])
                             for _ in range(50)),
        ]
        letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
        for _ in range(runs // 4):
            # The encoder is the oracle: decoding what it sends gives the text back.
            text = ' '.join(''.join(rng.choice(letters) for _ in range(rng.randint(1, 8)))
                            for _ in range(rng.randint(1, 6)))
            wpm = rng.choice(['5', '13', '20', '35'])
            encoded = self.run(['morse', 'encode', text, '--wpm', wpm], 'morse-text')
            if encoded is None:
                continue
            arguments = ['morse', 'decode', '-']
            decoded = self.run(arguments, 'morse-text', stdin=encoded.stdout)
            if decoded is not None:
                self.check(decoded.stdout.decode().strip() == text, 'encode/decode', arguments, 'morse-text')
        for _ in range(runs):
            text = rng.choice(makers)()
            path = os.path.join(self.work, 'morse.txt')
            with open(path, 'w', encoding='utf-8', errors='surrogateescape') as file:
                file.write(text)
            self.run(['morse', 'decode', path], path)


def main():
    kinds = ['text', 'archives', 'zips', 'projects', 'catalogs', 'badutf8', 'stringsdicts', 'morse']
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('kinds', nargs='*', choices=kinds + [[]], default=[])
    parser.add_argument('--seed', type=int, default=random.randrange(1 << 30))
    parser.add_argument('--runs', type=int, default=200)
    options = parser.parse_args()
    if not os.access(TOOL, os.X_OK):
        sys.exit(f'build it first: swift build -c release --product bundlekit ({TOOL})')
    if not os.path.isdir(CORPUS):
        print(f'note: {CORPUS} is absent; only the tests\' files are used')
    work = tempfile.mkdtemp(prefix='bundlekit-fuzz-')
    print(f'seed {options.seed}, {options.runs} runs per kind, work folder {work}')
    fuzzer = Fuzzer(options.seed, work)
    for kind in options.kinds or kinds:
        before = fuzzer.failures
        getattr(fuzzer, kind)(options.runs)
        print(f'{kind}: {fuzzer.failures - before} failures')
    print(f'{fuzzer.oracle_checks} outputs compared with an independent implementation')
    for name, count in sorted(fuzzer.tally.items()):
        print(f'  {name}: {count}')
    sys.exit(1 if fuzzer.failures else 0)


if __name__ == '__main__':
    main()
