#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file of a batch: where, and what to write there.
public struct FileWrite: Sendable, Hashable {
  /// The file to replace or create; a link is followed, as a single write follows it.
  public var path: String
  /// Its new contents.
  public var bytes: [UInt8]
  /// The folder the write must stay in, links followed: a file of a checkout that is a link
  /// (or sits in a linked folder) leading out of it is refused, not written through. Nil
  /// for a file the user named, which is written wherever its link leads.
  public var confinedTo: String?
  /// The open folder holding the file (``ConfirmedFolders``), when it is written through it:
  /// its temporary file is made and renamed over the file's name in that folder (`openat`,
  /// `renameat`), no path followed. The caller knows the file is not a link, and has put its
  /// status in the batch's resolved folders (`RealFolders.noteConfirmed`).
  package var folder: Int32?

  /// A write of `bytes` to `path`, confined to the folder `confinedTo` when given.
  public init(path: String, bytes: [UInt8], confinedTo: String? = nil) {
    self.path = path
    self.bytes = bytes
    self.confinedTo = confinedTo
  }

  /// A write of `bytes` to `path` through the open folder `folder` that holds it.
  package init(path: String, bytes: [UInt8], folder: Int32?) {
    self.init(path: path, bytes: bytes)
    self.folder = folder
  }

  /// Throws when the file, its links followed, lies outside ``confinedTo``.
  func checkConfinement(_ folders: inout AbsolutePath.RealFolders) throws(FileSystemError) {
    guard let confinedTo else { return }
    guard let root = folders.folder(confinedTo) else {
      throw .io(path: confinedTo, message: "no such folder")
    }
    // The folder the file goes in, links followed, then the file itself when it is a link.
    let folder = folders.folder(Paths.parent(path))
    var place = folder.map { Paths.join($0, Paths.lastComponent(path)) }
    if FileIO.linkDestination(path) != nil {
      place = FileIO.realPath(path)
    }
    guard let place, place.hasPrefix(root == "/" ? "/" : root + "/") else {
      throw .io(
        path: path,
        message:
          "is a link, or in a linked folder, that leads out of \(confinedTo): not written through")
    }
  }
}

extension FileIO {
  /// Writes several files atomically as one batch: all of them or none, even when the
  /// process is killed half-way. A journal listing the batch is written first; every
  /// temporary file is written, all are flushed to disk together (one `syncfs` on Linux
  /// instead of an fsync per file), the journal is committed, then each file is renamed into
  /// place. A run killed before the commit is rolled back, one killed after it rolled
  /// forward, by the next BundleKit run that meets the journal (`ScratchRecovery`).
  public static func writeAtomically(_ files: [FileWrite]) throws(FileSystemError) {
    var folders = AbsolutePath.RealFolders()
    try writeAtomically(files, folders: &folders)
  }

  /// Writes several files atomically as one batch, as the public `writeAtomically` does,
  /// with the folders the caller resolved already: every folder of the batch is resolved
  /// once, for all the checks.
  package static func writeAtomically(
    _ files: [FileWrite], folders: inout AbsolutePath.RealFolders
  ) throws(FileSystemError) {
    for file in files { try file.checkConfinement(&folders) }
    ScratchRecovery.recover(above: files.map(\.path), folders: &folders)
    if files.count == 1, let file = files.first {
      try writeAtomically(file.bytes, to: file.path)
      return
    }
    if files.isEmpty { return }
    let transaction = ScratchFiles.newTransaction()
    let targets = try files.indices.map { index throws(FileSystemError) in
      try BatchTarget(
        files[index].path, transaction: transaction, index: index,
        known: folders.fileStatus(files[index].path), folder: files[index].folder)
    }
    var seen: [String: String] = [:]
    seen.reserveCapacity(targets.count)
    for target in targets {
      if let other = seen[target.target], other != target.path {
        throw .io(path: target.path, message: "is the same file as \(other) in one batch")
      }
      seen[target.target] = target.path
    }
    let folder = AbsolutePath.commonFolder(
      targets.map { AbsolutePath.make($0.target, from: folders.current) })
    ScratchRecovery.recover(in: folder)
    var journal = try RenameJournal(
      transaction: transaction,
      renames: targets.map {
        RenameJournal.Rename(
          source: $0.temporary, target: $0.target,
          state: $0.existing.map(RenameJournal.FileState.text) ?? RenameJournal.FileState.absent)
      }, folders: &folders, flush: !canSyncFileSystem)
    let staged: [StagedFile]
    do throws(FileSystemError) {
      staged = try stageAll(files, targets)
      // The journal too, before its commit: it was written unflushed. A flush that fails (a
      // write-back error) decides nothing: the batch is rolled back.
      guard syncFileSystems(staged, journal: journal) else {
        throw FileSystemError.io(
          path: journal.folder, message: systemError("cannot flush the batch to disk"))
      }
      try journal.commit()
    } catch {
      for target in targets { target.removeTemporary() }
      journal.finish()
      throw error
    }
    let failure = renameAll(staged, inMemory: journal.isInMemory)
    syncFileSystems(staged)
    journal.finish()
    if let failure { throw failure }
  }

