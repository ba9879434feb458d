#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls BundleKit needs that Swift's C library modules do not declare (glibc
/// declares them only under `_GNU_SOURCE`, or not at all: `getdents64`, and `fstatfs` whose
/// `sys/vfs.h` the module leaves out), looked up once by name in the C library the process
/// has loaded. Not a C target of their own: SwiftPM compiles a package's C targets, and the
/// modules that import them, again for every `swift package` command plugin that runs the
/// tool (swiftlang/swift-package-manager#7210), which users of the plugins wait for.
enum SystemCalls {
  /// `RTLD_DEFAULT`: every image the process has loaded.
  private static var everyImage: UnsafeMutableRawPointer? {
    #if canImport(Darwin)
      UnsafeMutableRawPointer(bitPattern: -2)
    #else
      nil
    #endif
  }

  private typealias SyncFileSystem = @convention(c) (Int32) -> Int32
  #if canImport(Darwin)
    private typealias Exchange =
      @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt32) -> Int32
  #else
    private typealias Exchange =
      @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
  #endif

  private static func lookUp<Function>(_ name: String, as type: Function.Type) -> Function? {
    guard let symbol = dlsym(everyImage, name) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }

  #if os(Linux)
    private typealias FileSystemStatus = @convention(c) (Int32, UnsafeMutableRawPointer?) -> Int32
    private static let syncfsCall = lookUp("syncfs", as: SyncFileSystem.self)
    private static let renameat2Call = lookUp("renameat2", as: Exchange.self)
    private static let fstatfsCall = lookUp("fstatfs", as: FileSystemStatus.self)
    private typealias ReadEntries = @convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int
    private static let getdents64Call = lookUp("getdents64", as: ReadEntries.self)
  #elseif canImport(Darwin)
    private static let renamexCall = lookUp("renamex_np", as: Exchange.self)
  #endif

  /// Whether the C library gave every call looked up here (on Linux `syncfs`, `renameat2`,
  /// `fstatfs` and `getdents64`, on macOS `renamex_np`): the tests check it, as a fallback
  /// would be silent.
  static var foundAll: Bool {
    #if os(Linux)
      syncfsCall != nil && renameat2Call != nil && fstatfsCall != nil && getdents64Call != nil
    #elseif canImport(Darwin)
      renamexCall != nil
    #else
      false
    #endif
  }

  /// Flushes the file system holding `descriptor` to disk: `syncfs` on Linux (one call for a
  /// batch of files instead of an `fsync` each; every file system, `sync`, where the C library
  /// has none), `fsync` of `descriptor` elsewhere. Returns 0 on success.
  static func syncFileSystem(of descriptor: Int32) -> Int32 {
    #if os(Linux)
      guard let syncfsCall else {
        sync()
        return 0
      }
      return syncfsCall(descriptor)
    #else
      return fsync(descriptor)
    #endif
  }

  #if os(Linux)
    /// ``fileSystemType(of:)`` of tmpfs, the file system in memory.
    static let tmpfsType = 0x0102_1994

    /// The type of the file system holding `descriptor` (`statfs(2)`'s `f_type`: `0xEF53`
    /// for ext2/3/4, `0x01021994` for tmpfs ...), or nil when it cannot be read. `struct
    /// statfs` starts with `f_type`, a machine word, on Linux; the rest is not read.
    static func fileSystemType(of descriptor: Int32) -> Int? {
      guard let fstatfsCall else { return nil }
      // 120 bytes on 64-bit Linux: twice that, for any padding a platform adds.
      return withUnsafeTemporaryAllocation(byteCount: 256, alignment: 16) { buffer in
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        guard fstatfsCall(descriptor, buffer.baseAddress) == 0 else { return nil }
        return buffer.load(as: Int.self)
      }
    }
  #endif

  #if os(Linux)
    /// Whether ``readEntries(_:into:)`` reads with `getdents64` (glibc 2.30 and later).
    static var canReadEntries: Bool { getdents64Call != nil }

    /// Reads entries of the open folder `descriptor` into `buffer` (`getdents64(2)`: records
    /// of `struct linux_dirent64`); the bytes read, 0 at the end, -1 with `errno` on failure.
    static func readEntries(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
      -> Int
    {
      guard let getdents64Call else {
        errno = ENOSYS
        return -1
      }
      return getdents64Call(descriptor, buffer.baseAddress, buffer.count)
    }
  #endif

  /// Swaps the names `first` and `second` in one atomic step (`renameat2` with
  /// `RENAME_EXCHANGE` on Linux, `renamex_np` with `RENAME_SWAP` on macOS). Returns 0, or -1
  /// with `errno` set: `EINVAL` or `ENOTSUP` where the file system cannot, `ENOSYS` where the
  /// system cannot.
  static func exchange(_ first: String, _ second: String) -> Int32 {
    #if os(Linux)
      guard let renameat2Call else {
        errno = ENOSYS
        return -1
      }
      // AT_FDCWD is -100; RENAME_EXCHANGE is 2.
      return renameat2Call(-100, first, -100, second, 2)
    #elseif canImport(Darwin)
      guard let renamexCall else {
        errno = ENOSYS
        return -1
      }
      // RENAME_SWAP is 2.
      return renamexCall(first, second, 2)
    #else
      errno = ENOSYS
      return -1
    #endif
  }
}

/// The process's limits on open descriptors (`RLIMIT_NOFILE`).
package enum DescriptorLimits {
  #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    private static let resource = RLIMIT_NOFILE
  #endif

  /// The soft and hard limits now (`Int.max` for none), or nil when they cannot be read.
  package static var current: (soft: Int, hard: Int)? {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { return nil }
    return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
  }

  /// Raises the soft limit to `count` when it is lower, as far as the hard limit allows.
  package static func raiseSoft(to count: Int) {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0, Int(clamping: limit.rlim_cur) < count else { return }
    limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
    _ = setrlimit(resource, &limit)
  }
}
