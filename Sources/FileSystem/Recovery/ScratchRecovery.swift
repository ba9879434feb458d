#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finishes what a killed run left: a journal is rolled forward (committed) or back (not
/// yet), an abandoned temporary file or staging folder is removed. Scratch files of a run
/// that is still going are left alone: its journal, or the temporary itself, is locked
/// (`flock`) while it lives, and the lock dies with the process.
///
/// Directory walkers call this for every scratch name they meet, so whatever BundleKit
/// command next reads the tree (bump, version, lint, archive ...) sees every batch whole and
/// no temporary file, and a writer calls it for its target's folder before it writes.
public enum ScratchRecovery {
  /// Deals with the scratch entry `name` in `folder`. Returns whether the folder changed in
  /// a way a listing taken before does not show (a journal rolled forward).
  @discardableResult
  public static func recover(_ name: String, in folder: String) -> Bool {
    switch ScratchFiles.kind(of: name) {
    case .journal(let transaction, _)?:
      return finishJournal(in: folder, transaction: transaction)
    case .temporary(let transaction)?:
      return removeIfAbandoned(Paths.join(folder, name), transaction: transaction)
    case nil:
      return false
    }
  }

  /// Finishes the journals in the folder of each path (the path itself when it is a folder)
  /// and in every folder above: a batch may have spanned more than the part of the tree a
  /// later run is given. Each folder is read once.
  public static func recoverAbove(_ paths: [String]) {
    var visited: Set<String> = []
    for path in paths {
      var info = stat()
      let isFolder = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
      guard var folder = AbsolutePath.realFolder(isFolder ? path : Paths.parent(path)) else {
        continue
      }
      while visited.insert(folder).inserted {
        recover(in: folder)
        if folder == "/" { break }
        folder = Paths.parent(folder)
      }
    }
  }

  /// Finishes the journals in `folder` and removes the scratch entries of earlier, dead runs
  /// there whose names start like `name` (what a killed write of `name` leaves).
  public static func recover(in folder: String, beside name: String = "") {
    let prefix = "." + name.prefix(8)
    guard let listing = DirectoryWalker.rawNames(in: folder) else { return }
    for entry in listing
    where entry.hasPrefix(ScratchFiles.journalPrefix) || (!name.isEmpty && entry.hasPrefix(prefix))
    {
      recover(entry, in: folder)
    }
  }

  /// Rolls `transaction`'s journal in `folder` forward or back, waiting for its writer when
  /// it is still running. Returns whether renames were done.
  @discardableResult
  static func finishJournal(in folder: String, transaction: String) -> Bool {
    let committedPath = Paths.join(folder, ScratchFiles.journalName(transaction, committed: true))
    let preparedPath = Paths.join(folder, ScratchFiles.journalName(transaction, committed: false))
    // The writer renames the journal when it commits: a few tries find it under one name.
    for _ in 0..<8 {
      var descriptor = open(committedPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
      if descriptor < 0 { descriptor = open(preparedPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
      guard descriptor >= 0 else {
        if errno == ENOENT, !exists(committedPath), !exists(preparedPath) { return false }
        if errno != ENOENT { return false }
        continue
      }
      defer { close(descriptor) }
      while flock(descriptor, LOCK_EX) != 0 {
        if errno != EINTR { return false }
      }
      var info = stat()
      guard fstat(descriptor, &info) == 0 else { return false }
      // Its writer (or another recovery) finished while we waited.
      if info.st_nlink == 0 { return false }
      var named = stat()
      let committed =
        stat(committedPath, &named) == 0 && named.st_ino == info.st_ino
        && named.st_dev == info.st_dev
      guard let bytes = try? FileIO.readAll(descriptor, path: committedPath),
        let renames = RenameJournal.renames(in: bytes, folder: folder, transaction: transaction)
      else {
        // A journal not yet committed whose writer died while writing it (empty or cut
        // short): no temporary file was created before it was complete, so it goes. A
        // committed one that does not read is not BundleKit's: left alone.
        if !committed { unlink(preparedPath) }
        return false
      }
      var renamed = false
      if committed {
        for item in renames where exists(item.source) {
          if rename(item.source, item.target) == 0 { renamed = true }
        }
      }
      // What is left of the transaction's scratch files: temporaries of a rolled-back batch,
      // emptied staging folders.
      var roots: Set<String> = []
      for item in renames {
        let relative = AbsolutePath.relative(item.source, to: folder)
        if let root = RenameJournal.scratchRoot(of: relative, transaction: transaction) {
          roots.insert(Paths.join(folder, root))
        }
      }
      for root in roots.sorted() { removeTree(root) }
      FileIO.syncFolder(folder, wholeFileSystem: true)
      unlink(committed ? committedPath : preparedPath)
      return renamed
    }
    return false
  }

  /// Removes a temporary file or staging folder whose run is over: a journal of its
  /// transaction above it decides for the whole batch; otherwise it goes when no live
  /// process holds its lock.
  @discardableResult
  static func removeIfAbandoned(_ path: String, transaction: String) -> Bool {
    if let real = AbsolutePath.realFolder(Paths.parent(path)) {
      var folder = real
      while true {
        for committed in [true, false] {
          let journal = Paths.join(
            folder, ScratchFiles.journalName(transaction, committed: committed))
          if exists(journal) { return finishJournal(in: folder, transaction: transaction) }
        }
        if folder == "/" { break }
        folder = Paths.parent(folder)
      }
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    // A live writer holds the lock: leave its file alone.
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_nlink > 0 else { return false }
    removeTree(path)
    return false
  }

  /// Removes a file, or a folder and everything in it; links are removed, not followed.
  /// Works on the names' bytes, so a name that is not UTF-8 goes too.
  static func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      unlink(path)
      return
    }
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    if descriptor >= 0 {
      removeContents(of: descriptor)
      close(descriptor)
    }
    rmdir(path)
  }

  private static func removeContents(of folder: Int32) {
    let copy = dup(folder)
    guard copy >= 0, let directory = fdopendir(copy) else { return }
    var names: [[CChar]] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) })
      }
      if name != [46] && name != [46, 46] { names.append(name + [0]) }
    }
    closedir(directory)
    for name in names {
      var info = stat()
      guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      if info.st_mode & S_IFMT == S_IFDIR {
        let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if child >= 0 {
          removeContents(of: child)
          close(child)
        }
        unlinkat(folder, name, AT_REMOVEDIR)
      } else {
        unlinkat(folder, name, 0)
      }
    }
  }

  private static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }
}