  /// Threads that write a large batch's temporary files: creating a file is mostly the
  /// kernel finding a free inode, work for a core, so one thread per core (at least two,
  /// at most four).
  static let stagingWorkers = min(max(WorkerThreads.cores, 2), 4)

  /// Threads that rename a large batch into place. Replacing a file frees the old one, and
  /// some file systems (ext4 without a journal, mounted with `discard`) wait there for the
  /// device to discard its blocks: the waits of several threads overlap. Sixteen, not eight:
  /// on this VM's root file system (ext4, no journal, `discard`) the renames of 1,000 files
  /// took 19 ms instead of 24 (24 threads: 17 ms). In memory (tmpfs) nothing waits, and
  /// starting threads is all the extra ones add: one per core there (1,000 renames with
  /// threads started on every core: 16 threads 4.2 ms, 2 threads 3.4-3.5 ms).
  static func renameWorkers(inMemory: Bool) -> Int { inMemory ? WorkerThreads.cores : 16 }

  /// Renames every staged file over its target. The journal is committed, so every rename
  /// is tried; one that fails (an I/O error, a file system gone read-only) has its temporary
  /// file removed and the first such failure (in `staged` order) is returned.
  private static func renameAll(_ staged: [StagedFile], inMemory: Bool) -> FileSystemError? {
    let outcomes = Slots<Int32>(count: staged.count)
    let workers = staged.count >= 64 ? renameWorkers(inMemory: inMemory) : 1
    WorkerThreads.run(workers) { worker in
      for index in stride(from: worker, to: staged.count, by: workers) {
        let code = staged[index].file.replaceTarget() == 0 ? 0 : errno
        outcomes.set(index, code)
      }
    }
    let failed = staged.indices.filter { (outcomes[$0] ?? 0) != 0 }
    guard let first = failed.first else { return nil }
    for index in failed { staged[index].file.removeTemporary() }
    errno = outcomes[first] ?? 0
    return .io(
      path: staged[first].file.path,
      message: systemError(
        "cannot replace the file (\(staged.count - failed.count) of the batch's \(staged.count) files were written)"
      ))
  }

  /// Writes every temporary file, or none: on any failure the ones written are removed and
  /// the first failure (in `files` order) is thrown. Large batches are written by several
  /// threads taking alternate files.
  private static func stageAll(
    _ files: [FileWrite], _ targets: [BatchTarget]
  ) throws(FileSystemError) -> [StagedFile] {
    let flush = !canSyncFileSystem
    let results = WorkerThreads.map(files.count, workers: stagingWorkers) {
      index in
      Result { () throws(FileSystemError) in
        try stage(files[index].bytes, for: targets[index], flush: flush)
      }
    }
    var staged: [StagedFile] = []
    var failure: FileSystemError?
    for result in results {
      switch result {
      case .success(let item): staged.append(item)
      case .failure(let error): failure = failure ?? error
      }
    }
    if let failure {
      for item in staged { item.file.removeTemporary() }
      throw failure
    }
    return staged
  }

  /// A file of a batch: where it goes (symbolic links followed), what it is now, and the
  /// name of its temporary file.
  struct BatchTarget {
    var path: String
    var target: String
    var existing: stat?
    var temporary: String
    /// The open folder it is written through (`AT_FDCWD`: by its path), and in it the
    /// target's name and the temporary file's.
    var folder: Int32 = AT_FDCWD
    var targetName = ""
    var temporaryName = ""

