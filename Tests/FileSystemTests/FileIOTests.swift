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
    let calls = Recorded<Int>()
    WorkerThreads.run(8) { calls.record($0) }
    #expect(calls.all.sorted() == Array(0..<8))
  }

  #if os(Linux)
    /// The cores a thread may run on, as the kernel reports them for `/proc/thread-self`
    /// (the calling thread) or `/proc/self` (the process's main thread).
    static func allowedCores(_ file: String) -> String? {
      guard let status = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
      return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        .map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) }
    }

    @Test("a worker started on another core may then run on every core the process may")
    func workersUnpinned() throws {
      let main = try #require(Self.allowedCores("/proc/self/status"))
      let seen = Recorded<(Int, String)>()
      WorkerThreads.run(8) { worker in
        seen.record((worker, Self.allowedCores("/proc/thread-self/status") ?? "unreadable"))
      }
      let masks = seen.all
      #expect(masks.count == 8)
      for (worker, mask) in masks { #expect(mask == main, "worker \(worker)") }
    }

    @Test("cores counts the cores this process may run on")
    func coresFollowAffinity() throws {
      let list = try #require(Self.allowedCores("/proc/self/status"))
      // "0-1,4,6-7": each range counted whole.
      let count = list.split(separator: ",").reduce(0) { total, range in
        let ends = range.split(separator: "-").compactMap { Int($0) }
        return total + ((ends.last ?? 0) - (ends.first ?? 0) + 1)
      }
      #expect(WorkerThreads.cores == count)
    }
  #endif

  /// What the workers recorded, from any thread.
  final class Recorded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func record(_ value: Value) { lock.withLock { values.append(value) } }

    var all: [Value] { lock.withLock { values } }
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

  @Test("the walk that reads large folders ahead visits what the plain walk visits, in order")
  func readAheadSameVisits() throws {
    let folder = try TemporaryFolder()
    // More subfolders than the read-ahead threshold, made last to first, each with a file and
    // some with folders of their own (read ahead with them; one large enough to be read ahead
    // in turn); a skipped folder, a link to a folder, a scratch file a dead run left (neither
    // walk lists it), non-ASCII names, and a folder the visitor skips.
    let count = DirectoryWalker.readAheadThreshold + 8
    for index in (0..<count).reversed() {
      let name = index % 5 == 0 ? "Ziel-ж\(index)" : "Target\(index)"
      try FileIO.createFolders(for: folder.file("\(name)/Info.plist"))
      try FileIO.writeAtomically(Array("\(index)".utf8), to: folder.file("\(name)/Info.plist"))
      if index % 7 == 0 {
        try FileIO.createFolders(for: folder.file("\(name)/Sub/Deeper/file.txt"))
        try FileIO.writeAtomically([1], to: folder.file("\(name)/Sub/Deeper/file.txt"))
      }
    }
    for index in 0..<(DirectoryWalker.readAheadThreshold + 1) {
      try FileIO.createFolders(for: folder.file("Target3/Many/F\(index)/x"))
    }
    try FileIO.createFolders(for: folder.file(".git/objects/x"))
    try FileIO.createFolders(for: folder.file("Skipped.framework/Info.plist"))
    #expect(symlink(folder.file("Target1"), folder.file("Link")) == 0)
    let scratch = folder.file("Target2/.Info.plist~bundlekit-zzzzzzzzzzzz.0")
    try FileIO.writeAtomically([1], to: scratch)
    // One in a folder read ahead below a folder read ahead: left for the walk to read.
    let deeper = folder.file("Target14/Sub/Deeper/.file.txt~bundlekit-zzzzzzzzzzzz.0")
    try FileIO.writeAtomically([1], to: deeper)
    func visits(readingAhead: Bool) -> [String] {
      var seen: [String] = []
      let visit = { (entry: DirectoryWalker.Entry) -> DirectoryWalker.Decision in
        seen.append("\(entry.relativePath) \(entry.isFolder)")
        return SkippedFolders.skips(entry.name) || entry.name.hasSuffix(".framework")
          ? .skip : .descend
      }
      if readingAhead {
        DirectoryWalker.walk(folder.path, notingCleanFolders: true, visit)
      } else {
        DirectoryWalker.walk(folder.path, visit)
      }
      return seen
    }
    let plain = visits(readingAhead: false)
    let ahead = visits(readingAhead: true)
    #expect(ahead == plain)
    // What the walk must have seen: every folder, in name order, its entries before the next.
    #expect(plain.first == ".git true")
    #expect(plain.contains("Target3/Many/F\(DirectoryWalker.readAheadThreshold) true"))
    #expect(plain.contains("Target7/Sub/Deeper/file.txt false"))
    #expect(plain.contains("Link false"))
    #expect(!plain.contains { $0.hasPrefix(".git/") || $0.hasPrefix("Skipped.framework/") })
    #expect(!plain.contains { $0.contains("~bundlekit-") })
    #expect(plain.filter { $0.hasSuffix("/Info.plist false") }.count == count)
    #expect(FileManager.default.fileExists(atPath: scratch))
    #expect(FileManager.default.fileExists(atPath: deeper))
  }
}
