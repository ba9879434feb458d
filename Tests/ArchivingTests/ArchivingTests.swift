import BundleKitArchiving
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// A small tree with every kind of entry an archive keeps.
func makeTree() throws -> TemporaryFolder {
  let folder = try TemporaryFolder()
  let files: [String: String] = [
    "src/Res/a.txt": "hello\n",
    "src/Res/b.txt": String(repeating: "lorem ipsum ", count: 500),
    "src/Res/en.lproj/Localizable.strings": "\"k\" = \"v\";\n",
    "src/.DS_Store": "junk",
    "src/.git/config": "junk",
    "src/Build/output.o": "object",
  ]
  for (path, text) in files {
    try FileIO.createFolders(for: folder.file(path))
    try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
  }
  try FileManager.default.createDirectory(
    atPath: folder.file("src/Empty"), withIntermediateDirectories: true)
  symlink("Res/a.txt", folder.file("src/link"))
  chmod(folder.file("src/Res/a.txt"), 0o755)
  return folder
}

let expectedNames = [
  "src/", "src/Build/", "src/Build/output.o", "src/Empty/", "src/Res/", "src/Res/a.txt",
  "src/Res/b.txt",
  "src/Res/en.lproj/", "src/Res/en.lproj/Localizable.strings", "src/link",
]

