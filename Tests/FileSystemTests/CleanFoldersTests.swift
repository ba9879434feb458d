import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// A walk remembers the folders it found with no scratch entry (`CleanFolders`), so that the
/// recovery a batch write runs under its locks reads again only the folders that changed
/// since. These check that a change after the walk (a run killed between the walk and the
/// locks) is never missed, and that the record is used where it may be.
@Suite("Clean folders")
struct CleanFoldersTests {
  /// Whether the system's temporary folder is on a file system whose times `CleanFolders`
  /// trusts (Linux: ext4, tmpfs, XFS, Btrfs); elsewhere nothing is recorded, by design.
  static let recordsHere: Bool = {
    #if os(Linux)
      let descriptor = open(FileManager.default.temporaryDirectory.path, O_RDONLY)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      return SystemCalls.fileSystemType(of: descriptor).map(CleanFolders.localFileSystems.contains)
        ?? false
    #else
      return false
    #endif
  }()

  /// A tree with `a/Info.plist` and `b/Info.plist`, left alone long enough for its folders'
  /// change times to be older than a walk by more than `CleanFolders` asks.
  func settledTree() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for name in ["a", "b"] {
      let target = folder.file("\(name)/Info.plist")
      try FileIO.createFolders(for: target)
      try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    }
    usleep(useconds_t(CleanFolders.settledNanoseconds / 1_000) * 3)
    return folder
  }

  func walk(_ folder: TemporaryFolder) {
    DirectoryWalker.walk(folder.path, notingCleanFolders: true) { _ in .descend }
  }

  @Test(
    "a folder walked clean reads as clean until an entry is made in it",
    .enabled(if: recordsHere, "the temporary folder's file system keeps no trusted times"))
  func cleanUntilChanged() throws {
    let folder = try settledTree()
    walk(folder)
    #expect(CleanFolders.isClean(folder.file("a")))
    #expect(CleanFolders.isClean(folder.file("b")))
    #expect(CleanFolders.isClean(folder.path))
    // What a run killed after the walk leaves: a temporary file beside the target.
    let temporary = ScratchFiles.temporaryName(
      for: "Info.plist", transaction: CrashRecoveryTests.dead, index: 0)
    try Data("new".utf8).write(to: URL(fileURLWithPath: folder.file("a/\(temporary)")))
    #expect(!CleanFolders.isClean(folder.file("a")))
    #expect(CleanFolders.isClean(folder.file("b")))
    // Removing an entry moves the time too (and a file edited in place does not matter).
    try FileManager.default.removeItem(atPath: folder.file("b/Info.plist"))
    #expect(!CleanFolders.isClean(folder.file("b")))
  }

  @Test("a folder holding scratch is not recorded, nor one missing")
  func scratchNotRecorded() throws {
    let folder = try settledTree()
    let journal = ".bundlekit-\(CrashRecoveryTests.dead).journal"
    try Data().write(to: URL(fileURLWithPath: folder.file("a/\(journal)")))
    usleep(useconds_t(CleanFolders.settledNanoseconds / 1_000) * 3)
    walk(folder)
    #expect(!CleanFolders.isClean(folder.file("a")))
    #expect(!CleanFolders.isClean(folder.file("missing")))
  }

  // Linux only: `st_ctim` (the times are recorded nowhere else).
  #if os(Linux)
    @Test(
      "a folder changed less than the settling time before its listing is not recorded",
      .enabled(if: recordsHere, "the temporary folder's file system keeps no trusted times"))
    func changedTooRecently() throws {
      let folder = try TemporaryFolder()
      let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
      defer { close(descriptor) }
      var info = stat()
      try #require(fstat(descriptor, &info) == 0)
      // Listed as if 10 ms after its last change: too close to tell; then a second after.
      var listed = info.st_ctim
      listed.tv_nsec += 10_000_000
      CleanFolders.noteClean(descriptor, info: info, listedAfter: listed)
      #expect(!CleanFolders.isClean(folder.path))
      listed.tv_sec += 1
      CleanFolders.noteClean(descriptor, info: info, listedAfter: listed)
      #expect(CleanFolders.isClean(folder.path))
    }
  #endif

  @Test("a batch killed between a walk and a write is finished before the write")
  func killedAfterTheWalk() throws {
    let folder = try settledTree()
    RecoveryScope.permit(under: [folder.path])
    walk(folder)
    // Killed after its commit, before its rename: its temporary file and journal in a/.
    let temporary = ScratchFiles.temporaryName(
      for: "Info.plist", transaction: CrashRecoveryTests.dead, index: 0)
    try Data("killed run".utf8).write(to: URL(fileURLWithPath: folder.file("a/\(temporary)")))
    let journal = CrashRecoveryTests.journal(
      [(temporary, "Info.plist")], folder: folder.file("a"))
    try Data(journal).write(
      to: URL(fileURLWithPath: folder.file("a/.bundlekit-\(CrashRecoveryTests.dead).committed")))
    try FileIO.writeAtomically([
      FileWrite(path: folder.file("a/Info.plist"), bytes: Array("this run".utf8)),
      FileWrite(path: folder.file("b/Info.plist"), bytes: Array("this run".utf8)),
    ])
    let real = try #require(FileIO.realPath(folder.path))
    // The killed batch landed first, then this one over it: nothing left behind.
    #expect(RecoveryScope.outcomes.contains(.replaced(real + "/a/Info.plist")))
    #expect(
      try String(contentsOfFile: folder.file("a/Info.plist"), encoding: .utf8) == "this run")
    let left = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
      ($0 as NSString).lastPathComponent.hasPrefix(".")
    }
    #expect(left.isEmpty)
  }
}
