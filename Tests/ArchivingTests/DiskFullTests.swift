import BundleKitArchiving
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// A full disk: a small tmpfs, mounted when the tests run as root.
@Suite(.enabled(if: geteuid() == 0, "the disk-full tests mount a small tmpfs, which needs root"))
struct DiskFullTests {
  /// Mounts a 1 MiB tmpfs (with `options` added).
  static func smallFileSystem(_ options: String = "") throws -> (
    TemporaryFolder, unmount: () -> Void
  ) {
    let mount = try #require(Tool.path("mount"), "mount is not on PATH")
    let umount = try #require(Tool.path("umount"), "umount is not on PATH")
    let folder = try TemporaryFolder()
    let run = try Tool.run(mount, ["-t", "tmpfs", "-o", "size=1m" + options, "tmpfs", folder.path])
    try #require(run.status == 0, "cannot mount a tmpfs here: \(run.stderr)")
    return (folder, { _ = try? Tool.run(umount, [folder.path]) })
  }

  static func scratchLeft(in path: String) throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: path).filter {
      ($0 as NSString).lastPathComponent.contains("bundlekit")
    }
  }

  @Test(
    "extract whose flush fails (a write-back error): an error, no destination, no scratch",
    .enabled(if: FailingDisk.isSupported, FailingDisk.unsupported))
  func extractWriteBackError() throws {
    // Every write lands in memory; writing back more than the filler fails.
    let disk = try FailingDisk()
    try disk.fill(400)
    let source = try TemporaryFolder()
    let files = try (0..<400).map { index -> String in
      let path = source.file("f\(index).txt")
      let text = "entry \(index) \(String(repeating: "y", count: 300))\n"
      try FileIO.writeAtomically(Array(text.utf8), to: path)
      return path
    }
    let archive = source.file("a.tar")
    try ArchiveCreator.create(files, to: archive, options: ArchiveCreateOptions(format: .tar))
    let destination = disk.path + "/out"
    #expect {
      try SafeExtractor.extract(archive, to: destination)
    } throws: { error in
      "\(error)".contains("cannot flush")
    }
    #expect(!FileManager.default.fileExists(atPath: destination))
    let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).filter {
      $0.contains("bundlekit")
    }
    #expect(left.isEmpty, "scratch left: \(left.prefix(3))")
  }

  @Test("extract on a full disk fails, names the entry, leaves the destination untouched")
  func extract() throws {
    let (disk, unmount) = try Self.smallFileSystem()
    defer { unmount() }
    let source = try Self.bigFile()
    try FileIO.writeAtomically(Array("small".utf8), to: source.file("small.txt"))
    let archive = source.file("a.tar")
    try ArchiveCreator.create(
      [source.file("big.bin"), source.file("small.txt")], to: archive,
      options: ArchiveCreateOptions(format: .tar))
    // New folder and existing folder alike.
    try FileIO.createFolders(for: disk.file("keep/small.txt"))
    try FileIO.writeAtomically(Array("mine".utf8), to: disk.file("keep/small.txt"))
    for destination in [disk.file("new"), disk.file("keep")] {
      let run = try BundleKitTool.run(["archive", "extract", archive, "-C", destination])
      #expect(run.status == 1)
      #expect(run.stderr.contains("cannot extract 'big.bin'"), "\(run.stderr)")
      #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: disk.file("new")))
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.file("keep")) == ["small.txt"])
    #expect(try String(contentsOfFile: disk.file("keep/small.txt"), encoding: .utf8) == "mine")
    #expect(try Self.scratchLeft(in: disk.path).isEmpty)
  }

  /// A folder holding `big.bin`: 3 MB of random bytes, three times the small disk.
  static func bigFile() throws -> TemporaryFolder {
    let source = try TemporaryFolder()
    var random = SeededGenerator(seed: SeededGenerator.seed("full disk: big.bin"))
    try FileIO.writeAtomically(random.bytes(3_000_000), to: source.file("big.bin"))
    return source
  }

  /// Fills the file system at `path` but for about `room` bytes.
  static func fill(_ path: String, leaving room: Int) throws {
    var info = statvfs()
    try #require(statvfs(path, &info) == 0)
    let free = Int(info.f_bavail) * Int(info.f_frsize)
    let size = max(free - room, 0)
    let descriptor = open(path + "/filler", O_CREAT | O_WRONLY, 0o644)
    defer { close(descriptor) }
    let chunk = [UInt8](repeating: 7, count: 4096)
    var written = 0
    while written < size {
      let count = write(descriptor, chunk, min(chunk.count, size - written))
      if count <= 0 { break }
      written += count
    }
  }

  @Test("tar.gz on a full disk (the compressing workers' writes fail): an error, no archive")
  func createCompressed() throws {
    let (disk, unmount) = try Self.smallFileSystem()
    defer { unmount() }
    let source = try Self.bigFile()
    let run = try BundleKitTool.run([
      "archive", "create", source.file("big.bin"), "-o", disk.file("out.tar.gz"),
    ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: disk.file("out.tar.gz")))
    #expect(try Self.scratchLeft(in: disk.path).isEmpty)
  }

  @Test("strings compile on a full disk writes nothing and leaves no temporary file")
  func compile() throws {
    let (disk, unmount) = try Self.smallFileSystem()
    defer { unmount() }
    let source = try TemporaryFolder()
    for language in ["en", "de", "fr"] {
      let path = source.file("\(language).lproj/Localizable.strings")
      try FileIO.createFolders(for: path)
      let text = (0..<3000).map { "\"key\($0)\" = \"\(language) value \($0)\";\n" }.joined()
      try FileIO.writeAtomically(Array(text.utf8), to: path)
    }
    let out = disk.file("out")
    // A first compile fits; the second, with longer values, does not.
    #expect(
      try BundleKitTool.run(["strings", "compile", source.path, "--output-dir", out]).status == 0)
    let before = try FileManager.default.subpathsOfDirectory(atPath: out).sorted().map {
      ($0, FileManager.default.contents(atPath: out + "/" + $0))
    }
    try Self.fill(disk.path, leaving: 60_000)
    for language in ["en", "de", "fr"] {
      let path = source.file("\(language).lproj/Localizable.strings")
      let text = (0..<3000).map { "\"key\($0)\" = \"\(language) a much longer value \($0)\";\n" }
        .joined()
      try FileIO.writeAtomically(Array(text.utf8), to: path)
    }
    let run = try BundleKitTool.run(["strings", "compile", source.path, "--output-dir", out])
    #expect(run.status == 1)
    #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    let after = try FileManager.default.subpathsOfDirectory(atPath: out).sorted().map {
      ($0, FileManager.default.contents(atPath: out + "/" + $0))
    }
    #expect(after.map(\.0) == before.map(\.0))
    #expect(after.map(\.1) == before.map(\.1))
    #expect(try Self.scratchLeft(in: disk.path).isEmpty)
  }

  @Test("bump on a full disk changes no file and leaves no temporary file")
  func bump() throws {
    let (disk, unmount) = try Self.smallFileSystem()
    defer { unmount() }
    var originals: [String: Data] = [:]
    for index in 0..<40 {
      let path = disk.file("Target\(index)/Info.plist")
      try FileIO.createFolders(for: path)
      let value = PropertyListValue.dictionary([
        "CFBundleVersion": "7", "Padding": .string(String(repeating: "x", count: 2000)),
      ])
      try FileIO.writeAtomically(try value.encoded(as: .xml1), to: path)
      originals[path] = FileManager.default.contents(atPath: path)
    }
    try Self.fill(disk.path, leaving: 20_000)
    let run = try BundleKitTool.run(["bump", "build", disk.path])
    #expect(run.status == 1)
    #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    for (path, data) in originals {
      #expect(FileManager.default.contents(atPath: path) == data, "\(path)")
    }
    #expect(try Self.scratchLeft(in: disk.path).isEmpty)
  }

  @Test("extract with no inode left is a write failure naming the entry, not a refused entry")
  func inodes() throws {
    let (disk, unmount) = try Self.smallFileSystem(",nr_inodes=24")
    defer { unmount() }
    let source = try TemporaryFolder()
    let files = (0..<60).map { "f\($0).txt" }
    for file in files { try FileIO.writeAtomically(Array("x".utf8), to: source.file(file)) }
    let archive = source.file("many.tar")
    try ArchiveCreator.create(
      files.map { source.file($0) }, to: archive, options: ArchiveCreateOptions(format: .tar))
    let run = try BundleKitTool.run(["archive", "extract", archive, "-C", disk.file("out")])
    #expect(run.status == 1)
    #expect(run.stderr.contains("cannot extract '"), "\(run.stderr)")
    #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    #expect(!run.stderr.contains("refused entry"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: disk.file("out")))
    #expect(try Self.scratchLeft(in: disk.path).isEmpty)
  }

  @Test("bundle create on a full disk blames the output, not the source, and changes nothing")
  func bundle() throws {
    let (disk, unmount) = try Self.smallFileSystem()
    defer { unmount() }
    let source = try TemporaryFolder()
    var random = SeededGenerator(seed: SeededGenerator.seed("full disk: a bundle's big.bin"))
    try FileIO.writeAtomically(random.bytes(2_000_000), to: source.file("big.bin"))
    let output = disk.file("Res.bundle")
    let run = try BundleKitTool.run([
      "bundle", "create", "Res", "--from", source.path, "-o", output,
    ])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("\(output): error: cannot write the bundle"), "\(run.stderr)")
    #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    #expect(!run.stderr.contains(source.path + ": "), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
  }
}
