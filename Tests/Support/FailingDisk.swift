import Foundation
import Testing

/// An ext4 file system (4 KiB blocks, no journal) on a loop device whose image lies on a small
/// tmpfs: what is written lands in memory, and its write-back fails once the tmpfs is full
/// (`sync -f` there says "Input/output error"). A real fault, for the tests of what a failed
/// flush leaves. Needs root (mount, mkfs.ext4); unmounted when released.
public final class FailingDisk {
  /// Whether this system can make one (Linux: tmpfs, loop devices, mkfs.ext4), for the tests'
  /// `.enabled(if:)`; the reason it gives otherwise is ``unsupported``.
  public static var isSupported: Bool {
    #if os(Linux)
      true
    #else
      false
    #endif
  }

  /// Why ``isSupported`` is false.
  public static let unsupported: Comment = "needs Linux: a tmpfs, a loop device and mkfs.ext4"

  /// The mounted file system.
  public let path: String
  private let folder: TemporaryFolder
  private var mounted: [String] = []
  private let umount: String?

  /// Mounts the file system over a tmpfs of `backing` (a mount size: `3m`).
  public init(backing: String = "3m") throws {
    folder = try TemporaryFolder()
    umount = Tool.path("umount")
    let store = folder.file("store")
    path = folder.file("disk")
    for made in [store, path] {
      try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
    }
    let mount = try #require(Tool.path("mount"), "mount is not on PATH")
    let mkfs = try #require(Tool.path("mkfs.ext4"), "mkfs.ext4 is not on PATH")
    let tmpfs = try Tool.run(mount, ["-t", "tmpfs", "-o", "size=" + backing, "tmpfs", store])
    try #require(tmpfs.status == 0, "cannot mount a tmpfs here: \(tmpfs.stderr)")
    mounted.append(store)
    let image = store + "/ext4.img"
    try #require(FileManager.default.createFile(atPath: image, contents: nil))
    try #require(truncate(image, 64 << 20) == 0, "cannot size the image")
    let made = try Tool.run(mkfs, ["-q", "-F", "-b", "4096", "-O", "^has_journal", image])
    try #require(made.status == 0, "mkfs.ext4: \(made.stderr)")
    let loop = try Tool.run(mount, ["-o", "loop", image, path])
    try #require(loop.status == 0, "cannot mount a loop device here: \(loop.stderr)")
    mounted.append(path)
  }

  /// Writes `count` small files (a block each) at `prefix` and flushes them: the tmpfs beneath
  /// is then filled that much (400 fill a 3 MiB one more than half).
  public func fill(_ count: Int, prefix: String = "filler") throws {
    for index in 0..<count {
      try Data("filler \(index)\n".utf8).write(
        to: URL(fileURLWithPath: "\(path)/\(prefix)\(index).txt"))
    }
    sync()
  }

  deinit {
    guard let umount else { return }
    for point in mounted.reversed() { _ = try? Tool.run(umount, [point]) }
  }
}
