import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// What a killed run leaves, and how the next run that writes the tree finishes it: journals
/// rolled forward or back, abandoned temporary files removed, live ones left alone. The states
/// are written by hand, byte for byte as a run killed at that moment leaves them
/// (`Scripts/crash-test.py` kills real runs).
@Suite("Crash recovery")
struct CrashRecoveryTests {
  /// A transaction of a process that cannot exist (beyond any pid_max).
  static let dead = "yyyyyyz1k"

  /// A journal as this user's runs write it: signed with the user's key for `folder`.
  static func journal(_ renames: [(String, String)], folder: String, transaction: String = dead)
    -> [UInt8]
  {
    // Each target's state now, as a run records it when its batch begins.
    RenameJournal.encode(
      renames.map {
        (
          source: $0.0, target: $0.1,
          state: RenameJournal.FileState.of(Paths.join(folder, $0.1))
        )
      }, folder: FileIO.realPath(folder) ?? folder, transaction: transaction)
  }

  /// A folder with `a/Info.plist` and `b/Info.plist` holding "old", a batch's temporary
  /// files holding "new", and its journal, committed or not.
  func killedBatch(committed: Bool, renamedFirst: Bool) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    var renames: [(String, String)] = []
    for name in ["a", "b"] {
      let target = folder.file("\(name)/Info.plist")
      try FileIO.createFolders(for: target)
      try Data("old".utf8).write(to: URL(fileURLWithPath: target))
      let temporary =
        "\(name)/"
        + ScratchFiles.temporaryName(
          for: "Info.plist", transaction: Self.dead, index: name == "a" ? 0 : 1)
      try Data("new".utf8).write(to: URL(fileURLWithPath: folder.file(temporary)))
      renames.append((temporary, "\(name)/Info.plist"))
    }
    if renamedFirst {
      rename(folder.file(renames[0].0), folder.file("a/Info.plist"))
    }
    let name = ".bundlekit-\(Self.dead).\(committed ? "committed" : "journal")"
    try Data(Self.journal(renames, folder: folder.path)).write(
      to: URL(fileURLWithPath: folder.file(name)))
    return folder
  }

  func contents(_ folder: TemporaryFolder) throws -> [String] {
    try ["a", "b"].map {
      try String(contentsOfFile: folder.file("\($0)/Info.plist"), encoding: .utf8)
    }
  }

  func leftovers(_ folder: TemporaryFolder) throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
      ($0 as NSString).lastPathComponent.hasPrefix(".")
    }
  }

  @Test("a batch killed after its commit is rolled forward by the next run that writes the tree")
  func rollForward() throws {
    for renamedFirst in [false, true] {
      let folder = try killedBatch(committed: true, renamedFirst: renamedFirst)
      RecoveryScope.permit(under: [folder.path])
      var seen: [String] = []
      DirectoryWalker.walk(folder.path) { entry in
        seen.append(entry.relativePath)
        return .descend
      }
      #expect(try contents(folder) == ["new", "new"])
      #expect(try leftovers(folder).isEmpty)
      // The walk never shows the scratch names.
      #expect(seen == ["a", "a/Info.plist", "b", "b/Info.plist"])
    }
  }

  @Test("a committed journal is never replayed over a file changed after its batch began")
  func neverOverNewerEdits() throws {
    let folder = try killedBatch(committed: true, renamedFirst: false)
    // Edited since the killed run: in place (same inode, new time and size), and replaced.
    try Data("edited in place".utf8).write(to: URL(fileURLWithPath: folder.file("a/Info.plist")))
    RecoveryScope.permit(under: [folder.path])
    _ = DirectoryWalker.names(in: folder.path)
    #expect(try contents(folder) == ["edited in place", "new"])
    #expect(try leftovers(folder).isEmpty)
    let real = try #require(FileIO.realPath(folder.path))
    #expect(RecoveryScope.outcomes.contains(.kept(real + "/a/Info.plist")))
    #expect(RecoveryScope.outcomes.contains(.replaced(real + "/b/Info.plist")))

    let replaced = try killedBatch(committed: true, renamedFirst: false)
    try FileIO.writeAtomically(Array("a later run".utf8), to: replaced.file("b/Info.plist"))
    RecoveryScope.permit(under: [replaced.path])
    _ = DirectoryWalker.names(in: replaced.path)
    #expect(try contents(replaced) == ["new", "a later run"])
  }

  @Test("a writer finishes a committed journal above the files it writes before writing them")
  func writerFinishesJournalAbove() throws {
    let folder = try killedBatch(committed: true, renamedFirst: false)
    RecoveryScope.permit(under: [folder.path])
    // One file of the killed batch, written alone: its folder is a/, the journal is above.
    try FileIO.writeAtomically([
      FileWrite(path: folder.file("a/Info.plist"), bytes: Array("newest".utf8))
    ])
    #expect(try contents(folder) == ["newest", "new"])
    #expect(try leftovers(folder).isEmpty)
  }

  @Test("a read-only walk leaves a killed batch as it is and reports it")
  func readOnlyWalk() throws {
    let folder = try killedBatch(committed: true, renamedFirst: true)
    var seen: [String] = []
    DirectoryWalker.walk(folder.path) { entry in
      seen.append(entry.relativePath)
      return .descend
    }
    #expect(try contents(folder) == ["new", "old"])
    #expect(try leftovers(folder).count == 2)
    #expect(seen == ["a", "a/Info.plist", "b", "b/Info.plist"])
    #expect(RecoveryScope.pendingFolders.contains(folder.path))
  }

  @Test("a batch killed before its commit is rolled back")
  func rollBack() throws {
    let folder = try killedBatch(committed: false, renamedFirst: false)
    RecoveryScope.permit(under: [folder.path])
    _ = DirectoryWalker.names(in: folder.path)
    #expect(try contents(folder) == ["old", "old"])
    #expect(try leftovers(folder).isEmpty)
  }

  @Test("a run given part of the tree never acts on a journal above it")
  func journalAbove() throws {
    let folder = try killedBatch(committed: true, renamedFirst: true)
    RecoveryScope.permit(under: [folder.file("b")])
    ScratchRecovery.recover(atRoots: [folder.file("b/Info.plist")])
    DirectoryWalker.walk(folder.file("b")) { _ in .descend }
    #expect(try contents(folder) == ["new", "old"])
    #expect(try leftovers(folder).count == 2)
  }

  @Test("a locked journal above the tree is not waited for")
  func lockedAncestor() throws {
    let folder = try TemporaryFolder()
    let tree = folder.file("Project")
    try FileIO.createFolders(for: tree + "/Info.plist")
    try Data("x".utf8).write(to: URL(fileURLWithPath: tree + "/Info.plist"))
    let journal = folder.file(".bundlekit-\(Self.dead).committed")
    try Data(Self.journal([], folder: folder.path)).write(to: URL(fileURLWithPath: journal))
    let descriptor = open(journal, O_RDONLY)
    defer { close(descriptor) }
    try #require(flock(descriptor, LOCK_EX) == 0)
    let start = Date()
    RecoveryScope.permit(under: [tree])
    ScratchRecovery.recover(atRoots: [tree])
    DirectoryWalker.walk(tree) { _ in .descend }
    // Waiting would take the full `lockWait` (20 s); the margin below it is for a loaded CI
    // machine, where this took up to a second.
    #expect(Date().timeIntervalSince(start) < 15)
    #expect(FileManager.default.fileExists(atPath: journal))
  }

  @Test("a journal killed while being written (empty, not committed) is removed")
  func emptyJournal() throws {
    let folder = try TemporaryFolder()
    RecoveryScope.permit(under: [folder.path])
    try Data().write(
      to: URL(fileURLWithPath: folder.file(".bundlekit-\(Self.dead).journal")))
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("a.txt")))
    #expect(DirectoryWalker.names(in: folder.path)?.names == ["a.txt"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.txt"])
  }

  @Test(
    "a journal that is not this user's run's is left alone: unsigned, old format, signed for another folder, paths out of the folder"
  )
  func plantedJournals() throws {
    let folder = try TemporaryFolder()
    RecoveryScope.permit(under: [folder.path])
    let scratch = ScratchFiles.temporaryName(for: "other.txt", transaction: Self.dead, index: 0)
    let elsewhere = try TemporaryFolder()
    let cases: [[UInt8]] = [
      Array("bundlekit rename journal 1\n".utf8) + Array(scratch.utf8) + [0]
        + Array("other.txt".utf8) + [0],
      Array("bundlekit rename journal 2\n".utf8) + Array(String(repeating: "0", count: 64).utf8)
        + [0x0A] + Array(scratch.utf8) + [0] + Array("other.txt".utf8) + [0],
      Self.journal([(scratch, "other.txt")], folder: elsewhere.path),
      Self.journal([(scratch, "../other.txt")], folder: folder.path),
      Self.journal([(scratch, elsewhere.file("other.txt"))], folder: folder.path),
      Self.journal([("../" + scratch, "other.txt")], folder: folder.path),
      Self.journal([("other.txt", "keep.txt")], folder: folder.path),
    ]
    for (index, bytes) in cases.enumerated() {
      try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.file("other.txt")))
      try Data("mine".utf8).write(to: URL(fileURLWithPath: elsewhere.file("other.txt")))
      try Data("attack".utf8).write(to: URL(fileURLWithPath: folder.file(scratch)))
      try Data(bytes).write(
        to: URL(fileURLWithPath: folder.file(".bundlekit-\(Self.dead).committed")))
      _ = DirectoryWalker.names(in: folder.path)
      #expect(
        try String(contentsOfFile: folder.file("other.txt"), encoding: .utf8) == "mine",
        "case \(index)")
      #expect(
        try String(contentsOfFile: elsewhere.file("other.txt"), encoding: .utf8) == "mine",
        "case \(index)")
      #expect(!FileManager.default.fileExists(atPath: folder.path + "/../other.txt"))
    }
  }

  @Test("a signed journal whose path goes through a link out of the tree moves nothing there")
  func linkOutOfTree() throws {
    let folder = try TemporaryFolder()
    let outside = try TemporaryFolder()
    try Data("precious".utf8).write(to: URL(fileURLWithPath: outside.file(".bashrc")))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("h"), withDestinationPath: outside.path)
    let scratch = ScratchFiles.temporaryName(for: "x", transaction: Self.dead, index: 0)
    try Data("attack".utf8).write(to: URL(fileURLWithPath: folder.file(scratch)))
    // Even a journal that verifies (as if the attacker knew the key) cannot go through `h`.
    for (source, target) in [(scratch, "h/.bashrc"), ("h/" + scratch, "h/.bashrc")] {
      try Data(Self.journal([(source, target)], folder: folder.path)).write(
        to: URL(fileURLWithPath: folder.file(".bundlekit-\(Self.dead).committed")))
      RecoveryScope.permit(under: [folder.path])
      _ = DirectoryWalker.names(in: folder.path)
      #expect(
        try String(contentsOfFile: outside.file(".bashrc"), encoding: .utf8) == "precious")
      #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == [".bashrc"])
    }
  }

  @Test("a temporary file of a live writer stays; one of a dead writer goes")
  func liveAndDead() throws {
    let flockTool = try #require(
      Tool.path("flock"), "flock is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let live = folder.file(
      ScratchFiles.temporaryName(for: "a.txt", transaction: "yyyyyxz1", index: 0))
    let dead = folder.file(
      ScratchFiles.temporaryName(for: "a.txt", transaction: Self.dead, index: 0))
    try Data("x".utf8).write(to: URL(fileURLWithPath: live))
    try Data("x".utf8).write(to: URL(fileURLWithPath: dead))
    // Another process holds the live one's lock, as its writer would.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: flockTool)
    holder.arguments = [live, "sleep", "30"]
    try holder.run()
    defer { holder.terminate() }
    usleep(300_000)
    try FileIO.writeAtomically(Array("new".utf8), to: folder.file("a.txt"))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(try String(contentsOfFile: folder.file("a.txt"), encoding: .utf8) == "new")
  }

  @Test("scratch names are recognised, and nothing else is")
  func names() {
    let temporary = ScratchFiles.temporaryName(for: "Info.plist", transaction: "k3z9", index: 12)
    #expect(ScratchFiles.kind(of: temporary) == .temporary(transaction: "k3z9"))
    #expect(
      ScratchFiles.kind(of: ".bundlekit-k3z9.committed")
        == .journal(transaction: "k3z9", committed: true))
    for name in [
      "Info.plist", ".gitignore", ".Info.plist.swp", "a~bundlekit-x.y", ".a~bundlekit-.1",
      ".bundlekit-.journal", ".bundlekit-A.journal",
    ] {
      #expect(ScratchFiles.kind(of: name) == nil, "\(name)")
    }
    // A long name is cut so the temporary fits a file system's 255 bytes.
    let long = String(repeating: "é", count: 127)
    #expect(
      ScratchFiles.temporaryName(for: long, transaction: "abc", index: 0).utf8.count <= 255)
  }
}

