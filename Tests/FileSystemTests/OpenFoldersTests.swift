import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// The folders a walk keeps open for the locks `bump` takes next (`OpenFolders`), and the
/// resolver that checks a batch on every core (`RealFolders.files`).
@Suite("Open folders")
struct OpenFoldersTests {
  /// A tree with Info.plists at the root, in a folder, two folders down, in a folder the
  /// visitor skips, and in more sibling folders than the walk reads ahead, two of those
  /// with one more two folders below them (read ahead with them) and one with two in a
  /// folder below that the visitor skips; a folder with none.
  func tree() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    var files = ["Info.plist", "A/Info.plist", "B/notes.txt", "C/D/App-Info.plist"]
    files.append("Skipped.framework/Info.plist")
    files += [
      "Target1/Sources/Resources/Info.plist", "Target6/Sources/Resources/Info.plist",
      "Target2/Nested.framework/Info.plist", "Target2/Nested.framework/Resources/Info.plist",
    ]
    for index in 0..<(DirectoryWalker.readAheadThreshold + 8) {
      files.append(index % 5 == 0 ? "Ziel-ж\(index)/Info.plist" : "Target\(index)/Info.plist")
    }
    for file in files {
      try FileIO.createFolders(for: folder.file(file))
      try FileIO.writeAtomically(Array("x".utf8), to: folder.file(file))
    }
    return folder
  }

  /// Walks `folder` keeping the folders that hold an Info.plist open in `open`, by path.
  func walk(_ folder: TemporaryFolder, into open: OpenFolders) -> [String] {
    var seen: [String] = []
    let keeping = DirectoryWalker.KeptOpen(
      folders: open, holding: { $0.hasSuffix("Info.plist") }, name: { folder.file($0) })
    DirectoryWalker.walk(folder.path, notingCleanFolders: true, keepingOpen: keeping) { entry in
      seen.append(entry.relativePath)
      return entry.name.hasSuffix(".framework") ? .skip : .descend
    }
    return seen
  }

  /// The folders this process has a descriptor open on, by path.
  func openFolderPaths() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
    }
  }

  @Test("a walk keeps open each folder below its root holding a named file, and no other")
  func keepsFoldersHoldingFiles() throws {
    let folder = try tree()
    let kept = OpenFolders()
    let seen = walk(folder, into: kept)
    let targets = (0..<(DirectoryWalker.readAheadThreshold + 8)).map {
      $0 % 5 == 0 ? "Ziel-ж\($0)" : "Target\($0)"
    }
    #expect(kept.count == targets.count + 4)
    let below = ["Target1/Sources/Resources", "Target6/Sources/Resources"]
    for name in targets + ["A", "C/D"] + below {
      let taken = try #require(kept.take(folder.file(name)), "\(name)")
      var info = stat()
      #expect(stat(folder.file(name), &info) == 0)
      var held = stat()
      #expect(fstat(taken.descriptor, &held) == 0)
      #expect(held.st_ino == info.st_ino && taken.inode == UInt64(info.st_ino), "\(name)")
      #expect(taken.device == UInt64(info.st_dev))
      // Where the walk found it: its root, and the names below it.
      #expect(taken.root == folder.path && taken.relative == name, "\(name)")
      close(taken.descriptor)
    }
    // Not the root, nor a folder without one, nor one the visitor skipped (read ahead and
    // then closed: no descriptor of this process is left on it).
    let skippedFolders = [
      "Skipped.framework", "Target2/Nested.framework", "Target2/Nested.framework/Resources",
    ]
    for name in [".", "B", "C", "Target1/Sources"] + skippedFolders {
      #expect(kept.take(folder.file(name)) == nil, "\(name)")
    }
    #if os(Linux)
      for name in skippedFolders {
        let skipped = try #require(realpath(folder.file(name), nil))
        defer { free(skipped) }
        #expect(!(try openFolderPaths()).contains(String(cString: skipped)), "\(name)")
      }
    #endif
    // The visits are the plain walk's.
    var plain: [String] = []
    DirectoryWalker.walk(folder.path) { entry in
      plain.append(entry.relativePath)
      return entry.name.hasSuffix(".framework") ? .skip : .descend
    }
    #expect(seen == plain)
  }

  @Test("a folder is kept only when it is the one its parent listed: device and inode")
  func keptOnlyWhenConfirmed() throws {
    let folder = try tree()
    var info = stat()
    try #require(stat(folder.file("A"), &info) == 0)
    let identity = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    let holding: @Sendable (String) -> Bool = { $0 == "Info.plist" }
    let wrong: [(device: UInt64, inode: UInt64)?] = [
      nil, (identity.device, identity.inode + 1), (identity.device + 1, identity.inode),
    ]
    for expected in wrong {
      let listing = try #require(
        DirectoryWalker.readListing(
          folder.file("A"), notingClean: true, keep: holding, expected: expected))
      #expect(!listing.confirmed && listing.open == nil, "\(String(describing: expected))")
      #expect(listing.entries.map(\.name) == ["Info.plist"])
    }
    let listing = try #require(
      DirectoryWalker.readListing(
        folder.file("A"), notingClean: true, keep: holding, expected: identity))
    let open = try #require(listing.open)
    #expect(listing.confirmed && open.inode == identity.inode)
    close(open.descriptor)
    // The listing gives each entry's inode: the folder's own, for a folder below.
    let root = try #require(
      DirectoryWalker.readListing(folder.path, notingClean: true, expected: nil))
    #expect(root.entries.first { $0.name == "A" }?.inode == identity.inode)
  }

  @Test("a file is read through a confirmed folder, a link in it is not followed")
  func readsThroughConfirmedFolder() throws {
    let folder = try tree()
    let kept = OpenFolders()
    _ = walk(folder, into: kept)
    let locks = try FolderLocks(folders: [folder.file("A"), folder.file("B")], open: kept)
    defer { locks.release() }
    kept.closeAll()
    let confirmed = locks.confirmedFolders
    #expect(confirmed[folder.file("A")] != nil && confirmed[folder.file("B")] == nil)
    let read = try #require(try confirmed.read(folder.file("A/Info.plist")))
    #expect(read.bytes == Array("x".utf8))
    var info = stat()
    #expect(stat(folder.file("A"), &info) == 0)
    #expect(read.read.folderStatus.st_ino == info.st_ino)
    #expect(read.read.status.st_mode & S_IFMT == S_IFREG)
    // Not one of them: read by its path instead.
    #expect(try confirmed.read(folder.file("B/notes.txt")) == nil)
    // A link is never followed through the folder.
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("A/Linked.plist"), withDestinationPath: "Info.plist")
    #expect(try confirmed.read(folder.file("A/Linked.plist")) == nil)
    // The batch then replaces the file through the folder, whatever its path leads to now.
    var resolved = AbsolutePath.RealFolders()
    let noted = resolved.noteConfirmed(folder.file("A/Info.plist"), read.read)
    #expect(noted)
    try FileManager.default.moveItem(atPath: folder.file("A"), toPath: folder.file("A2"))
    try FileManager.default.createSymbolicLink(atPath: folder.file("A"), withDestinationPath: "B")
    try FileIO.writeAtomically(
      [
        FileWrite(
          path: folder.file("A/Info.plist"), bytes: Array("y".utf8),
          folder: read.read.folder.descriptor),
        FileWrite(path: folder.file("C/D/App-Info.plist"), bytes: Array("z".utf8)),
      ], folders: &resolved)
    #expect(try FileIO.read(folder.file("A2/Info.plist")) == Array("y".utf8))
    #expect(!FileManager.default.fileExists(atPath: folder.file("B/Info.plist")))
    #expect(try FileIO.read(folder.file("C/D/App-Info.plist")) == Array("z".utf8))
  }

  @Test("a lock takes the folder the walk kept open, and holds it against others")
  func lockUsesKeptFolder() throws {
    let folder = try tree()
    let kept = OpenFolders()
    _ = walk(folder, into: kept)
    let locked = folder.file("A")
    let before = kept.count
    let locks = try FolderLocks(folders: [locked, folder.file("B")], open: kept)
    #expect(kept.count == before - 1)
    #expect(kept.take(locked) == nil)
    // Another open file description of the folder cannot lock it while the lock is held.
    let other = open(locked, O_RDONLY | O_CLOEXEC)
    try #require(other >= 0)
    defer { close(other) }
    #expect(flock(other, LOCK_EX | LOCK_NB) != 0)
    locks.release()
    #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
    kept.closeAll()
    #expect(kept.count == 0)
  }

  @Test("no more folders are kept open than the limit, and the walk sees everything")
  func limitHolds() throws {
    let folder = try tree()
    // Room for too few of the folders read ahead together: none of them is kept (nor read
    // ahead below them), and those walked on their own (C/D, below a folder of four, and
    // the two Sources/Resources) are.
    let kept = OpenFolders(limit: 5)
    let seen = walk(folder, into: kept)
    #expect(kept.count == 3)
    for name in ["C/D", "Target1/Sources/Resources", "Target6/Sources/Resources"] {
      #expect(kept.take(folder.file(name)) != nil, "\(name)")
    }
    let found = seen.filter { $0.hasSuffix("Info.plist") }
    #expect(found.count == 3 + DirectoryWalker.readAheadThreshold + 8 + 2)
    kept.closeAll()
    #expect(OpenFolders.descriptorBudget >= 0)
    // Room for the folders read ahead and one below each: the same folders kept, the same
    // visits.
    let roomy = OpenFolders(limit: 2 * (DirectoryWalker.readAheadThreshold + 12) + 8)
    #expect(walk(folder, into: roomy) == seen)
    #expect(roomy.count == DirectoryWalker.readAheadThreshold + 8 + 4)
    for name in ["C/D", "Target1/Sources/Resources", "Target6/Sources/Resources"] {
      #expect(roomy.take(folder.file(name)) != nil, "\(name)")
    }
    roomy.closeAll()
  }

  @Test(
    "a folder noted through its walk's root is placed at the root's real path and the names below",
    arguments: ["link/", "tree/A/../", "link/A/..", ""])
  func notedThroughRoot(root: String) throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("A/B/Info.plist"))
    try FileIO.writeAtomically(Array("x".utf8), to: folder.file("A/B/Info.plist"))
    let names = try TemporaryFolder()
    #expect(symlink(folder.path, names.file("link")) == 0)
    #expect(symlink(folder.path, names.file("tree")) == 0)
    let descriptor = open(folder.file("A/B"), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var file = stat()
    var held = stat()
    try #require(fstatat(descriptor, "Info.plist", &file, 0) == 0 && fstat(descriptor, &held) == 0)
    // As the walk names it: its root, then the names below it ("": no root known, placed
    // from its parent's real path).
    let walkRoot = root.isEmpty ? "" : names.file(root)
    let path =
      root.isEmpty
      ? names.file("link/A/B/Info.plist")
      : (walkRoot.hasSuffix("/") ? walkRoot : walkRoot + "/") + "A/B/Info.plist"
    var real = AbsolutePath.RealFolders()
    let read = ConfirmedRead(
      folder: OpenFolders.Folder(
        descriptor: descriptor, device: UInt64(held.st_dev), inode: UInt64(held.st_ino),
        root: walkRoot, relative: root.isEmpty ? "" : "A/B"),
      status: file, folderStatus: held)
    let noted = real.noteConfirmed(path, read)
    #expect(noted)
    let resolved = try #require(realpath(folder.file("A/B"), nil))
    defer { free(resolved) }
    #expect(real.folderStatus(String(cString: resolved))?.st_ino == held.st_ino)
    #expect(real.fileStatus(path)?.st_ino == file.st_ino)
    let placed = real.folder(Paths.parent(path))
    #expect(placed == String(cString: resolved))
  }

  @Test("resolving a batch's files on every core gives what resolving each one gives")
  func parallelResolutionMatches() throws {
    let tree = try TemporaryFolder()
    let manager = FileManager.default
    var paths: [String] = []
    for index in 0..<(AbsolutePath.RealFolders.parallelThreshold * 2 + 3) {
      let name = index % 4 == 0 ? "Ünï\(index)" : "Target\(index)"
      try FileIO.createFolders(for: tree.file("\(name)/Info.plist"))
      try FileIO.writeAtomically(Array("x".utf8), to: tree.file("\(name)/Info.plist"))
      paths.append(tree.file("\(name)/Info.plist"))
    }
    try manager.createSymbolicLink(atPath: tree.file("Linked"), withDestinationPath: "Target1")
    try manager.createSymbolicLink(
      atPath: tree.file("Target2/Alias.plist"), withDestinationPath: "../Target3/Info.plist")
    paths += [
      tree.file("Linked/Info.plist"), tree.file("Target2/Alias.plist"),
      tree.file("Missing/Info.plist"), tree.file("Target5/Missing.plist"),
      tree.file("Target6/../Target7/Info.plist"),
    ]
    var each = AbsolutePath.RealFolders()
    let expected = paths.map { each.file($0) }
    var batch = AbsolutePath.RealFolders()
    let places = batch.files(paths)
    #expect(places == expected)
    #expect(expected.compactMap { $0 }.count == paths.count - 2)
    for path in paths {
      #expect(batch.fileStatus(path)?.st_ino == each.fileStatus(path)?.st_ino, "\(path)")
      let folder = Paths.parent(path)
      let (mine, theirs) = (batch.folder(folder), each.folder(folder))
      #expect(mine == theirs, "\(folder)")
    }
    // A folder's status is what `stat` reads of it.
    let resolved = batch.folder(tree.file("Target9"))
    let folder = try #require(resolved)
    var now = stat()
    #expect(stat(folder, &now) == 0)
    #expect(batch.folderStatus(folder)?.st_ino == now.st_ino)
    #expect(batch.folderStatus(tree.file("Linked")) == nil)
  }
}
