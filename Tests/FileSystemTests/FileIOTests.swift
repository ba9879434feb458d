import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Atomic batch writes: every file or none, modes and links kept, no temporary files left.
@Suite("FileIO batch writes")
struct FileIOTests {
  /// 200 files in 50 folders: enough for the two-thread staging path.
  func tree() throws -> (TemporaryFolder, [String]) {
    let folder = try TemporaryFolder()
    var paths: [String] = []
    for index in 0..<200 {
      let path = folder.file("Folder\(index % 50)/file\(index).txt")
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(Array("old \(index)\n".utf8), to: path)
      if index % 3 == 0 { chmod(path, 0o640) }
      paths.append(path)
    }
    return (folder, paths)
  }

  func leftovers(in folder: TemporaryFolder) throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
      ($0 as NSString).lastPathComponent.hasPrefix(".")
    }
  }

  @Test("A large batch writes every file, keeps each mode, follows links, leaves nothing behind")
  func largeBatch() throws {
    let (folder, paths) = try tree()
    let link = folder.file("Folder0/link.txt")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "file0.txt")
    var batch = paths.enumerated().map {
      FileWrite(path: $0.element, bytes: Array("new \($0.offset)\n".utf8))
    }
    batch[0].path = link
    try FileIO.writeAtomically(batch)
    for (index, path) in paths.enumerated() {
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "new \(index)\n")
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      #expect(mode == (index % 3 == 0 ? 0o640 : 0o644), "\(path)")
    }
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == "file0.txt")
    #expect(try leftovers(in: folder).isEmpty)
  }

  @Test("One file that cannot be written: no file changes and no temporary file stays")
  func failureChangesNothing() throws {
    let (folder, paths) = try tree()
    var batch = paths.map { FileWrite(path: $0, bytes: Array("new\n".utf8)) }
    // A folder that does not exist, in the middle of the batch.
    batch[137].path = folder.file("Missing/file.txt")
    #expect(throws: FileSystemError.self) { try FileIO.writeAtomically(batch) }
    for (index, path) in paths.enumerated() where index != 137 {
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "old \(index)\n")
    }
    #expect(try leftovers(in: folder).isEmpty)
  }
}

extension FileIOTests {
  @Test("A rename that fails: the error names its file, no temporary stays, no file is torn")
  func renameFailure() throws {
    let (folder, paths) = try tree()
    var batch = paths.map { FileWrite(path: $0, bytes: Array("new\n".utf8)) }
    // A folder where a file should be: its temporary file is written, the rename fails.
    let blocked = folder.file("Folder7/blocked")
    try FileManager.default.createDirectory(
      atPath: blocked + "/inside", withIntermediateDirectories: true)
    batch[101].path = blocked
    do {
      try FileIO.writeAtomically(batch)
      Issue.record("a batch with a folder as a target was written")
    } catch {
      #expect(error.path == blocked)
      #expect("\(error)".contains("cannot replace the file"), "\(error)")
    }
    // The renames run on several threads: each other file is whole, old or new.
    for (index, path) in paths.enumerated() where index != 101 {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text == "old \(index)\n" || text == "new\n", "\(path): \(text)")
    }
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: blocked + "/inside", isDirectory: &isFolder))
    #expect(isFolder.boolValue)
    #expect(try leftovers(in: folder).isEmpty)
  }
}

@Suite("WorkerThreads")
struct WorkerThreadsTests {
  @Test("map computes every index once, in order, on any number of threads")
  func mapInOrder() {
    for workers in [1, 2, 3, 8] {
      for count in [0, 1, 63, 64, 1_000] {
        let squares = WorkerThreads.map(count, workers: workers) { $0 * $0 }
        #expect(squares == (0..<count).map { $0 * $0 }, "workers \(workers), count \(count)")
      }
    }
  }

  @Test("run calls each worker once")
  func runEachOnce() {
    let calls = Calls()
    WorkerThreads.run(8) { calls.record($0) }
    #expect(calls.workers.sorted() == Array(0..<8))
  }

  /// The workers seen, from any thread.
  final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Int] = []

    func record(_ worker: Int) { lock.withLock { seen.append(worker) } }

    var workers: [Int] { lock.withLock { seen } }
  }
}

struct DirectoryWalkerTests {
  @Test("names that are not UTF-8 are found anywhere in a tree and shown with bytes escaped")
  func undecodableNames() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("a/b/c/file"))
    try FileIO.writeAtomically(Array("x".utf8), to: folder.file("a/ok-é.txt"))
    #expect(DirectoryWalker.firstUndecodableName(under: folder.path) == nil)
    // "é" whole, then a lone lead byte, then an invalid byte.
    let path = Array((folder.path + "/a/b/c/é-").utf8) + [0xC3, 0x41, 0xFF, 0]
    let descriptor = path.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.baseAddress else { return -1 }
      return open(base.assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
    }
    try #require(descriptor >= 0)
    close(descriptor)
    #expect(
      DirectoryWalker.firstUndecodableName(under: folder.path)
        == folder.path + "/a/b/c/é-\\xC3A\\xFF")
    #expect(DirectoryWalker.names(in: folder.file("a/b/c"))?.undecodable == ["é-\\xC3A\\xFF"])
  }
}
