#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private folder beside a target, where a tree is built before it moves into place
/// (an extraction, a bundle). Its name is a scratch name and it is locked (`flock`) while the
/// process lives, so a folder left by a killed run is removed by the next one that meets it,
/// and a live one is not.
public final class ScratchFolder {
  /// The folder.
  public let path: String
  /// The transaction its name carries.
  public let transaction: String
  private var descriptor: Int32
  private let id: HeldFolders.ID

  /// Creates the folder (mode 0700 until the caller sets another) beside `target`, after
  /// removing what dead runs left there for the same target.
  public init(beside target: String) throws(FileSystemError) {
    let folder = Paths.parent(target)
    let name = Paths.lastComponent(target)
    ScratchRecovery.recover(in: folder, beside: name)
    transaction = ScratchFiles.newTransaction()
    path = Paths.join(
      folder, ScratchFiles.temporaryName(for: name, transaction: transaction, index: 0))
    guard mkdir(path, 0o700) == 0 else {
      throw .io(path: target, message: FileIO.systemError("cannot create a folder beside it"))
    }
    descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      rmdir(path)
      throw .io(path: target, message: FileIO.systemError("cannot open a folder beside it"))
    }
    _ = flock(descriptor, LOCK_EX)
    id = HeldFolders.ID(descriptor)
    _ = HeldFolders.retainOrInsert(id)
  }

  /// Gives the folder `mode`.
  public func setMode(_ mode: mode_t) {
    _ = fchmod(descriptor, mode)
  }

  /// Flushes the file system holding the folder: everything written in it is on disk. Through
  /// the folder's own descriptor, open since before anything was written in it, so that a
  /// write-back error meanwhile (the kernel's, in the background) is reported too.
  /// - Throws: ``FileSystemError`` when the flush fails: what was written may not be on disk.
  public func flush() throws(FileSystemError) {
    let flushed =
      descriptor >= 0
      ? SystemCalls.syncFileSystem(of: descriptor) == 0
      : FileIO.syncFolder(path, wholeFileSystem: true)
    guard flushed else {
      throw .io(path: path, message: FileIO.systemError("cannot flush it to disk"))
    }
  }

  /// Removes the folder and what is left in it.
  public func remove() {
    guard descriptor >= 0 else { return }
    ScratchRecovery.removeTree(path)
    release()
  }

  /// Lets go of the folder once it has been moved into place.
  public func release() {
    guard descriptor >= 0 else { return }
    HeldFolders.release([id])
    close(descriptor)
    descriptor = -1
  }

  deinit { remove() }
}

/// Renames scratch paths into place as one batch, all or none across a crash: the
/// renames are journaled and committed first (`RenameJournal`), so a run killed half-way is
/// rolled forward by the next run that meets the journal.
public enum FileMoves {
  /// One rename of a batch.
  public struct FileMove: Sendable, Hashable {
    /// The scratch path that holds the new contents.
    public var source: String
    /// Where they go.
    public var target: String

    /// A move of `source` over `target`.
    public init(source: String, target: String) {
      self.source = source
      self.target = target
    }
  }

  /// Renames each `source` (a path inside a scratch file or folder of `transaction`, its
  /// contents already on disk) over its `target`. Throws, naming the first target that could
  /// not be replaced, when a rename fails.
  public static func perform(_ moves: [FileMove], transaction: String) throws(FileSystemError) {
    guard !moves.isEmpty else { return }
    var folders = AbsolutePath.RealFolders()
    var journal = try RenameJournal(
      transaction: transaction,
      renames: moves.map { RenameJournal.Rename(source: $0.source, target: $0.target) },
      folders: &folders)
    do {
      try journal.commit()
    } catch {
      journal.finish()
      throw error
    }
    var failure: FileSystemError?
    for move in moves where rename(move.source, move.target) != 0 {
      failure =
        failure ?? .io(path: move.target, message: FileIO.systemError("cannot move into place"))
    }
    FileIO.syncFolder(journal.folder, wholeFileSystem: true)
    journal.finish()
    if let failure { throw failure }
  }
}