/// Writing to what is not a regular file: into it, never over it.
@Suite("Writes to devices and FIFOs")
struct SpecialFileTests {
  @Test("a FIFO is written into and stays a FIFO")
  func fifo() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("pipe")
    try #require(mkfifo(path, 0o644) == 0)
    nonisolated(unsafe) var received = Data()
    let reader = Thread {
      let descriptor = open(path, O_RDONLY)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { break }
        received.append(contentsOf: buffer[0..<count])
      }
      close(descriptor)
    }
    reader.start()
    try FileIO.writeAtomically(Array("through the pipe".utf8), to: path)
    while !reader.isFinished { usleep(10_000) }
    #expect(String(decoding: received, as: UTF8.self) == "through the pipe")
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pipe"])
  }

  @Test(
    "a character device is written into and stays a device (root only: mknod)",
    .enabled(if: geteuid() == 0, "creating a device node needs root"))
  func characterDevice() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("null")
    // The null device's numbers (1, 3), in a folder of our own: /dev/null itself is never at risk.
    try #require(mknod(path, S_IFCHR | 0o666, makedev(1, 3)) == 0)
    try FileIO.writeAtomically(Array("gone".utf8), to: path)
    try FileIO.writeIfChanged(Array("gone".utf8), to: path)
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["null"])
  }

  @Test("a folder at the output path is an error, not replaced")
  func folder() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file("out"), withIntermediateDirectories: true)
    #expect(throws: FileSystemError.self) {
      try FileIO.writeAtomically(Array("x".utf8), to: folder.file("out"))
    }
  }
}

private func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
  dev_t((major << 8) | minor)
}
