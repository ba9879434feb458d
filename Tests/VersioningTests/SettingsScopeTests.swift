import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

/// Which files a run may read as settings: its trees, never the kernel's folders, and a tree
/// that itself lies on the RAM disk `/dev/shm` (a CI job's checkout) reads its own files.
struct SettingsScopeTests {
  /// Linux has the RAM disk; macOS has none.
  static let hasRAMDisk = FileManager.default.isWritableFile(atPath: "/dev/shm")

  @Test(
    "a tree on /dev/shm reads its own files, others' only when trusted; /proc and /dev stay out",
    .enabled(if: hasRAMDisk))
  func treeOnRAMDisk() throws {
    let tree = "/dev/shm/bundlekit-scope-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let other = tree + "-other"
    for folder in [tree + "/App", other] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    defer {
      try? FileManager.default.removeItem(atPath: tree)
      try? FileManager.default.removeItem(atPath: other)
    }
    try Data("A = 1\n".utf8).write(to: URL(fileURLWithPath: tree + "/App/App.xcconfig"))
    try Data("B = 2\n".utf8).write(to: URL(fileURLWithPath: other + "/Other.xcconfig"))

    let scope = SettingsScope(paths: [tree])
    #expect(scope.contains(tree + "/App/App.xcconfig"))
    #expect(scope.contains(tree + "/App/Missing.xcconfig"))
    #expect(!scope.contains(other + "/Other.xcconfig"))
    #expect(!scope.contains(tree + "/../" + Paths.lastComponent(other) + "/Other.xcconfig"))
    #expect(!scope.contains("/dev/zero"))
    #expect(!scope.contains("/proc/self/environ"))
    #expect(!scope.contains("/dev/shm"))

    // Trusting the checkout reads outside it, as on any disk, never the kernel's folders.
    let trusting = SettingsScope(paths: [tree], allowingOutside: true)
    #expect(trusting.contains(tree + "/App/App.xcconfig"))
    #expect(trusting.contains(other + "/Other.xcconfig"))
    #expect(!trusting.contains("/proc/self/environ"))
    #expect(!trusting.contains("/dev/zero"))

    // A tree at `/` holds the RAM disk's files, and still not the kernel's.
    let root = SettingsScope(paths: ["/"])
    #expect(root.contains(tree + "/App/App.xcconfig"))
    #expect(!root.contains("/proc/self/environ"))
    #expect(!root.contains("/dev/zero"))
    #expect(!SettingsScope(paths: ["/dev/shm"]).contains("/dev/zero"))
  }

  @Test(
    "a bump on /dev/shm reads the project's own INFOPLIST_FILE and xcconfig",
    .enabled(if: hasRAMDisk))
  func bumpOnRAMDisk() throws {
    let tree = "/dev/shm/bundlekit-scope-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: tree) }
    let source = Corpus.packageRoot.appendingPathComponent(
      "Tests/VersioningTests/Fixtures/Projects/TestCopy")
    try FileManager.default.createDirectory(
      atPath: Paths.parent(tree), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source.path, toPath: tree)
    let run = try BundleKitTool.run(["bump", "build"], in: tree)
    #expect(run.status == 0, "\(run.stderr)")
    let plist = String(decoding: try FileIO.read(tree + "/Ledger/Info.plist"), as: UTF8.self)
    #expect(plist.contains("<string>301</string>"), "\(plist)")
  }
}
