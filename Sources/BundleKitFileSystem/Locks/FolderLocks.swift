#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exclusive locks on folders (`flock` on the folder itself, no lock files), held until
/// released. Files are replaced by rename, so a lock on a file would not survive the write;
/// its folder's does. A run waits for folders only in sorted order (many are first tried all
/// at once, without waiting, and let go unless all were taken), so runs cannot deadlock.
/// Every command that edits files in place (`bump`, `plist set`, `plist remove`) and every
/// batch written into one output folder (`strings compile`) takes them.
///
/// A folder this process already holds (here, or as a `ScratchFolder`) is not locked a second
/// time: two `flock`s of one folder conflict even within one process. Such a nested lock
/// does not exclude other threads of this process.
public final class FolderLocks {
  private var descriptors: [Int32] = []
  private var held: [HeldFolders.ID] = []
  /// The folders locked through a descriptor a walk kept open, by name: what
  /// ``confirmedFolders`` gives.
  private var confirmed: [String: OpenFolders.Folder] = [:]

  /// Locks the folder holding `file` (as named, the folder `bump` locks for it), waiting
  /// for other holders.
  public convenience init(forEditing file: String) throws(FileSystemError) {
    try self.init(folders: [Paths.parent(file)])
  }

  /// Locks every folder, waiting for other holders.
  public convenience init(folders: Set<String>) throws(FileSystemError) {
    try self.init(folders: folders, open: nil)
  }

  /// Locks every folder, waiting for other holders; a folder `open` holds (a walk kept it
  /// open) is locked through that descriptor, which is taken from it, instead of being
  /// opened again.
  package init(folders: Set<String>, open kept: OpenFolders?) throws(FileSystemError) {
    // One descriptor a folder: a bump of 1,000 targets under a soft limit of 1,024 (or 512)
    // ran out of them where the hard limit allowed far more.
    DescriptorLimits.raiseSoft(to: folders.count + 256)
    if let kept, kept.count > 0 { confirmed.reserveCapacity(min(kept.count, folders.count)) }
    // Each folder opened (or taken from the walk) and recorded as held, in sorted order; a
    // folder this process holds already (or named twice) is counted, not locked again.
    var names: [String] = []
    names.reserveCapacity(folders.count)
    descriptors.reserveCapacity(folders.count)
    for folder in folders.sorted() {
      let descriptor: Int32
      let id: HeldFolders.ID
      var confirmed: OpenFolders.Folder?
      if let open = kept?.take(folder) {
        descriptor = open.descriptor
        id = HeldFolders.ID(device: open.device, inode: open.inode)
        confirmed = open
      } else {
        descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
          let tooMany = errno == EMFILE
          var message = FileIO.systemError("cannot open the folder to lock it")
          if tooMany {
            message +=
              " (a lock holds each of the \(folders.count) folders open: raise the hard limit, `ulimit -Hn`)"
          }
          release()
          throw .io(path: folder, message: message)
        }
        id = HeldFolders.ID(descriptor)
      }
      held.append(id)
      guard HeldFolders.retainOrInsert(id) else {
        close(descriptor)
        continue
      }
      descriptors.append(descriptor)
      names.append(folder)
      if let confirmed { self.confirmed[folder] = confirmed }
    }
    // Then locked: many at once, on every core, each without waiting; should any be held by
    // another run, those taken are let go, and all are locked one by one in sorted order,
    // waiting, so that two runs cannot deadlock (none waits while holding a lock out of order).
    if descriptors.count >= Self.lockedTogether, Self.tryLockingAll(descriptors) { return }
    for (descriptor, folder) in zip(descriptors, names) {
      while flock(descriptor, LOCK_EX) != 0 {
        guard errno == EINTR else {
          release()
          throw .io(path: folder, message: FileIO.systemError("cannot lock the folder"))
        }
      }
    }
  }

  /// How many folders are locked on every core at once rather than one by one.
  static let lockedTogether = 256

  /// Locks every descriptor without waiting, on every core: true when all were locked;
  /// false, with none of them locked, when any was not (held elsewhere, or an error).
  private static func tryLockingAll(_ descriptors: [Int32]) -> Bool {
    let locked = Slots<Bool>(count: descriptors.count)
    let workers = WorkerThreads.cores
    WorkerThreads.run(workers) { worker in
      for index in stride(from: worker, to: descriptors.count, by: workers) {
        locked.set(index, flock(descriptors[index], LOCK_EX | LOCK_NB) == 0)
      }
    }
    guard descriptors.indices.contains(where: { locked[$0] != true }) else { return true }
    for index in descriptors.indices where locked[index] == true {
      _ = flock(descriptors[index], LOCK_UN)
    }
    return false
  }

  /// The folders locked through the descriptor a walk listed them with (``OpenFolders``
  /// keeps only folders confirmed to be those the walk's root listed, level by level), each
  /// open until ``release()``: files in them can be read and replaced through the
  /// descriptor, with no path to follow. A folder this process held already is not among them.
  package var confirmedFolders: ConfirmedFolders { ConfirmedFolders(confirmed) }

  /// Releases every lock.
  public func release() {
    HeldFolders.release(held)
    held.removeAll()
    confirmed.removeAll()
    let descriptors = self.descriptors
    self.descriptors.removeAll()
    // Closing a locked folder is the kernel's work (the lock dropped, the file freed), 1.6 ms
    // for a bump's 1,000 folders on one core: on every core when there are many.
    guard descriptors.count >= Self.closedTogether else {
      for descriptor in descriptors { close(descriptor) }
      return
    }
    let workers = WorkerThreads.cores
    WorkerThreads.run(workers) { worker in
      for index in stride(from: worker, to: descriptors.count, by: workers) {
        close(descriptors[index])
      }
    }
  }

  /// How many locked folders are closed on every core rather than one by one.
  static let closedTogether = 256

  deinit { release() }
}

