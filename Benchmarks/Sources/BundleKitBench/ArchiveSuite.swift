import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// The `archive` suite: tar.gz of a 5,000-file tree by `bundlekit archive create` and by
/// `bsdtar`, at the same gzip level.
enum ArchiveSuite {
  static let fileCount = 5_000

  static func run() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-bench-archive-\(getpid())"
    ).path
    defer { try? FileManager.default.removeItem(atPath: base) }
    var generator = SystemRandomNumberGenerator()
    var total = 0
    for index in 0..<fileCount {
      // Text-like content of varied size, in 50 folders.
      let size = 200 + Int.random(in: 0..<8_000, using: &generator)
      var bytes = [UInt8]()
      bytes.reserveCapacity(size)
      let words = [
        "bundle", "string", "version", "archive", "plist", "locale", "resource", "build",
      ]
      while bytes.count < size {
        bytes += Array((words.randomElement(using: &generator) ?? "x").utf8) + [0x20]
      }
      let path = "\(base)/tree/Folder\(index % 50)/file\(index).txt"
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(bytes, to: path)
      total += bytes.count
    }
    print("## archive: tar.gz of \(fileCount) files (\(total / 1024) KiB), gzip level 6\n")
    let tool = Bench.bundlekit
    guard FileManager.default.isExecutableFile(atPath: tool), let bsdtar = Bench.which("bsdtar")
    else {
      print(
        "needs bundlekit (\(Bench.buildHint)) and bsdtar (libarchive-tools)\n"
      )
      return
    }
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<5 {
      if let time = Bench.spawn(
        tool, ["archive", "create", base + "/tree", "-o", base + "/ours.tar.gz", "--level", "6"])
      {
        ours.append(time)
      }
      if let time = Bench.spawn(
        bsdtar,
        [
          "-czf", base + "/theirs.tar.gz", "--options", "gzip:compression-level=6", "-C", base,
          "tree",
        ])
      {
        theirs.append(time)
      }
    }
    let median = { (times: [Double]) -> Double? in
      times.isEmpty ? nil : times.sorted()[times.count / 2]
    }
    let oursSize = (try? FileIO.read(base + "/ours.tar.gz").count) ?? 0
    let theirsSize = (try? FileIO.read(base + "/theirs.tar.gz").count) ?? 0
    Bench.printTable(
      title: "archive", peers: ["bsdtar -czf"],
      rows: [
        Bench.Row(
          work: "tar.gz, \(fileCount) files", ours: median(ours) ?? .nan, peers: [median(theirs)],
          note:
            "sizes: BundleKit \(oursSize) bytes (sorted, reproducible, flushed to disk), bsdtar \(theirsSize)"
        )
      ])
  }
}
