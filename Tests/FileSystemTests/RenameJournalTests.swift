import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// The journal a batch writes, byte for byte what ``RenameJournal/encode(_:folder:transaction:)``
/// makes of the same renames, relative to the folder that holds them all: the body is written
/// from the paths' bytes in place, and recovery reads it as `encode` has it.
struct RenameJournalTests {
  @Test("the journal holds what encode makes of its renames, relative to their common folder")
  func bytesAreEncoded() throws {
    let folder = try TemporaryFolder()
    let root = try #require(FileIO.realPath(folder.path))
    let transaction = "yyyyyyz2k"
    // Targets below the common folder at several depths, in it, in any language; a temporary
    // file beside each target, and one elsewhere (as a staging folder's are).
    let targets = [
      "App/Info.plist", "Widget/Sources/Resources/Info.plist", "Top.plist",
      "Приложение/アプリ/Info.plist", "e\u{301}/Info.plist",
    ]
    var renames: [RenameJournal.Rename] = []
    for (index, target) in targets.enumerated() {
      try FileIO.createFolders(for: folder.file(target))
      try Data("old".utf8).write(to: URL(fileURLWithPath: folder.file(target)))
      let temporary = Paths.join(
        Paths.parent(folder.file(target)),
        ".\(Paths.lastComponent(target))~bundlekit-\(transaction).\(index)")
      renames.append(RenameJournal.Rename(source: temporary, target: folder.file(target)))
    }
    try FileIO.createFolders(for: folder.file("Staging/x"))
    renames.append(
      RenameJournal.Rename(
        source: folder.file("Staging/.moved~bundlekit-\(transaction).9"),
        target: folder.file("App/Moved.plist"), state: "1:2:3.4:5"))
    var real = AbsolutePath.RealFolders()
    let journal = try RenameJournal(
      transaction: transaction, renames: renames, folders: &real, flush: false)
    defer { journal.finish() }
    #expect(journal.folder == root)
    let written = try Data(
      contentsOf: URL(
        fileURLWithPath: Paths.join(
          root, ScratchFiles.journalName(transaction, committed: false))))
    let expected = RenameJournal.encode(
      renames.map { rename in
        let relative = { (path: String) in String(path.dropFirst(folder.path.count + 1)) }
        return (
          source: relative(rename.source), target: relative(rename.target),
          state: rename.state.isEmpty
            ? RenameJournal.FileState.of(rename.target) : rename.state
        )
      }, folder: root, transaction: transaction)
    #expect(Array(written) == expected)
  }

  @Test("a file's state is its device, inode, time and size as decimal text, signs kept")
  func stateText() {
    let cases: [(UInt64, UInt64, Int, Int, Int64)] = [
      (0, 0, 0, 0, 0), (2_049, 123_456, 1_796_691_040, 497_535_123, 542),
      (.max, .max, .max, 999_999_999, .max), (7, 8, -1, 5, 9), (1, 2, .min, 0, 3),
      (10, 100, 1_000, 10_000, 100_000),
    ]
    for (device, inode, seconds, nanoseconds, size) in cases {
      var info = stat()
      info.st_dev = numericCast(device)
      info.st_ino = numericCast(inode)
      info.st_size = numericCast(size)
      #if canImport(Darwin)
        info.st_mtimespec = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
      #else
        info.st_mtim = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
      #endif
      #expect(
        RenameJournal.FileState.text(info)
          == "\(info.st_dev):\(info.st_ino):\(seconds).\(nanoseconds):\(info.st_size)")
    }
  }
}
