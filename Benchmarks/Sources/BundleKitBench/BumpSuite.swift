import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// The `bump` suite: `bundlekit bump build` on 1,000 Info.plists (half XML, half binary)
/// against a one-process Python plistlib loop that does the same with an atomic replace.
enum BumpSuite {
  static let fileCount = 1_000

  /// The Python loop, shared with Scripts/bench-bump-repeated.sh.
  static let python = Bench.script("plistlib-bump.py")

  /// The Python loop's modes, in table order (see the script).
  static let peers: [(name: String, mode: [String])] = [
    ("plistlib, fsync per file", ["fsync"]), ("plistlib, no fsync", []),
    ("plistlib, batch as BundleKit", ["batch"]),
  ]

  /// Where each target's Info.plist sits in the deep layout: two folders down, as an app's
  /// `Sources/Resources` (the walk lists three folders a file).
  static let deepLayout = "Sources/Resources"

  /// A tree of `fileCount` folders, each with an Info.plist at build 1 in it or in the
  /// folders `below` it, written in one batch.
  static func makeTree(_ root: String, below: String = "") throws {
    var files: [FileWrite] = []
    for index in 0..<fileCount {
      let value: PropertyListValue = [
        "CFBundleIdentifier": .string("com.example.target\(index)"),
        "CFBundleName": .string("Target\(index)"),
        "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "LSRequiresIPhoneOS": true,
        "UIRequiredDeviceCapabilities": ["arm64"],
      ]
      let path = "\(root)/Target\(index)/\(below.isEmpty ? "" : below + "/")Info.plist"
      try FileIO.createFolders(for: path)
      files.append(
        FileWrite(path: path, bytes: try value.encoded(as: index % 2 == 0 ? .xml1 : .binary1)))
    }
    try FileIO.writeAtomically(files)
  }

  /// The `bundlekit` beside this benchmark and python3, or nil (said) when one is missing.
  static func programs() -> (tool: String, python3: String)? {
    let tool = Bench.bundlekit
    guard FileManager.default.isExecutableFile(atPath: tool), let python3 = Bench.python3
    else {
      print(
        "needs bundlekit (\(Bench.buildHint)) and python3\n")
      return nil
    }
    return (tool, python3)
  }

  /// One tree for BundleKit (`PREFIXours`) and one per Python peer (`PREFIXpeer0`...).
  static func makeTrees(_ prefix: String, below: String = "") throws {
    try makeTree(prefix + "ours", below: below)
    for index in peers.indices { try makeTree(prefix + "peer\(index)", below: below) }
  }

  /// Asks ext2/3/4 to spread the folders made in `folder` over block groups far apart (the
  /// `T` attribute of chattr(1), what the root folder has), so each tool's tree gets inodes
  /// of its own. On ext4 without a journal a new inode skips every inode freed in the last
  /// minutes in its group (see the README), so trees sharing a group would charge each tool
  /// for the others' frees. Best effort: other file systems need no such care.
  @discardableResult
  static func keepTreesApart(_ folder: String) -> Bool {
    #if os(Linux)
      let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      let getFlags: UInt = 0x8008_6601  // FS_IOC_GETFLAGS
      let setFlags: UInt = 0x4008_6602  // FS_IOC_SETFLAGS
      let topFolder: CInt = 0x0002_0000  // FS_TOPDIR_FL
      var flags: CInt = 0
      guard ioctl(descriptor, getFlags, &flags) == 0 else { return false }
      flags |= topFolder
      return ioctl(descriptor, setFlags, &flags) == 0
    #else
      return false
    #endif
  }

