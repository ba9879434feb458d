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
  /// The largest file BundleKit reads whole: 1 GiB. A project file, a table or a property
  /// list is input from strangers; a bigger one is refused rather than read until memory
  /// runs out.
  public static let maximumReadSize = 1 << 30

  /// Reads a whole file. `-` reads standard input.
  ///
  /// Only regular files are read (a link is followed to one): a FIFO would block forever and
  /// a device such as `/dev/zero` never ends, and either fits in a pull request as a link.
  /// With `allowingStreams` (a file the user names for a command that reads a stream, such
  /// as `morse decode`), pipes and devices are read too, up to ``maximumReadSize``.
  public static func read(_ path: String, allowingStreams: Bool = false) throws(FileSystemError)
    -> [UInt8]
  {
    let descriptor =
      path == "-"
      ? STDIN_FILENO
      : open(path, O_RDONLY | O_CLOEXEC | (allowingStreams ? 0 : O_NONBLOCK))
    guard descriptor >= 0 else { throw .io(path: path, message: systemError("cannot open")) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var info = stat()
    return try read(opened: descriptor, path: path, allowingStreams: allowingStreams, &info)
  }

  /// Reads the regular file `name` in the open folder `folder` (`path` names it in errors),
  /// and its `fstat`; nil when it is a symbolic link, which is not followed (the caller reads
  /// it by its path then).
  package static func read(_ name: String, in folder: Int32, path: String)
    throws(FileSystemError) -> (bytes: [UInt8], status: stat)?
  {
    let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    guard descriptor >= 0 else {
      if errno == ELOOP { return nil }
      throw .io(path: path, message: systemError("cannot open"))
    }
    defer { close(descriptor) }
    var info = stat()
    let bytes = try read(opened: descriptor, path: path, allowingStreams: false, &info)
    return (bytes, info)
  }

  /// Reads the open file `descriptor` to its end; `info` is set to its `fstat`.
  private static func read(
    opened descriptor: Int32, path: String, allowingStreams: Bool, _ info: inout stat
  ) throws(FileSystemError) -> [UInt8] {
    if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw .io(path: path, message: "is a folder, not a file")
    }
    if descriptor != STDIN_FILENO, !allowingStreams {
      guard info.st_mode & S_IFMT == S_IFREG else {
        throw .io(
          path: path,
          message: "is not a regular file (a device, FIFO or socket, or a link to one): not read")
      }
      // Reads of a regular file do not block: the flag stays (a system call per file saved),
      // and a file system that honours it anyway is switched back below when it says so.
    }
    if Int(info.st_size) > maximumReadSize {
      throw .io(
        path: path,
        message:
          "is \(info.st_size) bytes, more than BundleKit reads (\(maximumReadSize >> 20) MiB)")
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
          if count < 0, errno == EAGAIN, descriptor != STDIN_FILENO {
            _ = fcntl(descriptor, F_SETFL, 0)
            continue
          }
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
  static func readAll(_ descriptor: Int32, path: String) throws(FileSystemError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        // Opened without blocking (see `read`), on a file system that honours it for files.
        if errno == EAGAIN, descriptor != STDIN_FILENO {
          _ = fcntl(descriptor, F_SETFL, 0)
          continue
        }
        throw .io(path: path, message: systemError("cannot read"))
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
      if bytes.count > maximumReadSize {
        throw .io(
          path: path,
          message: "goes on past \(maximumReadSize >> 20) MiB, more than BundleKit reads")
      }
    }
  }

  /// Writes `bytes` to `path` atomically: a temporary file in the same folder is written,
  /// flushed to disk and renamed over the target, which keeps its permissions. A symbolic
  /// link is followed, so the file it points to is replaced, not the link. A character
  /// device or FIFO (`/dev/null`, a pipe) is written into, never replaced. `-` writes to
  /// standard output.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
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
  public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
    var info = stat()
    if path != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      Int(info.st_size) == bytes.count, (try? read(path)) == bytes
    {
      return
    }
    if path != "-" { try createFolders(for: path) }
    try writeAtomically(bytes, to: path)
  }

  /// Creates the temporary file `temporary` for `path` with the permissions and owner of the
  /// file it replaces (`existing`), or the usual ones for a new file. With `lock`, it is
  /// locked (`flock`) for as long as the descriptor is open, so no other run takes it for
  /// abandoned.
  static func createTemporary(
    _ temporary: String, like existing: stat?, path: String, lock: Bool,
    in folder: (descriptor: Int32, name: String)? = nil
  )
    throws(FileSystemError) -> Int32
  {
    let mode: mode_t = existing.map { $0.st_mode & 0o7777 } ?? (0o666 & ~processUmask)
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
    let descriptor =
      folder.map { openat($0.descriptor, $0.name, flags, mode) } ?? open(temporary, flags, mode)
    guard descriptor >= 0 else {
      throw .io(
        path: path,
        message: systemError("cannot create a temporary file in \(split(temporary).folder)"))
    }
    do throws(FileSystemError) {
      if lock {
        _ = flock(descriptor, LOCK_EX)
        // Another run took it for abandoned between our creating and locking it.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_nlink == 0 {
          throw FileSystemError.io(
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
          throw FileSystemError.io(path: path, message: systemError("cannot set permissions"))
        }
      }
    } catch {
      close(descriptor)
      if let folder { unlinkat(folder.descriptor, folder.name, 0) } else { unlink(temporary) }
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
    throws(FileSystemError)
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
    return isWriteProtected(path, info)
  }

  /// ``isWriteProtected(_:)`` for a file whose `stat` (links followed) the caller read just
  /// now (``AbsolutePath/RealFolders/fileStatus(_:)``): no `stat` again.
  /// With `folder`, the open folder holding the file, it is asked about through that folder.
  package static func isWriteProtected(_ path: String, _ info: stat, in folder: Int32? = nil)
    -> Bool
  {
    if processOwner.user == 0 { return info.st_mode & 0o222 == 0 }
    let allowed =
      folder.map { faccessat($0, Paths.lastComponent(path), W_OK, AT_SYMLINK_NOFOLLOW) }
      ?? access(path, W_OK)
    return allowed != 0 && errno == EACCES
  }

  /// Puts the folder `replacement` (a scratch folder) at `path` in one atomic step: swapped
  /// with the folder there (which then has `replacement`'s name, for the caller to remove),
  /// or renamed when there is none. Where the file system cannot swap, the old folder is
  /// renamed aside first, the one moment a crash could leave no folder at `path`.
  public static func replaceFolder(_ path: String, with replacement: String)
    throws(FileSystemError)
  {
    var info = stat()
    if lstat(path, &info) != 0 {
      guard rename(replacement, path) == 0 else {
        throw .io(path: path, message: systemError("cannot create it"))
      }
    } else if SystemCalls.exchange(replacement, path) != 0 {
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
        let failure = FileSystemError.io(path: path, message: systemError("cannot replace it"))
        rename(aside, path)
        throw failure
      }
      guard rename(aside, replacement) == 0 else { return }
    }
    syncFolder(Paths.parent(path))
  }

  /// Creates the folders above `path` that do not exist yet.
  public static func createFolders(for path: String) throws(FileSystemError) {
    try createFolder(split(path).folder)
  }

  /// Creates `folder` and the folders above it that do not exist yet.
  public static func createFolder(_ folder: String) throws(FileSystemError) {
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
