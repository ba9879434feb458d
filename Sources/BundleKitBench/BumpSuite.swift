import Foundation
import PropertyList

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

  static func makeTree(_ root: String) throws {
    for index in 0..<fileCount {
      let value: PropertyListValue = [
        "CFBundleIdentifier": .string("com.example.target\(index)"),
        "CFBundleName": .string("Target\(index)"),
        "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "LSRequiresIPhoneOS": true,
        "UIRequiredDeviceCapabilities": ["arm64"],
      ]
      let path = "\(root)/Target\(index)/Info.plist"
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(try value.encoded(as: index % 2 == 0 ? .xml1 : .binary1), to: path)
    }
  }

  /// The `bundlekit` beside this benchmark and python3, or nil (said) when one is missing.
  static func programs() -> (tool: String, python3: String)? {
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("bundlekit").path
    guard FileManager.default.isExecutableFile(atPath: tool), let python3 = Bench.which("python3")
    else {
      print("needs the bundlekit product and python3\n")
      return nil
    }
    return (tool, python3)
  }

  /// One tree for BundleKit (`ours`) and one per Python peer (`peer0`...) under `base`.
  static func makeTrees(_ base: String) throws {
    try makeTree(base + "/ours")
    for index in peers.indices { try makeTree(base + "/peer\(index)") }
  }

  /// Runs on the temporary folder's file system, on /dev/shm (tmpfs) when there is one, and
  /// on any folders in `BUNDLEKIT_BENCH_DIRS` (colon-separated): atomic writes cost what the
  /// file system makes a new inode cost, which differs widely (see the README).
  static func run() throws {
    var roots = [FileManager.default.temporaryDirectory.path]
    if FileManager.default.fileExists(atPath: "/dev/shm") { roots.append("/dev/shm") }
    roots += (ProcessInfo.processInfo.environment["BUNDLEKIT_BENCH_DIRS"] ?? "")
      .split(separator: ":").map(String.init)
    print("## bump: raise CFBundleVersion in \(fileCount) Info.plists (half XML, half binary)\n")
    guard let (tool, python3) = programs() else { return }
    var rows: [Bench.Row] = []
    for root in roots {
      let base = root + "/bundlekit-bench-bump-\(getpid())"
      defer { try? FileManager.default.removeItem(atPath: base) }
      try makeTrees(base)
      // Alternate the tools, so all meet the same file-system state. Each run starts with
      // nothing left to write back (sync, untimed), so none pays for another's dirty pages.
      var ours: [Double] = []
      var theirs = [[Double]](repeating: [], count: peers.count)
      for _ in 0..<5 {
        sync()
        if let time = Bench.spawn(tool, ["bump", "build", base + "/ours"]) { ours.append(time) }
        for (index, peer) in peers.enumerated() {
          sync()
          if let time = Bench.spawn(python3, [python, base + "/peer\(index)"] + peer.mode) {
            theirs[index].append(time)
          }
        }
      }
      let median = { (times: [Double]) -> Double? in
        times.isEmpty ? nil : times.sorted()[times.count / 2]
      }
      rows.append(
        Bench.Row(
          work: "\(fileCount) files in \(root) (\(fileSystem(of: root)))",
          ours: median(ours) ?? .nan, peers: theirs.map(median)))
      let check = try PropertyListDocument(contentsOfFile: base + "/ours/Target1/Info.plist")
        .value["CFBundleVersion"]
      print(
        "\(root): after 6 runs, ours holds CFBundleVersion \(check?.stringValue ?? "?") (expected 6)"
      )
    }
    print()
    Bench.printTable(
      title: "bump build: every tool writes a temporary file and renames it; BundleKit also "
        + "locks each folder and flushes once per batch",
      peers: peers.map(\.name), rows: rows)
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

  /// `bump-settled`: one bump per tool on the temporary folder's file system, each on a new
  /// tree of its own and after 65 s with nothing written: a first run, as a CI job meets its
  /// checkout, without the inodes the other tools just freed (on ext4 without a journal each
  /// new inode skips those; see the README and Scripts/bench-bump-repeated.sh). Takes about
  /// five minutes.
  static func runSettled() throws {
    let root = FileManager.default.temporaryDirectory.path
    print(
      "## bump, settled: one run each, 65 s after the last write, in \(root) (\(fileSystem(of: root)))\n"
    )
    guard let (tool, python3) = programs() else { return }
    let base = root + "/bundlekit-bench-bump-settled-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: base) }
    try makeTrees(base)
    func settled(_ executable: String, _ arguments: [String]) -> Double? {
      sync()
      sleep(65)
      return Bench.spawn(executable, arguments)
    }
    let ours = settled(tool, ["bump", "build", base + "/ours"])
    let theirs = peers.enumerated().map { index, peer in
      settled(python3, [python, base + "/peer\(index)"] + peer.mode)
    }
    Bench.printTable(
      title: "bump build, settled", peers: peers.map(\.name),
      rows: [
        Bench.Row(work: "\(fileCount) files, one run each", ours: ours ?? .nan, peers: theirs)
      ])
  }
}
