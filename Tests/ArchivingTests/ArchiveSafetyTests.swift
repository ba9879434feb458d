import BundleKitArchiving
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Archives on hostile and international input: names in any language and locale, links
/// that lead out only once resolved, sparse bombs, duplicates, a full disk.
struct ArchiveSafetyTests {
  /// A tree with names that are not ASCII in folders and files.
  func internationalTree() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (path, text) in [
      "Resources/données/a.txt": "a", "Resources/de.lproj/f1-日本.txt": "日本",
      "Resources/ру/файл.txt": "ф",
    ] {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    return folder
  }

  @Test(
    "names that are not ASCII go in as UTF-8 in every locale and format (was SIGSEGV)",
    arguments: ArchiveFormat.allCases)
  func internationalNames(format: ArchiveFormat) throws {
    let tree = try internationalTree()
    let output = tree.file("out.\(format.rawValue)")
    for locale in ["C", "POSIX", "C.UTF-8"] {
      let run = try Tool.run(
        BundleKitTool.path ?? "bundlekit",
        ["archive", "create", "Resources", "-o", output, "--format", format.rawValue],
        environment: ["LC_ALL": locale, "LANG": locale], in: tree.path)
      #expect(run.status == 0, "\(format) in \(locale): \(run.stderr)")
    }
    let bsdtar = try #require(
      Tool.path("bsdtar"), "bsdtar is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let listed = try Tool.run(bsdtar, ["-tf", output], environment: ["LC_ALL": "C.UTF-8"])
    let names = String(decoding: listed.stdout, as: UTF8.self)
    for name in ["données/a.txt", "f1-日本.txt", "ру/файл.txt"] {
      #expect(names.contains(name), "\(format): \(names)")
    }
    // And back out, in the C locale, byte for byte.
    let out = tree.file("x")
    let extract = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["archive", "extract", output, "-C", out],
      environment: ["LC_ALL": "C"])
    #expect(extract.status == 0, "\(extract.stderr)")
    #expect(
      try String(contentsOfFile: out + "/Resources/de.lproj/f1-日本.txt", encoding: .utf8) == "日本")
  }

  @Test("Python's tarfile and zipfile read the names as UTF-8")
  func pythonReadsNames() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let tree = try internationalTree()
    for format in [ArchiveFormat.tarGzip, .zip] {
      let output = tree.file("out.\(format.rawValue)")
      var options = ArchiveCreateOptions(format: format)
      options.reproducible = true
      try ArchiveCreator.create([tree.file("Resources")], to: output, options: options)
      let script =
        format == .zip
        ? "import zipfile,sys; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))"
        : "import tarfile,sys; print('\\n'.join(tarfile.open(sys.argv[1]).getnames()))"
      let run = try Tool.run(python, ["-c", script, output])
      let names = String(decoding: run.stdout, as: UTF8.self)
      #expect(names.contains("Resources/ру/файл.txt"), "\(format): \(names)")
    }
  }

  @Test("inputs are normalised: src/. and src/sub/.. are stored as src, and pass extract")
  func normalisedInputs() throws {
    let tree = try internationalTree()
    try FileManager.default.createDirectory(
      atPath: tree.file("Resources/sub"), withIntermediateDirectories: true)
    for input in ["Resources/.", "Resources/sub/..", "Resources/", "./Resources"] {
      let output = tree.file("n.tar")
      try ArchiveCreator.create(
        [tree.file(input)], to: output, options: ArchiveCreateOptions(format: .tar))
      let names = try ArchiveReader.list(output).map(\.path)
      #expect(names.allSatisfy { $0.hasPrefix("Resources/") }, "\(input): \(names)")
      let destination = tree.file("n-\(UUID().uuidString)")
      #expect(throws: Never.self) { try SafeExtractor.extract(output, to: destination) }
    }
  }

  @Test("a link that leads out only through another link is refused, on create and extract")
  func linksResolvedThroughLinks() throws {
    let folder = try TemporaryFolder()
    // As an archive: a/up -> .. then b -> a/up/.. (textually inside, really DIR's parent).
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let archive = folder.file("links.tar")
    let script = """
      import tarfile, sys
      with tarfile.open(sys.argv[1], 'w') as t:
          for name, kind, link in [('a', tarfile.DIRTYPE, ''), ('a/up', tarfile.SYMTYPE, '..'),
                                   ('b', tarfile.SYMTYPE, 'a/up/..')]:
              info = tarfile.TarInfo(name); info.type = kind; info.linkname = link
              t.addfile(info)
      """
    _ = try Tool.run(python, ["-c", script, archive])
    do {
      try SafeExtractor.extract(archive, to: folder.file("out"))
      Issue.record("extracted a link out of the destination")
    } catch {
      #expect("\(error)".contains("refused entry 'b': link leads outside"), "\(error)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    // The same tree on disk: create refuses to store what extract would refuse.
    try FileManager.default.createDirectory(
      atPath: folder.file("src/a"), withIntermediateDirectories: true)
    symlink("..", folder.file("src/a/up"))
    symlink("a/up/..", folder.file("src/b"))
    symlink("/etc/passwd", folder.file("src/abs"))
    do {
      try ArchiveCreator.create(
        [folder.file("src")], to: folder.file("c.tar"), options: ArchiveCreateOptions(format: .tar))
      Issue.record("archived a link out of the tree")
    } catch {
      #expect("\(error)".contains("outside what is archived"), "\(error)")
    }
  }

  @Test("a sparse entry counts at its full size against --max-size")
  func sparseBomb() throws {
    let tar = try #require(
      Tool.path("tar"), "tar is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let truncate = try #require(
      Tool.path("truncate"), "truncate is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    _ = try Tool.run(truncate, ["-s", "1G", folder.file("big")])
    let archive = folder.file("sparse.tar")
    let made = try Tool.run(tar, ["--sparse", "-cf", archive, "-C", folder.path, "big"])
    try #require(made.status == 0)
    var limits = ExtractionLimits()
    limits.maximumTotalSize = 1 << 20
    do {
      try SafeExtractor.extract(archive, to: folder.file("out"), limits: limits)
      Issue.record("a 1 GiB sparse file passed a 1 MiB limit")
    } catch {
      // The library names the limit, not a flag: the tool adds `--max-size` as a note.
      #expect(Diagnostic.of(error).first?.rule?.name == "archive-size-limit", "\(error)")
      #expect(!"\(error)".contains("--"), "\(error)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("duplicates: the last copy wins as with bsdtar; a file may replace a link")
  func duplicatesLikeBsdtar() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let bsdtar = try #require(
      Tool.path("bsdtar"), "bsdtar is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let archive = folder.file("dup.tar")
    let script = """
      import tarfile, io, sys
      def add(t, name, data=None, kind=tarfile.REGTYPE, link=''):
          info = tarfile.TarInfo(name); info.type = kind; info.linkname = link; info.mode = 0o644
          if data is None: t.addfile(info)
          else: info.size = len(data); t.addfile(info, io.BytesIO(data))
      with tarfile.open(sys.argv[1], 'w') as t:
          add(t, 'x.txt', b'first'); add(t, 'x.txt', b'second')
          add(t, 'l', kind=tarfile.SYMTYPE, link='x.txt'); add(t, 'l', b'a file now')
      """
    _ = try Tool.run(python, ["-c", script, archive])
    try SafeExtractor.extract(archive, to: folder.file("ours"))
    try FileManager.default.createDirectory(
      atPath: folder.file("theirs"), withIntermediateDirectories: true)
    _ = try Tool.run(bsdtar, ["-xf", archive, "-C", folder.file("theirs")])
    for name in ["x.txt", "l"] {
      let ours = try String(contentsOfFile: folder.file("ours/\(name)"), encoding: .utf8)
      let theirs = try String(contentsOfFile: folder.file("theirs/\(name)"), encoding: .utf8)
      #expect(ours == theirs, "\(name)")
    }
    #expect(try String(contentsOfFile: folder.file("ours/x.txt"), encoding: .utf8) == "second")
  }

  @Test("an entry '.' gives a new folder its mode; the umask decides otherwise (was 0700)")
  func folderModes() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let withDot = folder.file("dot.tar")
    let plain = folder.file("plain.tar")
    let script = """
      import tarfile, io, sys
      for path, dot in [(sys.argv[1], True), (sys.argv[2], False)]:
          with tarfile.open(path, 'w') as t:
              if dot:
                  info = tarfile.TarInfo('.'); info.type = tarfile.DIRTYPE; info.mode = 0o750
                  t.addfile(info)
              info = tarfile.TarInfo('./f'); info.size = 1; t.addfile(info, io.BytesIO(b'f'))
      """
    _ = try Tool.run(python, ["-c", script, withDot, plain])
    let mask = umask(0o022)
    defer { umask(mask) }
    try SafeExtractor.extract(withDot, to: folder.file("a"))
    try SafeExtractor.extract(plain, to: folder.file("b"))
    func mode(_ path: String) throws -> Int {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0
    }
    #expect(try mode(folder.file("a")) == 0o750)
    #expect(try mode(folder.file("b")) == 0o755)
    #expect(FileManager.default.fileExists(atPath: folder.file("a/f")))
    // Into an existing folder the entry is not applied, and the user is told.
    try FileManager.default.createDirectory(
      atPath: folder.file("c"), withIntermediateDirectories: true)
    chmod(folder.file("c"), 0o700)
    var warnings: [String] = []
    try SafeExtractor.extract(withDot, to: folder.file("c")) { warnings.append($0) }
    #expect(try mode(folder.file("c")) == 0o700)
    #expect(warnings.count == 1 && warnings[0].contains("'.'"), "\(warnings)")
  }

  @Test("archive list escapes control characters: one entry cannot pose as two")
  func listEscapes() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let archive = folder.file("nl.tar")
    let script = """
      import tarfile, io, sys
      with tarfile.open(sys.argv[1], 'w') as t:
          for name in ['evil\\nfile  644  1  2020 fake', 'tab\\there\\x1b[31m', 'back\\\\slash']:
              info = tarfile.TarInfo(name); info.size = 1; t.addfile(info, io.BytesIO(b'x'))
      """
    _ = try Tool.run(python, ["-c", script, archive])
    let run = try BundleKitTool.run(["archive", "list", archive])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 4, "\(run.stdout)")
    #expect(run.stdout.contains("evil\\nfile  644  1  2020 fake"))
    #expect(run.stdout.contains("tab\\there\\x1B[31m"))
    #expect(run.stdout.contains("back\\\\slash"))
    // JSON keeps the names as they are.
    let json = try BundleKitTool.run(["archive", "list", archive, "--format", "json"])
    let names = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(names?.first?["name"] as? String == "evil\nfile  644  1  2020 fake")
  }

  @Test("a damaged record: list shows what it can and fails; extract refuses (was exit 0)")
  func damagedRecords() throws {
    let tree = try internationalTree()
    let archive = tree.file("d.tar")
    try ArchiveCreator.create(
      [tree.file("Resources")], to: archive, options: ArchiveCreateOptions(format: .tar))
    var bytes = try FileIO.read(archive)
    // A wrong checksum in the header of Resources/données/ (a folder): libarchive skips the
    // record ("Damaged tar archive", retrying), as bsdtar does without failing.
    let name = Array("Resources/données/".utf8)
    let header = try #require(
      stride(from: 0, to: bytes.count - 512, by: 512).first {
        bytes[$0..<($0 + name.count)].elementsEqual(name)
      })
    for offset in (header + 148)..<(header + 154) { bytes[offset] = UInt8(ascii: "7") }
    try FileIO.writeAtomically(bytes, to: archive)
    let list = try BundleKitTool.run(["archive", "list", archive])
    #expect(list.status == 1)
    #expect(list.stderr.lowercased().contains("damaged"), "\(list.stderr)")
    #expect(throws: ArchiveError.self) { try ArchiveReader.list(archive) }
    #expect(throws: ArchiveError.self) { try SafeExtractor.extract(archive, to: tree.file("out")) }
    #expect(!FileManager.default.fileExists(atPath: tree.file("out")))
  }

  @Test("records libarchive skips (found by fuzzing: 29 garbage entries listed, exit 0)")
  func skippedRecords() throws {
    let archive = Corpus.packageRoot.appendingPathComponent(
      "Tests/ArchivingTests/Fixtures/damaged-records.tar"
    ).path
    let list = try BundleKitTool.run(["archive", "list", archive])
    #expect(list.status == 1)
    #expect(list.stderr.contains("damaged archive: 29 records could not be read"), "\(list.stderr)")
    // What could be read is shown, and nothing else: bsdtar lists the same five names.
    #expect(list.stdout.split(separator: "\n").count == 6, "\(list.stdout)")
    #expect(!list.stdout.contains("other"))
    let folder = try TemporaryFolder()
    #expect(throws: ArchiveError.self) {
      try SafeExtractor.extract(archive, to: folder.file("out"))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("into an existing folder: files replaced and folders merged as with bsdtar")
  func mergeLikeBsdtar() throws {
    let bsdtar = try #require(
      Tool.path("bsdtar"), "bsdtar is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    for (path, text) in ["src/Res/a.txt": "new a", "src/Res/sub/b.txt": "new b", "src/c.txt": "c"] {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let archive = folder.file("a.tar")
    _ = try Tool.run(bsdtar, ["-cf", archive, "-C", folder.file("src"), "Res", "c.txt"])
    for side in ["ours", "theirs"] {
      for (path, text) in ["Res/a.txt": "old a", "Res/keep.txt": "keep", "other.txt": "o"] {
        try FileIO.createFolders(for: folder.file("\(side)/\(path)"))
        try FileIO.writeAtomically(Array(text.utf8), to: folder.file("\(side)/\(path)"))
      }
    }
    try SafeExtractor.extract(archive, to: folder.file("ours"))
    _ = try Tool.run(bsdtar, ["-xf", archive, "-C", folder.file("theirs")])
    let ours = try FileManager.default.subpathsOfDirectory(atPath: folder.file("ours")).sorted()
    let theirs = try FileManager.default.subpathsOfDirectory(atPath: folder.file("theirs")).sorted()
    #expect(ours == theirs)
    for path in theirs where !path.hasSuffix("Res") && !path.hasSuffix("sub") {
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: folder.file("ours/\(path)")))
          == Data(contentsOf: URL(fileURLWithPath: folder.file("theirs/\(path)"))), "\(path)")
    }
    // A file where the archive has a folder: refused, nothing moved.
    try FileIO.createFolders(for: folder.file("blocked/Res"))
    try FileIO.writeAtomically(Array("x".utf8), to: folder.file("blocked/Res"))
    #expect(throws: ArchiveError.self) {
      try SafeExtractor.extract(archive, to: folder.file("blocked"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("blocked")) == ["Res"])
  }
}