    /// The target of `path`, whose `lstat` the caller may have read already (`known`: a file
    /// that is not a link). With `folder`, the file is written through that open folder.
    init(_ path: String, transaction: String, index: Int, known: stat? = nil, folder: Int32? = nil)
      throws(FileSystemError)
    {
      self.path = path
      var info = known ?? stat()
      var exists: Bool
      if let folder {
        // Never followed: a link found here (made since the file was read) is refused.
        let name = Paths.lastComponent(path)
        exists = known != nil || fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0
        if exists, (info.st_mode & S_IFMT) == S_IFLNK {
          throw .io(path: path, message: "became a symbolic link during the bump: not replaced")
        }
        self.folder = folder
        targetName = name
      } else {
        exists = known != nil || lstat(path, &info) == 0
      }
      target = path
      if exists, (info.st_mode & S_IFMT) == S_IFLNK {
        target = resolvedPath(path)
        exists = stat(target, &info) == 0
      }
      if exists {
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .io(path: path, message: "cannot replace the file: it is a folder")
        default:
          throw .io(
            path: path, message: "is not a regular file (a device, FIFO or socket): not replaced")
        }
      }
      existing = exists ? info : nil
      let (parent, name) = split(target)
      temporaryName = ScratchFiles.temporaryName(for: name, transaction: transaction, index: index)
      temporary = Paths.join(parent, temporaryName)
    }

    /// Renames the temporary file over the target; 0, or -1 with `errno` set.
    func replaceTarget() -> Int32 {
      folder == AT_FDCWD
        ? rename(temporary, target) : renameat(folder, temporaryName, folder, targetName)
    }

    /// Removes the temporary file, if made.
    func removeTemporary() {
      if folder == AT_FDCWD {
        unlink(temporary)
      } else {
        unlinkat(folder, temporaryName, 0)
      }
    }
  }

  /// A file of a batch whose temporary file is written, waiting to be renamed over its
  /// target.
  struct StagedFile {
    var file: BatchTarget
    /// The file system it is on.
    var device: UInt64
  }

  #if os(Linux)
    private static let canSyncFileSystem = true
  #else
    private static let canSyncFileSystem = false
  #endif

  /// Flushes the file systems of the staged files, and of the journal's folder when given
  /// (Linux: `syncfs` once per file system; else the files and the journal were flushed one
  /// by one when written).
  /// Returns whether every flush succeeded (`errno` tells why one did not).
  @discardableResult
  private static func syncFileSystems(_ staged: [StagedFile], journal: RenameJournal? = nil)
    -> Bool
  {
    var flushed = true
    #if os(Linux)
      // The journal's file system through the journal, open since before the first temporary
      // file: `syncfs` reports a write-back error that happened after its descriptor was
      // opened, even one the kernel met writing back in the background before this call.
      var devices: Set<UInt64> = []
      if let journal {
        devices.insert(journal.device)
        flushed = journal.flushFileSystem()
      }
      for item in staged where devices.insert(item.device).inserted {
        flushed = syncFolder(split(item.file.target).folder, wholeFileSystem: true) && flushed
      }
    #endif
    return flushed
  }

  /// Flushes a folder (its entries: a rename into it), or with `wholeFileSystem` the whole
  /// file system holding it (`syncfs` on Linux).
  /// Returns whether the flush succeeded; when not, `errno` says why.
  @discardableResult
  public static func syncFolder(_ folder: String, wholeFileSystem: Bool = false) -> Bool {
    let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      // A folder one may write but not read (mode 0300) cannot be opened: every file system
      // is flushed then.
      guard wholeFileSystem else { return false }
      sync()
      return true
    }
    let result = wholeFileSystem ? SystemCalls.syncFileSystem(of: descriptor) : fsync(descriptor)
    let failure = errno
    close(descriptor)
    errno = failure
    return result == 0
  }

  /// Writes `bytes` to a batch file's temporary file, with the target's permissions and
  /// owner. Few system calls: a bump of 1,000 files makes each count. Where the batch is
  /// flushed with one `syncfs`, nothing starts a file's writeback early: one
  /// `sync_file_range` a file (tried) made a bump of 1,000 files on ext4 without a journal
  /// 30 ms slower, the flush of the whole batch writing it in fewer, larger requests.
  private static func stage(_ bytes: [UInt8], for target: BatchTarget, flush: Bool)
    throws(FileSystemError) -> StagedFile
  {
    let path = target.path
    let descriptor = try createTemporary(
      target.temporary, like: target.existing, path: path, lock: false,
      in: target.folder == AT_FDCWD ? nil : (target.folder, target.temporaryName))
    defer { close(descriptor) }
    do throws(FileSystemError) {
      try writeAll(bytes, to: descriptor, path: path)
      if flush, fsync(descriptor) != 0 {
        throw FileSystemError.io(path: path, message: systemError("cannot flush to disk"))
      }
    } catch {
      target.removeTemporary()
      throw error
    }
    var device = target.existing.map { UInt64($0.st_dev) } ?? 0
    if target.existing == nil {
      var info = stat()
      device = fstat(descriptor, &info) == 0 ? UInt64(info.st_dev) : 0
    }
    return StagedFile(file: target, device: device)
  }
}
