import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// A batch whose flush to disk fails is rolled back and says so. The fault is a real one
/// (``FailingDisk``: every write lands in memory and the write-back fails). Before the batch
/// checked its `syncfs`, `bump` exited 0 there and, once the cache was dropped, 873 of 1,000
/// Info.plists could not be read.
struct FlushFailureTests {
  @Test(
    "a batch whose flush fails (a write-back error) throws and leaves every file as it was",
    .enabled(if: FailingDisk.isSupported, FailingDisk.unsupported))
  func writeBackError() throws {
    let disk = try FailingDisk()
    // 400 small files, on disk: the store beneath is then more than half full.
    try disk.fill(400, prefix: "f")
    let paths = (0..<400).map { "\(disk.path)/f\($0).txt" }

    // Their new contents fit the ext4 file system, not the store beneath it.
    let batch = paths.enumerated().map { index, path in
      FileWrite(
        path: path, bytes: Array("new \(index) \(String(repeating: "x", count: 300))\n".utf8))
    }
    #expect {
      try FileIO.writeAtomically(batch)
    } throws: { error in
      "\(error)".contains("cannot flush the batch to disk")
    }
    for (index, path) in paths.enumerated() {
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "filler \(index)\n")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).filter {
      $0.contains("bundlekit")
    }
    #expect(left.isEmpty, "scratch left: \(left.prefix(3))")
  }
}
