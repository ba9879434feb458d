import BundleKitArchiving
import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// tar.gz compressed on every core (blocks of 128 KiB, each primed with the 32 KiB before
/// it): one gzip stream that gzip, Python and bsdtar read, holding exactly the tar an
/// uncompressed archive of the same tree holds, the same bytes on every run.
struct ParallelGzipTests {
  /// A tree of many blocks: text that compresses, random bytes that do not (deflate's worst
  /// case), an empty file and files of a block's size around the boundaries.
  static func tree(seed: UInt64) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    var generator = SeededGenerator(seed: seed)
    let words = ["bundle", "string", "version", "archive", "plist", "résumé", "日本"]
    for index in 0..<120 {
      var bytes: [UInt8] = []
      let size = Int.random(in: 0..<40_000, using: &generator)
      while bytes.count < size {
        bytes += Array((words.randomElement(using: &generator) ?? "x").utf8) + [0x20]
      }
      let path = folder.file("src/f\(index % 7)/text\(index).txt")
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(bytes, to: path)
    }
    for size in [0, 1, 128 * 1024 - 512, 128 * 1024, 128 * 1024 + 1, 700_000] {
      try FileIO.writeAtomically(generator.bytes(size), to: folder.file("src/random-\(size).bin"))
    }
    return folder
  }

  @Test(
    "a stream of many blocks: gzip -t, Python's gzip and tarfile, bsdtar read it; it holds the uncompressed archive's tar; same bytes on every run; every level"
  )
  func independentReaders() throws {
    let seed = SeededGenerator.seed("parallel gzip")
    print("ParallelGzipTests seed \(seed)")
    let folder = try Self.tree(seed: seed)
    let tool = try #require(BundleKitTool.path)
    let tar = folder.file("plain.tar")
    #expect(try Tool.run(tool, ["archive", "create", folder.file("src"), "-o", tar]).status == 0)
    var digests: Set<String> = []
    for (index, level) in ["6", "1", "9", "6"].enumerated() {
      let output = folder.file("out\(index).tar.gz")
      let run = try Tool.run(
        tool, ["archive", "create", folder.file("src"), "-o", output, "--level", level])
      #expect(run.status == 0, "\(run.stderr)")
      if level == "6" { digests.insert(SHA256.hex(try FileIO.read(output))) }
      let gzip = try #require(Tool.path("gzip"))
      #expect(try Tool.run(gzip, ["-t", output]).status == 0, "level \(level)")
      // Python decompresses it to exactly the uncompressed archive's bytes.
      let python = try #require(Tool.path("python3"))
      let same = try Tool.run(
        python,
        [
          "-c",
          "import gzip, sys, tarfile; d = gzip.open(sys.argv[1]).read(); print(d == open(sys.argv[2], 'rb').read(), len(tarfile.open(sys.argv[1]).getmembers()))",
          output, tar,
        ])
      #expect(String(decoding: same.stdout, as: UTF8.self) == "True 134\n", "\(same.stderr)")
      let bsdtar = try #require(Tool.path("bsdtar"))
      let listed = try Tool.run(bsdtar, ["-tzf", output])
      #expect(listed.status == 0)
      #expect(String(decoding: listed.stdout, as: UTF8.self).split(separator: "\n").count == 134)
    }
    #expect(digests.count == 1)
  }

  @Test("the same bytes whatever order the files were made in and whatever the time zone")
  func fileOrders() throws {
    let seed = SeededGenerator.seed("parallel gzip orders")
    print("ParallelGzipTests seed \(seed)")
    let first = try Self.tree(seed: seed)
    // The same files written in the reverse order (other inodes, other directory order).
    let second = try TemporaryFolder()
    let paths = try FileManager.default.subpathsOfDirectory(atPath: first.file("src")).sorted()
    for path in paths.reversed() {
      let source = first.file("src/" + path)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder),
        !isFolder.boolValue
      else { continue }
      try FileIO.createFolders(for: second.file("src/" + path))
      try FileIO.writeAtomically(try FileIO.read(source), to: second.file("src/" + path))
    }
    let tool = try #require(BundleKitTool.path)
    var digests: Set<String> = []
    for (tree, zone) in [(first, "UTC"), (second, "Asia/Tokyo")] {
      let output = tree.file("a.tar.gz")
      let run = try Tool.run(
        tool, ["archive", "create", tree.file("src"), "-o", output], environment: ["TZ": zone])
      #expect(run.status == 0, "\(run.stderr)")
      digests.insert(SHA256.hex(try FileIO.read(output)))
    }
    #expect(digests.count == 1)
  }
}