/// Folders locked and held open (``FolderLocks/confirmedFolders``), by the name the lock was
/// asked for: each is below the walked root by construction, so a file in it is read and
/// replaced through the descriptor (`openat`, `renameat`), never through a path whose links
/// could lead elsewhere. Valid while the locks are held.
package struct ConfirmedFolders: Sendable {
  private let folders: [String: OpenFolders.Folder]

  /// None.
  package init() { folders = [:] }

  init(_ folders: [String: OpenFolders.Folder]) { self.folders = folders }

  /// The descriptor of `folder`, when it is one of them.
  package subscript(_ folder: String) -> Int32? { folders[folder]?.descriptor }

  /// Whether there are none.
  package var isEmpty: Bool { folders.isEmpty }

  /// Reads the file `path` through its folder's descriptor, when its folder is one of these
  /// and the file is no symbolic link (never followed); nil otherwise: the caller reads it by
  /// its path. The folder's `fstat` is read too, for the batch that writes the file.
  package func read(_ path: String) throws(FileSystemError) -> (
    bytes: [UInt8], read: ConfirmedRead
  )? {
    guard let open = folders[Paths.parent(path)],
      let (bytes, status) = try FileIO.read(
        Paths.lastComponent(path), in: open.descriptor, path: path)
    else { return nil }
    var folderStatus = stat()
    guard fstat(open.descriptor, &folderStatus) == 0 else { return nil }
    return (bytes, ConfirmedRead(folder: open, status: status, folderStatus: folderStatus))
  }
}

/// A file read through a folder of ``ConfirmedFolders``: the folder (open while its lock is
/// held, and where the walk found it), and the `fstat`s of the file (a regular file) and of
/// the folder.
///
/// A class: the two `stat`s make it 350 bytes, which a 1,000-file bump moved whole out of
/// its workers' results and into its tables (a profile put 0.7 ms of `memmove` there, on one
/// core); shared, it moves as a reference.
package final class ConfirmedRead: Sendable {
  /// The folder, its descriptor open while its lock is held.
  package let folder: OpenFolders.Folder
  /// The file's `fstat`.
  package let status: stat
  /// The folder's `fstat`.
  package let folderStatus: stat

  /// What was read of a file through `folder`.
  package init(folder: OpenFolders.Folder, status: stat, folderStatus: stat) {
    self.folder = folder
    self.status = status
    self.folderStatus = folderStatus
  }
}

/// The folders this process holds a `flock` on, by device and inode, with how many holders
/// share each.
enum HeldFolders {
  struct ID: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ descriptor: Int32) {
      var info = stat()
      _ = fstat(descriptor, &info)
      self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    init(device: UInt64, inode: UInt64) {
      self.device = device
      self.inode = inode
    }
  }

  private nonisolated(unsafe) static var counts: [ID: Int] = [:]
  private nonisolated(unsafe) static var mutex = pthread_mutex_t()
  private static let setUp: Void = { pthread_mutex_init(&mutex, nil) }()

  private static func withLock<T>(_ body: () -> T) -> T {
    _ = setUp
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return body()
  }

  /// Counts one more holder of the folder: true when it was not held (the caller is to lock
  /// it), false when it was.
  static func retainOrInsert(_ id: ID) -> Bool {
    withLock {
      let count = counts[id, default: 0]
      counts[id] = count + 1
      return count == 0
    }
  }

  /// One holder fewer of each folder.
  static func release(_ ids: [ID]) {
    withLock {
      for id in ids {
        if let count = counts[id] { counts[id] = count > 1 ? count - 1 : nil }
      }
    }
  }
}