struct ArchiveCreateTests {
  @Test(
    "every format: bsdtar lists the same entries, modes and times",
    arguments: ArchiveFormat.allCases)
  func againstBsdtar(format: ArchiveFormat) throws {
    let tree = try makeTree()
    let output = tree.file("out.\(format.rawValue)")
    try ArchiveCreator.create(
      [tree.file("src")], to: output, options: ArchiveCreateOptions(format: format))
    let ours = try ArchiveReader.list(output)
    let names = ours.map {
      $0.type == .directory && !$0.path.hasSuffix("/") ? $0.path + "/" : $0.path
    }
    // 7-Zip keeps its own order (files, then folders); the others keep ours.
    let expected =
      format == .sevenZip ? names.sorted() == expectedNames ? names : expectedNames : expectedNames
    #expect(format == .sevenZip ? names.sorted() == expectedNames : names == expected, "\(format)")
    #expect(ours.allSatisfy { $0.modificationTime == 315_532_800 })
    #expect(ours.first { $0.path == "src/Res/a.txt" }?.mode == 0o755)
    #expect(ours.first { $0.path == "src/link" }?.linkTarget == "Res/a.txt")
    let bsdtar = try #require(
      Tool.path("bsdtar"), "bsdtar is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let listing = try Tool.run(bsdtar, ["-tf", output])
    #expect(listing.status == 0, "\(listing.stderr)")
    let theirs = String(decoding: listing.stdout, as: UTF8.self).split(separator: "\n").map {
      $0.hasSuffix("/") || !names.contains(String($0) + "/") ? String($0) : String($0) + "/"
    }
    #expect(
      format == .sevenZip ? theirs.sorted() == expectedNames : theirs == expectedNames, "\(format)")
  }

  @Test("a file with holes is stored sparse, as bsdtar stores it; a file without is whole")
  func sparseAsBsdtar() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let bsdtar = try #require(
      Tool.path("bsdtar"), "bsdtar is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file("src"), withIntermediateDirectories: true)
    // 8 MiB with 4 KiB of data in the middle: on file systems with holes, two of them.
    let sparse = folder.file("src/sparse.bin")
    let descriptor = open(sparse, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    let data = [UInt8](repeating: 0x5A, count: 4096)
    #expect(data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 4096, 4 << 20) } == 4096)
    #expect(ftruncate(descriptor, 8 << 20) == 0)
    close(descriptor)
    try FileIO.writeAtomically(
      Array(String(repeating: "whole ", count: 2000).utf8), to: folder.file("src/whole.txt"))
    var info = stat()
    #expect(stat(sparse, &info) == 0)
    let hasHoles = Int64(info.st_blocks) * 512 < Int64(info.st_size)
    let ours = folder.file("ours.tar")
    try ArchiveCreator.create(
      [folder.file("src")], to: ours, options: ArchiveCreateOptions(format: .tar))
    let theirs = folder.file("theirs.tar")
    #expect(try Tool.run(bsdtar, ["-cf", theirs, "-C", folder.path, "src"]).status == 0)
    // Each archive's members as Python's tarfile reads them: sparse or not, and the bytes.
    let script = """
      import hashlib, sys, tarfile
      for path in sys.argv[1:]:
          with tarfile.open(path) as archive:
              for member in sorted(archive.getmembers(), key=lambda m: m.name):
                  if member.isfile():
                      digest = hashlib.sha256(archive.extractfile(member).read()).hexdigest()
                      print(member.name, member.size, member.issparse(), digest)
              print("--")
      """
    let run = try Tool.run(python, ["-c", script, ours, theirs])
    #expect(run.status == 0, "\(run.stderr)")
    let parts = String(decoding: run.stdout, as: UTF8.self).components(separatedBy: "--\n")
    try #require(parts.count == 3, "\(parts)")
    #expect(parts[0] == parts[1], "ours:\n\(parts[0])bsdtar:\n\(parts[1])")
    #expect(
      parts[0].contains("src/sparse.bin 8388608 \(hasHoles ? "True" : "False") "), "\(parts[0])")
    #expect(parts[0].contains("src/whole.txt 12000 False "), "\(parts[0])")
  }

  @Test("Python's tarfile and zipfile read the same names, modes, times and bytes")
  func againstPython() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let tree = try makeTree()
    for format in [ArchiveFormat.tarGzip, .tarXz, .tarBzip2, .zip] {
      let output = tree.file("out.\(format.rawValue)")
      try ArchiveCreator.create(
        [tree.file("src")], to: output, options: ArchiveCreateOptions(format: format))
      let script = """
        import sys, tarfile, zipfile, json, calendar
        path = sys.argv[1]
        rows = []
        if path.endswith('.zip'):
            z = zipfile.ZipFile(path)
            for i in z.infolist():
                data = z.read(i) if not i.is_dir() else b''
                rows.append([i.filename.rstrip('/'), (i.external_attr >> 16) & 0o7777, calendar.timegm(i.date_time + (0, 0, 0)), data.decode('utf-8', 'replace')])
        else:
            t = tarfile.open(path)
            for m in t.getmembers():
                data = t.extractfile(m).read() if m.isfile() else b''
                rows.append([m.name, m.mode, m.mtime, data.decode('utf-8', 'replace'), m.uid, m.gid, m.uname, m.gname, sorted(m.pax_headers)])
        print(json.dumps(rows))
        """
      let result = try Tool.run(python, ["-c", script, output])
      #expect(result.status == 0, "\(result.stderr)")
      let rows = try PropertyListValue(bytes: Array(result.stdout), format: .json).arrayValue ?? []
      #expect(rows.count == expectedNames.count)
      for row in rows {
        guard let name = row.arrayValue?[0].stringValue else { continue }
        #expect(row.arrayValue?[2] == 315_532_800, "\(format) \(name) mtime")
        if name == "src/Res/a.txt" {
          #expect(row.arrayValue?[1] == 0o755)
          #expect(row.arrayValue?[3] == "hello\n")
        }
        if format != .zip {
          // Owner 0, no names, no atime/ctime pax records.
          #expect(row.arrayValue?[4] == 0 && row.arrayValue?[5] == 0)
          #expect(row.arrayValue?[6] == "" && row.arrayValue?[7] == "")
          #expect(row.arrayValue?[8] == [])
        }
      }
    }
  }

  @Test("byte-identical across runs and time zones", arguments: ArchiveFormat.allCases)
  func reproducible(format: ArchiveFormat) throws {
    let tree = try makeTree()
    var digests: Set<String> = []
    for zone in ["UTC", "Asia/Tokyo", "America/Los_Angeles"] {
      let output = tree.file("\(zone.replacingOccurrences(of: "/", with: "-")).\(format.rawValue)")
      let run = try Tool.run(
        BundleKitTool.path ?? "bundlekit", ["archive", "create", tree.file("src"), "-o", output],
        environment: ["TZ": zone])
      #expect(run.status == 0, "\(run.stderr)")
      digests.insert(SHA256.hex(try FileIO.read(output)))
    }
    #expect(digests.count == 1, "\(format): \(digests)")
  }

  @Test("SOURCE_DATE_EPOCH, excludes, --no-reproducible, manifest")
  func options() throws {
    let tree = try makeTree()
    let output = tree.file("out.tar")
    var run = try Tool.run(
      BundleKitTool.path ?? "bundlekit",
      ["archive", "create", tree.file("src"), "-o", output, "--exclude", "Build", "--manifest"],
      environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(run.status == 0, "\(run.stderr)")
    let entries = try ArchiveReader.list(output)
    #expect(entries.allSatisfy { $0.modificationTime == 1_700_000_000 })
    #expect(!entries.contains { $0.path.contains("Build") })
    let manifest = String(decoding: try FileIO.read(output + ".sha256"), as: UTF8.self)
    #expect(manifest.contains("\(SHA256.hex(Array("hello\n".utf8)))  src/Res/a.txt\n"))
    if let sha256sum = Tool.path("sha256sum") {
      let check = try Tool.run(sha256sum, ["-c", output + ".sha256"], in: tree.path)
      #expect(check.status == 0, "\(check.stderr)")
    }
    run = try Tool.run(
      BundleKitTool.path ?? "bundlekit",
      ["archive", "create", tree.file("src"), "-o", tree.file("real.tar"), "--no-reproducible"])
    #expect(run.status == 0)
    #expect(
      try ArchiveReader.list(tree.file("real.tar")).contains { $0.modificationTime > 1_700_000_000 }
    )
  }

  /// Found by hand: such a name came back from FileManager with U+FFFD in it, and the run
  /// stopped with "No such file or directory" on a path that does not exist.
  @Test("a file name that is not UTF-8 is named, bytes escaped, and no archive is written")
  func undecodableName() throws {
    let tree = try makeTree()
    let path = Array((tree.path + "/src/Res/bad-").utf8) + [0xFF, 0xFE, 0]
    let descriptor = path.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.baseAddress else { return -1 }
      return open(base.assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
    }
    try #require(descriptor >= 0)
    close(descriptor)
    let output = tree.file("out.tar")
    let run = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["archive", "create", tree.file("src"), "-o", output])
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "\(tree.file("src/Res"))/bad-\\xFF\\xFE: error: the name is not UTF-8, which BundleKit needs for names: rename the file\n"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("SHA-256 agrees with known digests")
  func sha256() {
    #expect(
      SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(Array(String(repeating: "a", count: 1_000_000).utf8))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}

