import Foundation
import PropertyList

/// The `bump` suite: `bundlekit bump build` on 1,000 Info.plists (half XML, half binary)
/// against a one-process Python plistlib loop that does the same with an atomic replace.
enum BumpSuite {
  static let fileCount = 1_000

  static let python = """
    import os, plistlib, sys, tempfile
    root = sys.argv[1]
    durable = len(sys.argv) > 2
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder, 'Info.plist')
        if not os.path.exists(path): continue
        with open(path, 'rb') as f: data = f.read()
        fmt = plistlib.FMT_BINARY if data.startswith(b'bplist') else plistlib.FMT_XML
        value = plistlib.loads(data)
        value['CFBundleVersion'] = str(int(value['CFBundleVersion']) + 1)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, 'wb') as f:
            plistlib.dump(value, f, fmt=fmt, sort_keys=False)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(temporary, path)
    """

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

  static func run() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-bench-bump-\(getpid())"
    ).path
    defer { try? FileManager.default.removeItem(atPath: base) }
    try makeTree(base + "/ours")
    try makeTree(base + "/python")
    try makeTree(base + "/durable")
    print("## bump: raise CFBundleVersion in \(fileCount) Info.plists (half XML, half binary)\n")
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("bundlekit").path
    guard FileManager.default.isExecutableFile(atPath: tool), let python3 = Bench.which("python3")
    else {
      print("needs the bundlekit product and python3\n")
      return
    }
    // Alternate the two, so both meet the same file-system state.
    var ours: [Double] = []
    var theirs: [Double] = []
    var durable: [Double] = []
    // Each run starts with nothing left to write back (sync, untimed), so none pays for the
    // dirty pages another left behind.
    for _ in 0..<5 {
      sync()
      if let time = Bench.spawn(tool, ["bump", "build", base + "/ours"]) { ours.append(time) }
      sync()
      if let time = Bench.spawn(python3, ["-c", python, base + "/python"]) { theirs.append(time) }
      sync()
      if let time = Bench.spawn(python3, ["-c", python, base + "/durable", "fsync"]) {
        durable.append(time)
      }
    }
    let median = { (times: [Double]) -> Double? in
      times.isEmpty ? nil : times.sorted()[times.count / 2]
    }
    Bench.printTable(
      title: "bump", peers: ["plistlib, fsync per file", "plistlib, no fsync"],
      rows: [
        Bench.Row(
          work: "bump build, \(fileCount) files, atomic writes", ours: median(ours) ?? .nan,
          peers: [median(durable), median(theirs)],
          note:
            "all write a temporary file and rename it; BundleKit also locks, and flushes once per batch"
        )
      ])
    let check = try PropertyListDocument(contentsOfFile: base + "/ours/Target1/Info.plist").value[
      "CFBundleVersion"]
    print("after 6 runs, ours holds CFBundleVersion \(check?.stringValue ?? "?") (expected 6)\n")
  }
}
