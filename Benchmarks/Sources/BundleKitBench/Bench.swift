import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// Timing, peers run as processes, and the markdown table.
enum Bench {
  /// Median wall time of `body` over `runs` runs, after one warm-up.
  static func median(runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    for _ in 0..<runs {
      let start = ContinuousClock.now
      try body()
      times.append(seconds(ContinuousClock.now - start))
    }
    return times.sorted()[times.count / 2]
  }

  static func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) / 1e18
  }

  /// Full path of an executable on PATH, if any.
  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// The Python interpreter that `python3` on PATH runs, by its own path (`sys.executable`),
  /// or nil when there is none. A peer timed as a whole process must not carry a launcher's
  /// cost: pyenv's `python3` is a shim, a bash script that runs `pyenv` to choose the
  /// interpreter, which added about 55 ms to every start on the benchmark machine (the Python
  /// bump loop's 225 ms held 55 ms of it until 2026-12-06).
  static let python3: String? = {
    guard let launcher = which("python3"),
      let output = run(launcher, ["-c", "import sys; print(sys.executable)"])
    else { return nil }
    let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.isExecutableFile(atPath: path) ? path : launcher
  }()

  /// Runs a process to completion; returns its standard output, or nil when it fails.
  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) -> String? {
    guard let result = ToolOutput.run([executable] + arguments), result.status == 0 else {
      return nil
    }
    return String(decoding: result.output, as: UTF8.self)
  }

  /// Median wall time of a whole process run (start-up included), or nil when it fails.
  /// Started with posix_spawn and output sent to /dev/null, so the timing holds the
  /// program's own work, not Foundation's Process and pipe handling.
  static func medianProcess(runs: Int = 5, _ executable: String, _ arguments: [String]) -> Double? {
    guard spawn(executable, arguments) != nil else { return nil }
    var times: [Double] = []
    for _ in 0..<runs {
      guard let time = spawn(executable, arguments) else { return nil }
      times.append(time)
    }
    return times.sorted()[times.count / 2]
  }

  /// The BundleKit checkout these benchmarks live in (`Benchmarks/Sources/BundleKitBench`
  /// is four folders below it).
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The path of a file in the package's Scripts folder (the peers some suites run).
  static func script(_ name: String) -> String {
    repository.appendingPathComponent("Scripts/" + name).path
  }

  /// How to build the `bundlekit` the whole-command rows run: as `make install` builds it (on
  /// Linux with the Swift runtime linked in, as the artifact bundle ships it).
  static let buildHint =
    "make build at the top (swift build -c release --product bundlekit --static-swift-stdlib on Linux)"

  /// The `bundlekit` the whole-command rows run: `BUNDLEKIT_TOOL`, else the root package's
  /// release build (``buildHint``), else one beside this executable.
  static var bundlekit: String {
    if let tool = ProcessInfo.processInfo.environment["BUNDLEKIT_TOOL"], !tool.isEmpty {
      return tool
    }
    let root = repository.appendingPathComponent(".build/release/bundlekit").path
    if FileManager.default.isExecutableFile(atPath: root) { return root }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("bundlekit").path
  }

  /// Runs a program to completion with posix_spawn; its wall time, or nil when it fails.
  static func spawn(_ executable: String, _ arguments: [String]) -> Double? {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = seconds(ContinuousClock.now - start)
    return status == 0 ? elapsed : nil
  }

  static func format(_ seconds: Double?) -> String {
    guard let seconds else { return "n/a" }
    if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.1f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
  }

  static func ratio(_ peer: Double?, _ ours: Double) -> String {
    guard let peer else { return "n/a" }
    return String(format: "%.1fx", peer / ours)
  }

  /// One row: our time, then each peer's time and its ratio to ours (peer / ours, higher is
  /// better for us).
  struct Row {
    var work: String
    var ours: Double
    var peers: [Double?]
    var note: String = ""
  }

  static func printTable(title: String, peers: [String], rows: [Row]) {
    print("### \(title)\n")
    var header = "| work | BundleKit |"
    var rule = "|---|---:|"
    for peer in peers {
      header += " \(peer) | ratio |"
      rule += "---:|---:|"
    }
    header += " notes |"
    rule += "---|"
    print(header)
    print(rule)
    for row in rows {
      var line = "| \(row.work) | \(format(row.ours)) |"
      for peer in row.peers {
        line += " \(format(peer)) | \(ratio(peer, row.ours)) |"
      }
      line += " \(row.note) |"
      print(line)
    }
    print("\nratio = peer time / BundleKit time (higher is faster for BundleKit).\n")
  }
}