struct ArchiveReadTests {
  @Test("in-memory reading gives every entry with its bytes")
  func inMemory() throws {
    let tree = try makeTree()
    let output = tree.file("out.zip")
    try ArchiveCreator.create(
      [tree.file("src")], to: output, options: ArchiveCreateOptions(format: .zip))
    let entries = try ArchiveReader.entries(of: Data(try FileIO.read(output)))
    #expect(entries.first { $0.path == "src/Res/a.txt" }?.data == Array("hello\n".utf8))
    #expect(entries.first { $0.path == "src/Res/b.txt" }?.data?.count == 6000)
  }

  @Test("extraction round trip: bytes, modes, links, empty folders")
  func roundTrip() throws {
    let tree = try makeTree()
    let output = tree.file("out.tar.zst")
    try ArchiveCreator.create(
      [tree.file("src")], to: output, options: ArchiveCreateOptions(format: .tarZstd))
    let destination = tree.file("extracted")
    try SafeExtractor.extract(output, to: destination)
    #expect(
      try FileIO.read(destination + "/src/Res/b.txt") == FileIO.read(tree.file("src/Res/b.txt")))
    #expect(FileManager.default.fileExists(atPath: destination + "/src/Empty"))
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: destination + "/src/link"))
        == "Res/a.txt")
    var info = stat()
    stat(destination + "/src/Res/a.txt", &info)
    #expect(info.st_mode & 0o777 == 0o755)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.path).filter {
      $0.contains("extracting")
    }
    #expect(leftovers.isEmpty)
  }

  @Test("hostile archives are refused and nothing lands outside or at all")
  func hostile() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let outside = folder.file("outside")
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    let script = """
      import io, sys, tarfile, zipfile, gzip
      root, outside = sys.argv[1], sys.argv[2]
      def tar(name, members):
          with tarfile.open(root + '/' + name, 'w') as t:
              for info, data in members:
                  t.addfile(info, io.BytesIO(data) if data is not None else None)
      def entry(name, data=b'', kind=tarfile.REGTYPE, link=''):
          i = tarfile.TarInfo(name); i.type = kind; i.linkname = link; i.size = len(data) if kind == tarfile.REGTYPE else 0
          return (i, data if kind == tarfile.REGTYPE else None)
      tar('dotdot.tar', [entry('ok.txt', b'ok'), entry('../evil.txt', b'evil')])
      tar('absolute.tar', [entry(outside + '/evil.txt', b'evil')])
      tar('symlink-escape.tar', [entry('link', kind=tarfile.SYMTYPE, link=outside), entry('link/evil.txt', b'evil')])
      tar('symlink-up.tar', [entry('a/up', kind=tarfile.SYMTYPE, link='../../outside')])
      tar('hardlink.tar', [entry('h', kind=tarfile.LNKTYPE, link='../outside/x')])
      tar('device.tar', [entry('dev', kind=tarfile.CHRTYPE)])
      with zipfile.ZipFile(root + '/zipslip.zip', 'w') as z:
          z.writestr('../zip-evil.txt', 'evil')
      class Zeros(io.RawIOBase):
          def __init__(s, n): s.n = n
          def readable(s): return True
          def readinto(s, b):
              k = min(len(b), s.n); b[:k] = bytes(k); s.n -= k; return k
      with gzip.open(root + '/bomb.tar.gz', 'wb', compresslevel=9) as g:
          t = tarfile.open(fileobj=g, mode='w')
          i = tarfile.TarInfo('zeros'); i.size = 200 * 1024 * 1024
          t.addfile(i, io.BufferedReader(Zeros(i.size)))
          t.close()
      """
    let made = try Tool.run(python, ["-c", script, folder.path, outside])
    try #require(made.status == 0, "\(made.stderr)")
    let expectations = [
      "dotdot.tar": "'..' in the path", "absolute.tar": "absolute path",
      "symlink-escape.tar": "link to an absolute path",
      "symlink-up.tar": "link leads outside", "hardlink.tar": "link leads outside",
      "device.tar": "device files",
      "zipslip.zip": "'..' in the path", "bomb.tar.gz": "archive bomb",
    ]
    for (name, reason) in expectations {
      let destination = folder.file("dest-\(name)")
      let run = try BundleKitTool.run(["archive", "extract", folder.file(name), "-C", destination])
      #expect(run.status == 1, "\(name)")
      #expect(run.stderr.contains(reason), "\(name): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: destination), "\(name): nothing extracted")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("evil.txt")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("zip-evil.txt")))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
        $0.contains("extracting")
      }.isEmpty)
  }

  @Test("list: text and JSON, zip times decoded in UTC")
  func list() throws {
    let tree = try makeTree()
    let output = tree.file("out.zip")
    try ArchiveCreator.create(
      [tree.file("src")], to: output, options: ArchiveCreateOptions(format: .zip))
    let text = try BundleKitTool.run(["archive", "list", output])
    #expect(text.stdout.contains("file       755   6     1980-01-01T00:00:00Z  src/Res/a.txt"))
    let json = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["archive", "list", output, "--format", "json"],
      environment: ["TZ": "Asia/Tokyo"])
    let entries = try PropertyListValue(bytes: Array(json.stdout), format: .json).arrayValue ?? []
    #expect(entries.count == expectedNames.count)
    #expect(entries.allSatisfy { $0["mtime"] == 315_532_800 })
  }
}

struct ExtendedAttributeTests {
  @Test("--xattrs stores extended attributes; without it none are stored")
  func xattrs() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let tree = try makeTree()
    let file = tree.file("src/Res/a.txt")
    let set = try Tool.run(
      python, ["-c", "import os, sys; os.setxattr(sys.argv[1], 'user.bundlekit', b'kept')", file])
    try #require(
      set.status == 0, "this file system does not take user extended attributes: \(set.stderr)")
    let script = """
      import sys, tarfile
      t = tarfile.open(sys.argv[1])
      print(sorted(k for m in t.getmembers() for k in m.pax_headers if 'xattr' in k))
      """
    for (flag, expected) in [(["--xattrs"], true), ([], false)] {
      let output = tree.file(flag.isEmpty ? "plain.tar" : "xattrs.tar")
      let run = try BundleKitTool.run(["archive", "create", tree.file("src"), "-o", output] + flag)
      #expect(run.status == 0, "\(run.stderr)")
      let headers = String(
        decoding: try Tool.run(python, ["-c", script, output]).stdout, as: UTF8.self)
      #expect(headers.contains("user.bundlekit") == expected, "\(flag): \(headers)")
    }
  }
}
