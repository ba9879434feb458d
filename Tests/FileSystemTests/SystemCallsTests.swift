import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// The system calls looked up by name (no C target): found, and doing what they say.
struct SystemCallsTests {
  @Test(
    "syncfs, renameat2, fstatfs and getdents64 (renamex_np on macOS) are found in the C library")
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

  #if os(Linux)
    @Test("fileSystemType gives statfs's type, as stat -f reads it")
    func fileSystemType() throws {
      let stat = try #require(Tool.path("stat"), "stat (coreutils) is not on PATH")
      let folder = try TemporaryFolder()
      let run = try Tool.run(stat, ["-f", "-c", "%t", folder.path])
      let expected = Int(
        String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
        radix: 16)
      let descriptor = open(folder.path, O_RDONLY)
      defer { close(descriptor) }
      #expect(expected != nil)
      #expect(SystemCalls.fileSystemType(of: descriptor) == expected)
      #expect(SystemCalls.fileSystemType(of: -1) == nil)
    }
  #endif

  /// Names whose bytes are given: long ones (so that a listing takes several reads of the
  /// buffer), other scripts, and bytes that are not UTF-8.
  @Test("FolderEntries lists what Python's os.listdir lists, over several reads, types included")
  func folderEntries() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    var created: [[UInt8]] = []
    for index in 0..<3_000 {
      created.append(Array("entry-\(index)-\(String(repeating: "x", count: 60))".utf8))
    }
    created += [Array("日本語.plist".utf8), Array("é".utf8), [0x62, 0x61, 0x64, 0xFF, 0xFE]]
    for name in created {
      let path = (Array(folder.path.utf8) + [0x2F] + name + [0]).map { CChar(bitPattern: $0) }
      let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
      try #require(descriptor >= 0)
      close(descriptor)
    }
    try FileManager.default.createDirectory(
      atPath: folder.file("sub"), withIntermediateDirectories: false)
    var names: [[UInt8]] = []
    var folders: [[UInt8]] = []
    let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
    defer { close(descriptor) }
    let complete = FolderEntries.forEach(in: descriptor) { name, type in
      names.append(Array(name))
      if Int32(type) == Int32(DT_DIR) { folders.append(Array(name)) }
    }
    #expect(complete)
    let script =
      "import os, sys; print('\\n'.join(sorted(n.hex() for n in os.listdir(os.fsencode(sys.argv[1])))))"
    let run = try Tool.run(python, ["-c", script, folder.path])
    #expect(run.status == 0, "\(run.stderr)")
    let listed = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    let hex = { (name: [UInt8]) in name.map { String(format: "%02x", $0) }.joined() }
    let ours = names.filter { $0 != [0x2E] && $0 != [0x2E, 0x2E] }.map(hex).sorted()
    #expect(ours.count == 3_004)
    #expect(ours == listed)
    #expect(Set(folders.map(hex)) == [hex(Array("sub".utf8)), hex([0x2E]), hex([0x2E, 0x2E])])
    #expect(!FolderEntries.forEach(in: -1) { _, _ in })
  }
}
