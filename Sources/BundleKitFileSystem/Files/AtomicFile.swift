#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written in full before it takes the place of its target: the bytes go to a
/// temporary file beside the target, locked while it is written, which `commit()` flushes and
/// renames over the target (keeping its permissions and owner). `-o` writers use it.
///
/// A target that is a character device or a FIFO (`-o /dev/null`, a named pipe) is written
/// into directly and never replaced, as the shell's `>` does. A symbolic link is followed.
/// Dropped without `commit()`, the temporary file is removed; one left by a killed process is
/// removed by the next writer of the same target, or by any BundleKit walk that meets it.
public final class AtomicFile {
  /// The target, as given.
  public let path: String
  /// Where the bytes go until `commit()`, or nil when the target is written directly.
  public let temporaryPath: String?
  /// The descriptor to write to.
  public let descriptor: Int32
  private let target: String
  private var finished = false

  /// Opens a temporary file for `path` (or the device or FIFO `path` is).
  public init(_ path: String) throws(FileSystemError) {
    self.path = path
    var info = stat()
    var exists = lstat(path, &info) == 0
    var target = path
    if exists, info.st_mode & S_IFMT == S_IFLNK {
      target = FileIO.resolvedPath(path)
      exists = stat(target, &info) == 0
    }
    self.target = target
    if exists {
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        break
      case S_IFCHR, S_IFIFO:
        descriptor = open(target, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
          throw .io(path: path, message: FileIO.systemError("cannot open for writing"))
        }
        temporaryPath = nil
        return
      case S_IFDIR:
        throw .io(path: path, message: "is a folder, not a file")
      default:
        throw .io(
          path: path,
          message: "is a block device or a socket, which BundleKit neither writes to nor replaces")
      }
    }
    let (folder, name) = (Paths.parent(target), Paths.lastComponent(target))
    ScratchRecovery.recover(in: folder, beside: name)
    let temporary = Paths.join(
      folder,
      ScratchFiles.temporaryName(for: name, transaction: ScratchFiles.newTransaction(), index: 0))
    descriptor = try FileIO.createTemporary(
      temporary, like: exists ? info : nil, path: path, lock: true)
    temporaryPath = temporary
  }

  /// Appends `bytes`.
  public func write(_ bytes: [UInt8]) throws(FileSystemError) {
    try FileIO.writeAll(bytes, to: descriptor, path: path)
  }

  /// Flushes the file and renames it over the target; the rename is flushed too. A device
  /// or FIFO is simply closed.
  public func commit() throws(FileSystemError) {
    guard !finished else { return }
    finished = true
    defer { close(descriptor) }
    guard let temporaryPath else { return }
    guard fsync(descriptor) == 0 else {
      let failure = FileSystemError.io(
        path: path, message: FileIO.systemError("cannot flush to disk"))
      unlink(temporaryPath)
      throw failure
    }
    guard rename(temporaryPath, target) == 0 else {
      let failure = FileSystemError.io(
        path: path, message: FileIO.systemError("cannot replace the file"))
      unlink(temporaryPath)
      throw failure
    }
    FileIO.syncFolder(Paths.parent(target))
  }

  /// Drops the temporary file; the target stays as it was.
  public func discard() {
    guard !finished else { return }
    finished = true
    if let temporaryPath { unlink(temporaryPath) }
    close(descriptor)
  }

  deinit { discard() }
}
