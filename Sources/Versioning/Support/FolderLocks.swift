#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exclusive locks on folders (`flock` on the folder itself, no lock files), held until
/// released. Files are replaced by rename, so a lock on a file would not survive the write;
/// its folder's does. Folders are locked in sorted order, so runs cannot deadlock.
public final class FolderLocks {
  private var descriptors: [Int32] = []

  /// Locks every folder, waiting for other holders.
  public init(folders: Set<String>) throws(VersioningError) {
    for folder in folders.sorted() {
      let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        release()
        throw .unreadable(path: folder, line: nil, message: "cannot open the folder to lock it")
      }
      while flock(descriptor, LOCK_EX) != 0 {
        guard errno == EINTR else {
          close(descriptor)
          release()
          throw .unreadable(path: folder, line: nil, message: "cannot lock the folder")
        }
      }
      descriptors.append(descriptor)
    }
  }

  /// Releases every lock.
  public func release() {
    for descriptor in descriptors { close(descriptor) }
    descriptors.removeAll()
  }

  deinit { release() }
}
