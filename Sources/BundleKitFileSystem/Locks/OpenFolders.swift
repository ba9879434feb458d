#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders a walk kept open for the locks taken right after it (`bump`): ``FolderLocks``
/// locks each with the descriptor the walk listed it through, where it would open the folder
/// by its path and `fstat` it again. For a bump of 1,000 Info.plists in 1,000 folders that
/// is 3,000 system calls fewer (the walk's `close`, the lock's `open` and `fstat`), and the
/// locks' opens had been a serial phase of their own.
///
/// Only a folder the walk confirmed is kept: opened by its path, it had the device and inode
/// its parent's listing gave its name, and so had every folder above it up to the root.
/// Such a folder is below the root whatever links are made in the tree later, and `bump`
/// reads and replaces its Info.plist through the descriptor (``ConfirmedFolders``).
///
/// Kept only while the process has descriptors to spare: at most half of those its limit
/// (`RLIMIT_NOFILE`, the soft one raised as far as the hard one allows) leaves after 256, so
/// a walk never runs out of them; a folder not kept is opened by the lock as before. Not
/// shared between threads: the walk hands descriptors over on the thread that walks, and the
/// lock takes them there.
package final class OpenFolders {
  /// A folder held open: its descriptor, its device and inode (the walk's `fstat`), and
  /// where the walk found it.
  package struct Folder: Sendable {
    package var descriptor: Int32
    package var device: UInt64
    package var inode: UInt64
    /// The root as the walk opened it, and the folder's path below it: plain names, each a
    /// folder the walk confirmed, so no link lies between and its real path is the root's
    /// then that path ("" for none known: it is resolved by its own path).
    package var root = ""
    package var relative = ""
  }

  private var folders: [String: Folder] = [:]
  /// How many descriptors this may hold at once.
  private let limit: Int
  /// The descriptor table made large enough for this many open descriptors (``reserve(_:)``).
  private var reserved = 0

  /// Holds nothing yet; `limit` is the most it will hold. By default the soft descriptor
  /// limit is first raised as far as the hard one allows (to what ``most`` needs; a soft
  /// limit of 1,024 is common, and would keep a bump of 1,000 targets from keeping any), and
  /// the limit is half of what it leaves after 256.
  package init(limit: Int? = nil) {
    if let limit {
      self.limit = limit
    } else {
      DescriptorLimits.raiseSoft(to: 2 * Self.most + 256)
      self.limit = Self.descriptorBudget
    }
  }

  deinit { closeAll() }

  /// The most folders kept open at once.
  static let most = 1 << 16

  /// How many folders may be kept open under the soft descriptor limit now: half of what it
  /// leaves after 256.
  package static var descriptorBudget: Int {
    // Unlimited clamps to the most kept.
    guard let limits = DescriptorLimits.current else { return 0 }
    return min(max((limits.soft - 256) / 2, 0), most)
  }

  /// How many folders are held.
  package var count: Int { folders.count }

  /// How many more folders may be held.
  package var room: Int { max(limit - folders.count, 0) }

  /// Whether `more` folders may be kept besides those held. When they may, the process's
  /// descriptor table is grown for them now, on the calling thread: Linux grows it while
  /// other threads share it only after an RCU grace period (`synchronize_rcu`), which took
  /// 21-34 ms over 1,000 descriptors opened on worker threads on this 2-core VM, and a few
  /// microseconds here before the workers start.
  package func reserve(_ more: Int) -> Bool {
    guard more > 0, folders.count + more <= limit else { return false }
    // The table too: grown one by one, a walk's 1,000 folders rehashed it ten times.
    folders.reserveCapacity(folders.count + more)
    let wanted = folders.count + more + 64
    guard wanted > reserved else { return true }
    // Doubled at least, as the kernel grows it, so one by one costs no call each.
    reserved = max(wanted, reserved * 2)
    #if os(Linux)
      let probe = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if probe >= 0 {
        let high = fcntl(probe, F_DUPFD_CLOEXEC, Int32(clamping: reserved))
        if high >= 0 { close(high) }
        close(probe)
      }
    #endif
    return true
  }

  /// Holds `folder` open, by the name the lock will be asked for it by; a folder held
  /// already keeps its first descriptor.
  package func keep(_ folder: String, _ open: Folder) {
    if !folders.enter(open, forKey: folder).entered { close(open.descriptor) }
  }

  /// The folder named `folder`, no longer held here: the caller owns its descriptor.
  package func take(_ folder: String) -> Folder? {
    folders.removeValue(forKey: folder)
  }

  /// Closes every folder still held.
  package func closeAll() {
    for folder in folders.values { close(folder.descriptor) }
    folders.removeAll()
  }
}
