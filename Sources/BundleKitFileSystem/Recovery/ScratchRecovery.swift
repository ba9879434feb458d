#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finishes what a killed run left: a journal is rolled forward (committed) or back (not
/// yet), an abandoned temporary file or staging folder is removed. Scratch files of a run
/// that is still going are left alone: its transaction names its process, and its journal or
/// temporary is locked (`flock`) while it lives.
///
/// A checkout is input from strangers, so recovery trusts nothing it finds: it acts only in
/// folders this run writes (``RecoveryScope``), never above them; only on journals that are
/// regular files of this user, not writable by others, carrying a MAC under the user's
/// ``JournalKey`` bound to their folder; it reaches every path of a journal below the
/// journal's folder one component at a time without following links; and it waits for a
/// live writer's lock a bounded time only.
package enum ScratchRecovery {
  /// How long recovery waits for a live run's journal before leaving it.
  static let lockWait: Double = 20

  /// Deals with the scratch entry `name` in `folder`. Returns whether the folder changed in
  /// a way a listing taken before does not show (a journal rolled forward).
  @discardableResult
  package static func recover(_ name: String, in folder: String) -> Bool {
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
  /// that this run may write (``RecoveryScope``); nothing above. Walks below finish the rest.
  package static func recover(atRoots paths: [String]) {
    var visited: Set<String> = []
    for path in paths {
      var info = stat()
      let isFolder = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
      let folder = isFolder ? path : Paths.parent(path)
      guard visited.insert(folder).inserted else { continue }
      if RecoveryScope.permits(folder) {
        recover(in: folder)
      } else {
        notePendingJournals(in: folder)
      }
    }
  }

  /// Finishes the journals in `folder` and removes the scratch entries of earlier, dead runs
  /// there whose names start like `name` (what a killed write of `name` leaves). Writers call
  /// it for the folder they write into.
  package static func recover(in folder: String, beside name: String = "") {
    let prefix = "." + name.prefix(8)
    // Every scratch name starts with a period: only those names are made strings.
    guard let listing = DirectoryWalker.hiddenNames(in: folder) else { return }
    for entry in listing
    where entry.hasPrefix(ScratchFiles.journalPrefix) || (!name.isEmpty && entry.hasPrefix(prefix))
    {
      recover(entry, in: folder)
    }
  }

  /// Permits recovery below each of `roots` and finishes everything killed runs left there,
  /// walking the whole tree: what `bundlekit recover` does, and what a command that plans
  /// its writes from many files of a tree does first, so it plans from finished files.
  package static func recoverTree(_ roots: [String]) {
    RecoveryScope.permit(under: roots)
    recover(atRoots: roots)
    for root in roots {
      DirectoryWalker.walk(root) { entry in
        SkippedFolders.skips(entry.name) ? .skip : .descend
      }
    }
  }

  /// Finishes the journals in every folder above each of `paths` (files this run is about
  /// to write) that this run may recover (``RecoveryScope``): a killed batch's committed
  /// journal over one of them sits in the deepest folder holding that batch, which may be
  /// any of them. Finished first, the killed batch lands before this write, never after it.
  static func recover(above paths: [String], folders real: inout AbsolutePath.RealFolders) {
    var seen: Set<String> = []
    var folders: [String] = []
    seen.reserveCapacity(paths.count)
    folders.reserveCapacity(paths.count)
    let roots = RecoveryScope.roots
    for path in paths {
      guard var folder = real.folder(Paths.parent(path)) else { continue }
      while seen.insert(folder).inserted, RecoveryScope.permits(real: folder, in: roots) {
        folders.append(folder)
        if folder == "/" { break }
        folder = Paths.parent(folder)
      }
    }
    // Reading the folders is nearly all of it (a batch of 1,000 files in 1,000 folders):
    // they are read on every core, and the few holding scratch entries are then recovered
    // one by one, deepest first as found. Recovering one changes only it and the folders
    // below it, so the other readings stay true.
    // A folder a walk of this run found clean and that has not changed since (by its change
    // time, CleanFolders) is not read again: one `stat` instead of five calls, none where
    // resolving the batch's folders just read it (under the same locks).
    // Those known clean that way are left out before any thread starts.
    let listed = folders.compactMap { folder -> (folder: String, known: stat?)? in
      let known = real.folderStatus(folder)
      return known.map(CleanFolders.isClean) == true ? nil : (folder, known)
    }
    let holdsScratch = WorkerThreads.map(listed.count) { index in
      let (folder, known) = listed[index]
      return (known != nil || !CleanFolders.isClean(folder)) && DirectoryWalker.holdsScratch(folder)
    }
    for (entry, scratch) in zip(listed, holdsScratch) where scratch {
      recover(in: entry.folder)
    }
  }

  /// Records `folder` as pending when it holds a journal.
  static func notePendingJournals(in folder: String) {
    guard let listing = DirectoryWalker.hiddenNames(in: folder) else { return }
    if listing.contains(where: {
      if case .journal? = ScratchFiles.kind(of: $0) { return true }
      return false
    }) {
      RecoveryScope.notePending(folder)
    }
  }

  /// Rolls `transaction`'s journal in `folder` forward or back, waiting a bounded time for
  /// its writer when it is still running. Returns whether renames were done.
  @discardableResult
  static func finishJournal(in folder: String, transaction: String) -> Bool {
    let committedName = ScratchFiles.journalName(transaction, committed: true)
    let preparedName = ScratchFiles.journalName(transaction, committed: false)
    // This process's own batch is live: never recovered from under it.
    if ScratchFiles.isOwn(transaction) { return false }
    guard let real = FileIO.realPath(folder), let base = BeneathFolder(real) else { return false }
    defer { base.release() }
    // The writer renames the journal when it commits: a few tries find it under one name.
    for _ in 0..<8 {
      var descriptor = openat(
        base.descriptor, committedName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      if descriptor < 0 {
        descriptor = openat(
          base.descriptor, preparedName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      }
      guard descriptor >= 0 else {
        if errno != ENOENT { return false }
        if !base.exists(committedName), !base.exists(preparedName) { return false }
        continue
      }
      defer { close(descriptor) }
      var info = stat()
      // Only a regular file of this user that no one else may write can be one of its
      // journals; anything else is left where it is, untouched.
      guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
        info.st_uid == geteuid(), info.st_mode & 0o022 == 0,
        info.st_size <= RenameJournal.maximumSize
      else {
        RecoveryScope.notePending(folder)
        return false
      }
      guard lock(descriptor, transaction: transaction) else {
        RecoveryScope.notePending(folder)
        return false
      }
      guard fstat(descriptor, &info) == 0 else { return false }
      // Its writer (or another recovery) finished while we waited.
      if info.st_nlink == 0 { return false }
      // A live writer that does not hold its lock has just created the journal and is about
      // to take it.
      if ScratchFiles.writerIsAlive(transaction) { return false }
      var named = stat()
      let committed =
        fstatat(base.descriptor, committedName, &named, AT_SYMLINK_NOFOLLOW) == 0
        && named.st_ino == info.st_ino && named.st_dev == info.st_dev
      guard let bytes = try? FileIO.readAll(descriptor, path: Paths.join(folder, committedName)),
        let renames = RenameJournal.renames(in: bytes, folder: real, transaction: transaction)
      else {
        // A journal not yet committed whose writer died while writing it (empty or cut
        // short): no rename can have been made, and no temporary written before it was
        // complete, so it goes. A committed one that does not verify is not this user's
        // run's: left alone, and reported.
        if !committed {
          unlinkat(base.descriptor, preparedName, 0)
        } else {
          RecoveryScope.notePending(folder)
        }
        return false
      }
      var renamed = false
      if committed {
        for item in renames where base.exists(item.source) {
          let target = Paths.join(real, item.target)
          // Only over the file the batch began from: one written since (a later run's
          // edit) is newer than this batch, which must not revert it.
          guard base.state(of: item.target) == item.state else {
            RecoveryScope.note(.kept(target))
            continue
          }
          if base.rename(item.source, item.target) {
            renamed = true
            RecoveryScope.note(.replaced(target))
          }
        }
      }
      // What is left of the transaction's scratch files: temporaries of a rolled-back batch,
      // emptied staging folders.
      var roots: Set<String> = []
      for item in renames {
        if let root = RenameJournal.scratchRoot(of: item.source, transaction: transaction) {
          roots.insert(root)
        }
      }
      for root in roots.sorted() { base.removeTree(root) }
      FileIO.syncFolder(real, wholeFileSystem: true)
      unlinkat(base.descriptor, committed ? committedName : preparedName, 0)
      return renamed
    }
    return false
  }

  /// Takes the journal's lock: at once when its writer is dead, else waiting for it a
  /// bounded time (``lockWait``). False when the writer still holds it.
  private static func lock(_ descriptor: Int32, transaction: String) -> Bool {
    var waited = 0.0
    var pause = 0.001
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK, waited < lockWait else { return false }
      usleep(useconds_t(pause * 1_000_000))
      waited += pause
      pause = min(pause * 2, 0.1)
    }
    return true
  }

  /// Removes a temporary file or staging folder whose run is over. A journal of its
  /// transaction in an enclosing folder decides for the whole batch: finished when this run
  /// may recover there, else left alone. Without a journal it goes when its process is gone
  /// and no one holds its lock.
  @discardableResult
  static func removeIfAbandoned(_ path: String, transaction: String) -> Bool {
    if ScratchFiles.writerIsAlive(transaction) { return false }
    if let real = FileIO.realPath(Paths.parent(path)) {
      var folder = real
      while true {
        for committed in [true, false] {
          let journal = Paths.join(
            folder, ScratchFiles.journalName(transaction, committed: committed))
          var info = stat()
          if lstat(journal, &info) == 0 {
            if folder == real || RecoveryScope.permits(folder) {
              return finishJournal(in: folder, transaction: transaction)
            }
            RecoveryScope.notePending(folder)
            return false
          }
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

  /// Removes the entry `name` of the open folder `folder`: a file or link, or a folder with
  /// everything in it; links are removed, not followed.
  static func removeEntry(_ name: String, in folder: Int32) {
    var info = stat()
    guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      unlinkat(folder, name, 0)
      return
    }
    let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    if child >= 0 {
      removeContents(of: child)
      close(child)
    }
    unlinkat(folder, name, AT_REMOVEDIR)
  }

  private static func removeContents(of folder: Int32) {
    var names: [[CChar]] = []
    _ = FolderEntries.forEach(in: folder) { raw, _ in
      let name = raw.map { CChar(bitPattern: $0) }
      if name != [46] && name != [46, 46] { names.append(name + [0]) }
    }
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
