import CBundleKitSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls, so every failure names its file and
/// reason, and a failed write leaves the original untouched.
public enum FileIO {
  /// Reads a whole file. `-` reads standard input.
  public static func read(_ path: String) throws(PropertyListError) -> [UInt8] {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .io(path: path, message: systemError("cannot open")) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var info = stat()
    if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw .io(path: path, message: "is a folder, not a file")
    }
    // Regular files: one read into storage of the right size. Pipes and growing files:
    // chunks until the end.
    var bytes: [UInt8] = []
    let expected = max(Int(info.st_size), 0)
    if expected > 0 {
      var failed = false
      bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
        while initialized < expected {
          let count = systemRead(
            descriptor, buffer.baseAddress.map { $0 + initialized }, expected - initialized)
          if count < 0, errno == EINTR { continue }
          if count <= 0 {
            failed = count < 0
            break
          }
          initialized += count
        }
      }
      if failed { throw .io(path: path, message: systemError("cannot read")) }
      // A regular file read to the size it had when opened is done: no read to find the end.
      if (info.st_mode & S_IFMT) == S_IFREG, bytes.count == expected { return bytes }
    }
    return try bytes + readAll(descriptor, path: path)
  }

  /// Reads what is left of an open file, to its end.
  static func readAll(_ descriptor: Int32, path: String) throws(PropertyListError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, message: systemError("cannot read"))
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Writes `bytes` to `path` atomically: a temporary file in the same folder is written,
  /// flushed to disk and renamed over the target, which keeps its permissions. A symbolic
  /// link is followed, so the file it points to is replaced, not the link. A character
  /// device or FIFO (`/dev/null`, a pipe) is written into, never replaced. `-` writes to
  /// standard output.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PropertyListError) {
    if path == "-" {
      try writeAll(bytes, to: STDOUT_FILENO, path: path)
      return
    }
    let file = try AtomicFile(path)
    try file.write(bytes)
    try file.commit()
  }

  /// Writes `bytes` to `path` as `writeAtomically` does, creating missing folders, unless a
  /// regular file there already holds exactly these bytes: generated sources that do not
  /// change keep their date, so builds that depend on them stay warm. Devices and FIFOs are
  /// always written (never read).
  public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(PropertyListError) {
    var info = stat()
    if path != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      Int(info.st_size) == bytes.count, (try? read(path)) == bytes
    {
      return
    }
    if path != "-" { try createFolders(for: path) }
    try writeAtomically(bytes, to: path)
  }

  /// Writes several files atomically as one batch: all of them or none, even when the
  /// process is killed half-way. A journal listing the batch is written first; every
  /// temporary file is written, all are flushed to disk together (one `syncfs` on Linux
  /// instead of an fsync per file), the journal is committed, then each file is renamed into
  /// place. A run killed before the commit is rolled back, one killed after it rolled
  /// forward, by the next BundleKit run that meets the journal (`ScratchRecovery`).
  public static func writeAtomically(_ files: [(path: String, bytes: [UInt8])])
    throws(PropertyListError)
  {
    if files.count == 1, let file = files.first {
      try writeAtomically(file.bytes, to: file.path)
      return
    }
    if files.isEmpty { return }
    let transaction = ScratchFiles.newTransaction()
    let targets = try files.indices.map { index throws(PropertyListError) in
      try BatchTarget(files[index].path, transaction: transaction, index: index)
    }
    var seen: [String: String] = [:]
    for target in targets {
      if let other = seen[target.target], other != target.path {
        throw .io(path: target.path, message: "is the same file as \(other) in one batch")
      }
      seen[target.target] = target.path
    }
    let current = AbsolutePath.currentFolder()
    let folder = AbsolutePath.commonFolder(
      targets.map { AbsolutePath.make($0.target, from: current) })
    ScratchRecovery.recover(in: folder)
    var journal = try RenameJournal(
      transaction: transaction,
      renames: targets.map { RenameJournal.Rename(source: $0.temporary, target: $0.target) },
      folder: folder)
    let staged: [StagedFile]
    do {
      staged = try stageAll(files, targets)
      syncFileSystems(staged)
      try journal.commit()
    } catch {
      for target in targets { unlink(target.temporary) }
      journal.finish()
      throw error
    }
    let failure = renameAll(staged)
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
  /// device to discard its blocks: the waits of several threads overlap.
  static let renameWorkers = 8

  /// Renames every staged file over its target. The journal is committed, so every rename
  /// is tried; one that fails (an I/O error, a file system gone read-only) has its temporary
  /// file removed and the first such failure (in `staged` order) is returned.
  private static func renameAll(_ staged: [StagedFile]) -> PropertyListError? {
    let outcomes = Slots<Int32>(count: staged.count)
    let workers = staged.count >= 64 ? renameWorkers : 1
    WorkerThreads.run(workers) { worker in
      for index in stride(from: worker, to: staged.count, by: workers) {
        let code = rename(staged[index].temporary, staged[index].target) == 0 ? 0 : errno
        outcomes.set(index, code)
      }
    }
    let failed = staged.indices.filter { (outcomes[$0] ?? 0) != 0 }
    guard let first = failed.first else { return nil }
    for index in failed { unlink(staged[index].temporary) }
    errno = outcomes[first] ?? 0
    return .io(
      path: staged[first].path,
      message: systemError(
        "cannot replace the file (\(staged.count - failed.count) of the batch's \(staged.count) files were written)"
      ))
  }

  /// Writes every temporary file, or none: on any failure the ones written are removed and
  /// the first failure (in `files` order) is thrown. Large batches are written by several
  /// threads taking alternate files.
  private static func stageAll(
    _ files: [(path: String, bytes: [UInt8])], _ targets: [BatchTarget]
  ) throws(PropertyListError) -> [StagedFile] {
    let flush = !canSyncFileSystem
    let results = WorkerThreads.map(files.count, workers: stagingWorkers) {
      index in
      Result { () throws(PropertyListError) in
        try stage(files[index].bytes, for: targets[index], flush: flush)
      }
    }
    var staged: [StagedFile] = []
    var failure: PropertyListError?
    for result in results {
      switch result {
      case .success(let item): staged.append(item)
      case .failure(let error): failure = failure ?? error
      }
    }
    if let failure {
      for item in staged { unlink(item.temporary) }
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

    init(_ path: String, transaction: String, index: Int) throws(PropertyListError) {
      self.path = path
      var info = stat()
      var exists = lstat(path, &info) == 0
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
      let (folder, name) = split(target)
      temporary = Paths.join(
        folder, ScratchFiles.temporaryName(for: name, transaction: transaction, index: index))
    }
  }

  /// A temporary file written and waiting to be renamed over its target.
  struct StagedFile {
    var temporary: String
    var target: String
    var path: String
    /// The file system it is on.
    var device: UInt64
  }

  #if os(Linux)
    private static let canSyncFileSystem = true
  #else
    private static let canSyncFileSystem = false
  #endif

  /// Flushes the file systems of the staged files (Linux: `syncfs` once per file system; else
  /// the files were flushed one by one when staged).
  private static func syncFileSystems(_ staged: [StagedFile]) {
    #if os(Linux)
      var devices: Set<UInt64> = []
      for item in staged where devices.insert(item.device).inserted {
        syncFolder(split(item.target).folder, wholeFileSystem: true)
      }
    #endif
  }

  /// Flushes a folder (its entries: a rename into it), or with `wholeFileSystem` the whole
  /// file system holding it (`syncfs` on Linux).
  public static func syncFolder(_ folder: String, wholeFileSystem: Bool = false) {
    let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    if wholeFileSystem { _ = bundlekit_syncfs(descriptor) } else { _ = fsync(descriptor) }
    close(descriptor)
  }

  /// Writes `bytes` to a batch file's temporary file, with the target's permissions and
  /// owner. Few system calls: a bump of 1,000 files makes each count.
  private static func stage(_ bytes: [UInt8], for target: BatchTarget, flush: Bool)
    throws(PropertyListError) -> StagedFile
  {
    let path = target.path
    let descriptor = try createTemporary(
      target.temporary, like: target.existing, path: path, lock: false)
    defer { close(descriptor) }
    do throws(PropertyListError) {
      try writeAll(bytes, to: descriptor, path: path)
      if !flush { bundlekit_start_writeback(descriptor) }
      if flush, fsync(descriptor) != 0 {
        throw PropertyListError.io(path: path, message: systemError("cannot flush to disk"))
      }
    } catch {
      unlink(target.temporary)
      throw error
    }
    var device = target.existing.map { UInt64($0.st_dev) } ?? 0
    if target.existing == nil {
      var info = stat()
      device = fstat(descriptor, &info) == 0 ? UInt64(info.st_dev) : 0
    }
    return StagedFile(
      temporary: target.temporary, target: target.target, path: path, device: device)
  }

  /// Creates the temporary file `temporary` for `path` with the permissions and owner of the
  /// file it replaces (`existing`), or the usual ones for a new file. With `lock`, it is
  /// locked (`flock`) for as long as the descriptor is open, so no other run takes it for
  /// abandoned.
  static func createTemporary(_ temporary: String, like existing: stat?, path: String, lock: Bool)
    throws(PropertyListError) -> Int32
  {
    let mode: mode_t = existing.map { $0.st_mode & 0o7777 } ?? (0o666 & ~processUmask)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw .io(
        path: path,
        message: systemError("cannot create a temporary file in \(split(temporary).folder)"))
    }
    do throws(PropertyListError) {
      if lock {
        _ = flock(descriptor, LOCK_EX)
        // Another run took it for abandoned between our creating and locking it.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_nlink == 0 {
          throw PropertyListError.io(
            path: path, message: "the temporary file was removed by another run; try again")
        }
      }
      if let existing, existing.st_uid != processOwner.user || existing.st_gid != processOwner.group
      {
        _ = fchown(descriptor, existing.st_uid, existing.st_gid)
      }
      // `open` applied the umask; and a changed owner drops set-id bits.
      if mode & processUmask != 0 || mode & 0o7000 != 0 {
        guard fchmod(descriptor, mode) == 0 else {
          throw PropertyListError.io(path: path, message: systemError("cannot set permissions"))
        }
      }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
    return descriptor
  }

  /// The process's effective user and group, read once.
  static let processOwner = (user: geteuid(), group: getegid())

  /// The process's umask, read once (reading it means setting it).
  public static let processUmask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
  }()

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
    throws(PropertyListError)
  {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0 }
        return systemWrite(descriptor, base + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, message: systemError("cannot write"))
      }
      offset += written
    }
  }

  /// Whether the file at `path` (a symbolic link followed) exists and may not be written by
  /// this process: for the superuser, whom permissions do not stop, whether no write bit is
  /// set at all. A rename could still replace such a file; tools that edit people's files
  /// ask this first, as version control systems that lock files (Perforce) rely on it.
  public static func isWriteProtected(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    if geteuid() == 0 { return info.st_mode & 0o222 == 0 }
    return access(path, W_OK) != 0 && errno == EACCES
  }

  /// Puts the folder `replacement` (a scratch folder) at `path` in one atomic step: swapped
  /// with the folder there (which then has `replacement`'s name, for the caller to remove),
  /// or renamed when there is none. Where the file system cannot swap, the old folder is
  /// renamed aside first, the one moment a crash could leave no folder at `path`.
  public static func replaceFolder(_ path: String, with replacement: String)
    throws(PropertyListError)
  {
    var info = stat()
    if lstat(path, &info) != 0 {
      guard rename(replacement, path) == 0 else {
        throw .io(path: path, message: systemError("cannot create it"))
      }
    } else if bundlekit_exchange(replacement, path) != 0 {
      guard errno == EINVAL || errno == ENOSYS || errno == ENOTSUP else {
        throw .io(path: path, message: systemError("cannot replace it"))
      }
      let aside = Paths.join(
        Paths.parent(path),
        ScratchFiles.temporaryName(
          for: Paths.lastComponent(path), transaction: ScratchFiles.newTransaction(), index: 0))
      guard rename(path, aside) == 0 else {
        throw .io(path: path, message: systemError("cannot replace it"))
      }
      guard rename(replacement, path) == 0 else {
        let failure = PropertyListError.io(path: path, message: systemError("cannot replace it"))
        rename(aside, path)
        throw failure
      }
      guard rename(aside, replacement) == 0 else { return }
    }
    syncFolder(Paths.parent(path))
  }

  /// Creates the folders above `path` that do not exist yet.
  public static func createFolders(for path: String) throws(PropertyListError) {
    try createFolder(split(path).folder)
  }

  /// Creates `folder` and the folders above it that do not exist yet.
  public static func createFolder(_ folder: String) throws(PropertyListError) {
    var folder = folder
    var missing: [String] = []
    var info = stat()
    while !folder.isEmpty, folder != "/", folder != ".", stat(folder, &info) != 0 {
      missing.append(folder)
      folder = split(folder).folder
    }
    for folder in missing.reversed() where mkdir(folder, 0o777) != 0 && errno != EEXIST {
      throw .io(path: folder, message: systemError("cannot create the folder"))
    }
  }

  /// The path with symbolic links followed (the last component only), so an edit replaces
  /// the file the link points to.
  static func resolvedPath(_ path: String) -> String {
    var current = path
    for _ in 0..<32 {
      guard let destination = linkDestination(current) else { return current }
      if destination.hasPrefix("/") {
        current = destination
      } else {
        current = split(current).folder + "/" + destination
      }
    }
    return current
  }

  /// Whether something (a file, folder or link) is at `path`.
  public static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// The path with every symbolic link and `.`/`..` resolved, or nil when it does not exist.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// What the symbolic link at `path` points to, or nil when it is not a link.
  public static func linkDestination(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func split(_ path: String) -> (folder: String, name: String) {
    (Paths.parent(path), Paths.lastComponent(path))
  }

  static func systemError(_ action: String) -> String {
    "\(action): \(String(cString: strerror(errno)))"
  }
}

// The POSIX calls, named apart from Swift methods of the same names.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
