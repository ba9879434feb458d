#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders a walk found holding no scratch entry, each remembered by its identity and the
/// change time it had when listed, so that recovery under the write locks need not list them
/// again.
///
/// Why this holds: making, removing or renaming an entry in a folder sets the folder's change
/// time to the current time (POSIX requires it; no call sets a change time at will). A folder
/// whose change time is still the one it had when it was listed, and was already older than
/// the listing then by more than a clock tick, has had no entry made or removed since: it
/// still holds no scratch entry. `ScratchRecovery.recover(above:)` then reads one `stat`
/// where it read the whole folder (open, `fstat`, two `getdents64`, close): for a bump of
/// 1,000 Info.plists, 1,000 folders.
///
/// Only where timestamps are local and fine-grained: ext2/3/4, tmpfs, XFS and Btrfs on Linux,
/// and a change time with a sub-second part (ext4 with small inodes keeps whole seconds). A
/// network file system's times come from the server's clock, and elsewhere this records
/// nothing: every folder is listed again, as before.
package enum CleanFolders {
  /// How much older than its listing a folder's change time must be: more than the kernel's
  /// timestamp clock tick (at most 10 ms), so that an entry made after the listing moves it.
  static let settledNanoseconds: Int64 = 50_000_000

  /// A folder as it was: device, inode and change time.
  private struct Stamp: Hashable {
    var device: UInt64
    var inode: UInt64
    var seconds: Int64
    var nanoseconds: Int64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      #if canImport(Darwin)
        seconds = Int64(info.st_ctimespec.tv_sec)
        nanoseconds = Int64(info.st_ctimespec.tv_nsec)
      #else
        seconds = Int64(info.st_ctim.tv_sec)
        nanoseconds = Int64(info.st_ctim.tv_nsec)
      #endif
    }
  }

  private struct State {
    var clean: Set<Stamp> = []
    /// Whether each file system (by device) keeps local, fine-grained times.
    var trusted: [UInt64: Bool] = [:]
  }

  private static let state = LockedState<State>(State())

  /// The time now, for ``noteClean(_:listedAfter:)``: read before the folder is opened.
  static func now() -> timespec {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return time
  }

  /// Records that the open folder `descriptor`, whose entries were read after `start`, holds
  /// no scratch entry. Call it with the folder's `fstat` taken before its entries were read
  /// (`info`). Nothing is recorded for a folder changed too recently to tell, or on a file
  /// system whose times cannot be trusted for this.
  static func noteClean(_ descriptor: Int32, info: stat, listedAfter start: timespec) {
    #if os(Linux)
      let stamp = Stamp(info)
      guard stamp.nanoseconds != 0 else { return }
      let changed = stamp.seconds * 1_000_000_000 + stamp.nanoseconds
      let listed = Int64(start.tv_sec) * 1_000_000_000 + Int64(start.tv_nsec)
      guard changed < listed - settledNanoseconds else { return }
      let known = state.read { $0.trusted[stamp.device] }
      let trusted = known ?? hasLocalTimes(descriptor)
      state.update { state in
        if known == nil { state.trusted[stamp.device] = trusted }
        if trusted { state.clean.insert(stamp) }
      }
    #endif
  }

  /// Whether `folder` is, by its change time, as a walk found it: holding no scratch entry.
  /// False when it cannot be read, or no walk of this process recorded it.
  static func isClean(_ folder: String) -> Bool {
    var info = stat()
    guard stat(folder, &info) == 0 else { return false }
    return isClean(info)
  }

  /// Whether the folder whose `stat` is `info`, read just now, is as a walk found it.
  static func isClean(_ info: stat) -> Bool {
    guard info.st_mode & S_IFMT == S_IFDIR else { return false }
    let stamp = Stamp(info)
    return state.read { $0.clean.contains(stamp) }
  }

  #if os(Linux)
    /// ext2/3/4, tmpfs, XFS, Btrfs: the file systems whose times the kernel sets from its own
    /// clock at nanosecond resolution (`statfs(2)`'s magic numbers).
    static let localFileSystems: [Int] = [0xEF53, SystemCalls.tmpfsType, 0x5846_5342, 0x9123_683E]

    private static func hasLocalTimes(_ descriptor: Int32) -> Bool {
      SystemCalls.fileSystemType(of: descriptor).map(localFileSystems.contains) ?? false
    }
  #endif
}