  /// Runs on /dev/shm (tmpfs) when there is one, on the temporary folder's file system, and
  /// on any folders in `BUNDLEKIT_BENCH_DIRS` (colon-separated): atomic writes cost what the
  /// file system makes a new inode cost, which differs widely (see the README). tmpfs goes
  /// first, and each file system's trees are removed and written back before the next one's
  /// runs, with a pause: removing 20,000 files from a disk keeps the kernel busy on a core
  /// for a second or so after `sync`, which would take a core from the next runs (BundleKit
  /// reads and writes on both).
  ///
  /// Two measurements per file system, the tools alternating so all meet the same state:
  /// - a new tree for every tool and run (as a CI job meets its checkout, or a developer a
  ///   tree last bumped minutes ago): the issue's target;
  /// - one tree per tool bumped five times back to back, where on ext4 without a journal
  ///   each all-or-nothing batch pays for the inodes the one before it freed.
  static func run() throws {
    var roots = [FileManager.default.temporaryDirectory.path]
    if FileManager.default.fileExists(atPath: "/dev/shm") { roots.insert("/dev/shm", at: 0) }
    roots += (ProcessInfo.processInfo.environment["BUNDLEKIT_BENCH_DIRS"] ?? "")
      .split(separator: ":").map(String.init)
    print("## bump: raise CFBundleVersion in \(fileCount) Info.plists (half XML, half binary)\n")
    guard let (tool, python3) = programs() else { return }
    let runs = 5
    var rows: [Bench.Row] = []
    for root in roots {
      let base = root + "/bundlekit-bench-bump-\(getpid())"
      try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
      defer {
        // Written back at once, the freed inodes count as recent for one minute, not five
        // (see keepTreesApart), so a run soon after this one meets less of them.
        try? FileManager.default.removeItem(atPath: base)
        sync()
        sleep(2)
      }
      keepTreesApart(base)
      let system = fileSystem(of: root)
      let place = "\(root) (\(system))"
      // One timed run of every tool; each starts with nothing left to write back (sync,
      // untimed), so none pays for another's dirty pages. The Python loop is told where the
      // files are (`--below`); BundleKit searches for them.
      func round(_ prefix: String, below: String = "", into times: inout [[Double]]) {
        sync()
        if let time = Bench.spawn(tool, ["bump", "build", prefix + "ours"]) {
          times[0].append(time)
        }
        let layout = below.isEmpty ? [] : ["--below=" + below]
        for (index, peer) in peers.enumerated() {
          sync()
          if let time = Bench.spawn(
            python3, [python, prefix + "peer\(index)"] + peer.mode + layout)
          {
            times[index + 1].append(time)
          }
        }
      }
      var fresh = [[Double]](repeating: [], count: peers.count + 1)
      for run in 0..<runs {
        try makeTrees(base + "/new\(run)-")
        round(base + "/new\(run)-", into: &fresh)
      }
      var first = row("\(fileCount) files in \(place), a new tree each run", fresh)
      if system == "ext4, no journal" {
        first.note = "new inodes skip those freed in the last minutes: run on a quiet disk"
      }
      rows.append(first)
      var repeated = [[Double]](repeating: [], count: peers.count + 1)
      try makeTrees(base + "/same-")
      for _ in 0..<runs { round(base + "/same-", into: &repeated) }
      rows.append(row("the same, one tree bumped \(runs) times back to back", repeated))
      // Deeper, as apps keep them: in memory only (the walk's work, not the disk's).
      if root == roots.first {
        var deep = [[Double]](repeating: [], count: peers.count + 1)
        for run in 0..<runs {
          try makeTrees(base + "/deep\(run)-", below: deepLayout)
          round(base + "/deep\(run)-", below: deepLayout, into: &deep)
        }
        rows.append(row("the same in Target*/\(deepLayout), a new tree each run", deep))
      }
      for (tree, expected) in [
        ("new0-ours/Target1", 2), ("same-ours/Target1", runs + 1),
        ("deep0-ours/Target1/\(deepLayout)", 2), ("deep0-peer1/Target1/\(deepLayout)", 2),
      ] {
        let file = "\(base)/\(tree)/Info.plist"
        guard FileManager.default.fileExists(atPath: file) else { continue }
        let value = try PropertyListDocument(contentsOfFile: file)
          .value["CFBundleVersion"]?.stringValue
        print("\(root): \(tree) holds CFBundleVersion \(value ?? "?") (expected \(expected))")
      }
    }
    print()
    Bench.printTable(
      title: "bump build: every tool writes a temporary file and renames it; BundleKit also "
        + "locks each folder and flushes once per batch (medians of \(runs) runs)",
      peers: peers.map(\.name), rows: rows)
  }

  /// A table row from each tool's times (BundleKit first): their medians.
  static func row(_ work: String, _ times: [[Double]]) -> Bench.Row {
    let medians = times.map { $0.isEmpty ? nil : $0.sorted()[$0.count / 2] }
    return Bench.Row(work: work, ours: medians[0] ?? .nan, peers: Array(medians.dropFirst()))
  }

  /// The file system type of the mount holding `path`, from /proc/mounts.
  static func fileSystem(of path: String) -> String {
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else {
      return "?"
    }
    var best = (point: "", type: "?", device: "")
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count > 2 else { continue }
      let point = String(fields[1])
      if path == point || path.hasPrefix(point == "/" ? "/" : point + "/"),
        point.count > best.point.count
      {
        best = (point, String(fields[2]), String(fields[0]))
      }
    }
    // ext4 without a journal makes each new inode skip every inode freed in the last minutes.
    if best.type == "ext4" {
      let device = Paths.lastComponent(best.device)
      let journals = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/fs/jbd2")) ?? []
      return journals.contains { $0.hasPrefix(device + "-") } ? "ext4" : "ext4, no journal"
    }
    return best.type
  }
}
