import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// The system calls looked up by name (no C target): found, and doing what they say.
struct SystemCallsTests {
  @Test("syncfs and renameat2 (renamex_np on macOS) are found in the C library")
  func found() {
    #expect(SystemCalls.foundAll)
  }

  @Test("exchange swaps two folders in one step; syncFileSystem flushes")
  func exchangeAndSync() throws {
    let folder = try TemporaryFolder()
    let first = folder.path + "/first"
    let second = folder.path + "/second"
    for (path, mark) in [(first, "one"), (second, "two")] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      try Data(mark.utf8).write(to: URL(fileURLWithPath: path + "/mark"))
    }
    #expect(SystemCalls.exchange(first, second) == 0, "errno \(errno)")
    #expect(try String(contentsOfFile: first + "/mark", encoding: .utf8) == "two")
    #expect(try String(contentsOfFile: second + "/mark", encoding: .utf8) == "one")
    // A missing name: an error, nothing moved.
    #expect(SystemCalls.exchange(first, folder.path + "/none") == -1)
    #expect(errno == ENOENT)
    #expect(try String(contentsOfFile: first + "/mark", encoding: .utf8) == "two")
    let descriptor = open(first, O_RDONLY)
    defer { close(descriptor) }
    #expect(SystemCalls.syncFileSystem(of: descriptor) == 0)
  }
}
