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
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, message: systemError("cannot read"))
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
  }

  /// Writes `bytes` to `path` atomically: a temporary file in the same folder is written,
  /// flushed to disk and renamed over the target, which keeps its permissions. A symbolic
  /// link is followed, so the file it points to is replaced, not the link. `-` writes to
  /// standard output.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PropertyListError) {
    if path == "-" {
      try writeAll(bytes, to: STDOUT_FILENO, path: path)
      return
    }
    let staged = try stage(bytes, for: path, flush: true)
    guard rename(staged.temporary, staged.target) == 0 else {
      let failure = PropertyListError.io(
        path: path, message: systemError("cannot replace the file"))
      unlink(staged.temporary)
      throw failure
    }
    // Make the rename itself durable.
    let folderDescriptor = open(split(staged.target).folder, O_RDONLY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      _ = fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  /// Writes several files atomically as one batch: every temporary file is written first,
  /// all are flushed to disk together (one `syncfs` on Linux instead of an fsync per file),
  /// then each is renamed into place. If any temporary file cannot be written, none is
  /// renamed and every target is left as it was.
  public static func writeAtomically(_ files: [(path: String, bytes: [UInt8])])
    throws(PropertyListError)
  {
    let staged = try stageAll(files)
    syncFileSystems(staged)
    try renameAll(staged)
    syncFileSystems(staged)
  }

  /// Threads that write a large batch's temporary files: creating a file is mostly the
  /// kernel finding a free inode, work for a core, so one thread per core (at least two,
  /// at most four).
  static let stagingWorkers = min(max(WorkerThreads.cores, 2), 4)

  /// Threads that rename a large batch into place. Replacing a file frees the old one, and
  /// some file systems (ext4 without a journal, mounted with `discard`) wait there for the
  /// device to discard its blocks: the waits of several threads overlap.
  static let renameWorkers = 8

  /// Renames every staged file over its target. After a failure no further rename starts;
  /// the temporary files not renamed are removed and the first failure (in `staged` order)
  /// is thrown.
  private static func renameAll(_ staged: [StagedFile]) throws(PropertyListError) {
    let outcomes = Slots<Int32>(count: staged.count)
    let stop = LockedCounter(start: 0)
    let workers = staged.count >= 64 ? renameWorkers : 1
    WorkerThreads.run(workers) { worker in
      for index in stride(from: worker, to: staged.count, by: workers) {
        if stop.withLock({ $0 }) != 0 { return }
        let code = rename(staged[index].temporary, staged[index].target) == 0 ? 0 : errno
        outcomes.set(index, code)
        if code != 0 { stop.withLock { $0 = 1 } }
      }
    }
    guard let failed = staged.indices.first(where: { (outcomes[$0] ?? 0) != 0 }) else { return }
    for index in staged.indices where outcomes[index] != 0 { unlink(staged[index].temporary) }
    errno = outcomes[failed] ?? 0
    throw .io(path: staged[failed].path, message: systemError("cannot replace the file"))
  }

  /// Writes every temporary file, or none: on any failure the ones written are removed and
  /// the first failure (in `files` order) is thrown. Large batches are written by several
  /// threads taking alternate files.
  private static func stageAll(_ files: [(path: String, bytes: [UInt8])])
    throws(PropertyListError) -> [StagedFile]
  {
    let flush = !canSyncFileSystem
    let results = WorkerThreads.map(files.count, workers: stagingWorkers) {
      index in
      Result { () throws(PropertyListError) in
        try stage(files[index].bytes, for: files[index].path, flush: flush)
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
        let descriptor = open(split(item.target).folder, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
          _ = bundlekit_syncfs(descriptor)
          close(descriptor)
        }
      }
    #endif
  }

  /// Writes `bytes` to a new temporary file beside `path` with `path`'s permissions and
  /// owner. Few system calls: a bump of 1,000 files makes each count.
  private static func stage(_ bytes: [UInt8], for path: String, flush: Bool)
    throws(PropertyListError) -> StagedFile
  {
    var existing = stat()
    var exists = lstat(path, &existing) == 0
    var target = path
    if exists, (existing.st_mode & S_IFMT) == S_IFLNK {
      target = resolvedPath(path)
      exists = stat(target, &existing) == 0
    }
    let (folder, name) = split(target)
    let mode: mode_t = exists ? existing.st_mode & 0o7777 : 0o666 & ~processUmask
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<100 {
      temporary = "\(folder)/.\(name).\(temporaryTag())"
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else {
      throw .io(path: path, message: systemError("cannot create a temporary file in \(folder)"))
    }
    defer { close(descriptor) }
    do throws(PropertyListError) {
      if exists, existing.st_uid != processOwner.user || existing.st_gid != processOwner.group {
        _ = fchown(descriptor, existing.st_uid, existing.st_gid)
      }
      // `open` applied the umask; and a changed owner drops set-id bits.
      if mode & processUmask != 0 || mode & 0o7000 != 0 {
        guard fchmod(descriptor, mode) == 0 else {
          throw PropertyListError.io(path: path, message: systemError("cannot set permissions"))
        }
      }
      try writeAll(bytes, to: descriptor, path: path)
      if !flush { bundlekit_start_writeback(descriptor) }
      if flush, fsync(descriptor) != 0 {
        throw PropertyListError.io(path: path, message: systemError("cannot flush to disk"))
      }
    } catch {
      unlink(temporary)
      throw error
    }
    var device = UInt64(existing.st_dev)
    if !exists {
      var info = stat()
      device = fstat(descriptor, &info) == 0 ? UInt64(info.st_dev) : 0
    }
    return StagedFile(temporary: temporary, target: target, path: path, device: device)
  }

  /// The process's effective user and group, read once.
  private static let processOwner = (user: geteuid(), group: getegid())

  /// The process identifier, for temporary names.
  private static let processTag = String(UInt64(getpid()), radix: 36)

  /// The process's umask, read once (reading it means setting it).
  private static let processUmask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
  }()

  /// A name part for temporary files: the process, a counter and a random start, so names
  /// from concurrent runs do not meet (and `O_EXCL` settles it if they do).
  private static func temporaryTag() -> String {
    let count = temporaryCounter.withLock { counter -> UInt64 in
      counter &+= 1
      return counter
    }
    return processTag + "-" + String(count, radix: 36)
  }

  private static let temporaryCounter = LockedCounter(start: UInt64.random(in: 0..<(1 << 40)))

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
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

  /// Creates the folders above `path` that do not exist yet.
  public static func createFolders(for path: String) throws(PropertyListError) {
    var folder = split(path).folder
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
      var buffer = [CChar](repeating: 0, count: 4096)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { return current }
      let destination = String(
        decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if destination.hasPrefix("/") {
        current = destination
      } else {
        current = split(current).folder + "/" + destination
      }
    }
    return current
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

/// A counter shared by threads.
private final class LockedCounter: @unchecked Sendable {
  private var value: UInt64
  private var lock = pthread_mutex_t()

  init(start: UInt64) {
    value = start
    pthread_mutex_init(&lock, nil)
  }

  func withLock<T>(_ body: (inout UInt64) -> T) -> T {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    return body(&value)
  }
}
