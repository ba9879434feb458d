import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// The `lookup` suite: exact lookups over HTTP on loopback with `wrk`, against
/// `bundlekit translate serve` and a peer serving the same memory from Python's standard
/// library (Scripts/libretranslate-peer.py); plus the time to index the home-assistant corpus.
enum LookupSuite {
  static let corpus = "../shared/corpus/home-assistant-ios"

  static func run() throws {
    print("## lookup: translation memory over HTTP (wrk, 1 thread, 32 connections, 5 s)\n")
    // Built by its own package: Packages/BundleKitTranslate (release), or BUNDLEKIT_TRANSLATE.
    let tool =
      ProcessInfo.processInfo.environment["BUNDLEKIT_TRANSLATE"]
      ?? URL(
        fileURLWithPath: Bench.script(
          "../Packages/BundleKitTranslate/.build/release/bundlekit-translate")
      )
      .standardizedFileURL.path
    guard FileManager.default.isExecutableFile(atPath: tool), let wrk = Bench.which("wrk"),
      let python = Bench.python3, FileManager.default.fileExists(atPath: corpus)
    else {
      print(
        "needs bundlekit-translate (swift build -c release --package-path Packages/BundleKitTranslate), wrk, python3 and \(corpus)\n"
      )
      return
    }
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-bench-lookup-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    let memory = base + "/ha.sqlite"
    let indexTime = Bench.medianProcess(runs: 3, tool, ["index", corpus, "-o", memory])
    print("index of \(corpus) (35 languages, 137 files): \(Bench.format(indexTime))\n")

    // Requests that cycle through real texts and keys of the corpus.
    let english = try PropertyListValue(
      bytes: FileIO.read(corpus + "/en.lproj/Localizable.strings"), format: nil)
    let entries = (english.dictionaryValue ?? [:]).prefix(1000).compactMap { key, value in
      value.stringValue.map { (key, $0) }
    }
    let translateScript = base + "/translate.lua"
    try Load.postScript(
      bodies: entries.map { _, value in
        "{\"q\":\(jsonString(value)),\"source\":\"en\",\"target\":\"de\"}"
      }
    ).write(toFile: translateScript, atomically: true, encoding: .utf8)
    let lookupScript = base + "/lookup.lua"
    try
      ("local paths = {\n"
      + entries.map { key, _ in
        "  " + Load.luaString("/lookup?key=\(MemoryAtScale.percentEncoded(key))&lang=de")
      }
      .joined(separator: ",\n")
        + """

        }
        local i = 0
        request = function()
          i = i % #paths + 1
          return wrk.format("GET", paths[i])
        end
        """).write(toFile: lookupScript, atomically: true, encoding: .utf8)

    let peerScript = Bench.script("libretranslate-peer.py")
    guard let ours = Server.start(tool, ["serve", "--memory", memory, "--port", "0"]),
      let peer = Server.start(python, [peerScript, memory, String(freePort())])
    else {
      print("a server did not start\n")
      return
    }
    print("| request | BundleKit req/s | p99 | Python peer req/s | p99 | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    let scripts = [
      ("POST /translate (exact text, en → de)", translateScript, "/translate"),
      ("GET /lookup (key, lang=de)", lookupScript, "/lookup"),
    ]
    var sqlite: [String: Load.Result] = [:]
    for (name, script, path) in scripts {
      let mine = Load.run(wrk, url: ours.url + path, script: script)
      sqlite[path] = mine
      Load.row(name, mine, Load.run(wrk, url: peer.url + path, script: script))
    }
    print("\nratio = BundleKit requests/s / peer requests/s (higher is faster for BundleKit).\n")
    ours.stop()
    peer.stop()
    MemoryAtScale.run(tool: tool, wrk: wrk, base: base, scripts: scripts, sqlite: sqlite)
  }

  static func jsonString(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }
}

/// A server process whose first line on standard output is its URL.
final class Server {
  let process: Process
  let url: String

  private init(process: Process, url: String) {
    self.process = process
    self.url = url
  }

  static func start(_ executable: String, _ arguments: [String]) -> Server? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let url = ToolOutput.firstLine(of: output)
    guard url.hasPrefix("http") else {
      process.terminate()
      return nil
    }
    return Server(process: process, url: url)
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// One wrk run: requests per second and the 99th percentile latency as wrk prints it.
enum Load {
  struct Result {
    var rate: Double
    var p99: String
  }

  /// A Lua script for wrk that POSTs `bodies` (JSON) in turn.
  static func postScript(bodies: [String]) -> String {
    "local bodies = {\n" + bodies.map { "  " + luaString($0) }.joined(separator: ",\n")
      + """

      }
      local i = 0
      wrk.method = "POST"
      wrk.headers["Content-Type"] = "application/json"
      request = function()
        i = i % #bodies + 1
        return wrk.format(nil, nil, nil, bodies[i])
      end
      """
  }

  /// `text` as a Lua string literal: printable ASCII as it is, every other byte escaped.
  static func luaString(_ text: String) -> String {
    "\""
      + text.unicodeScalars.map { scalar -> String in
        switch scalar {
        case "\\": return "\\\\"
        case "\"": return "\\\""
        case _ where scalar.value < 0x20 || scalar.value > 0x7E:
          return Array(String(scalar).utf8).map { "\\\($0)" }.joined()
        default: return String(scalar)
        }
      }.joined() + "\""
  }

  /// One markdown row: ours, the other side and their ratio.
  static func row(_ name: String, _ mine: Result?, _ theirs: Result?) {
    var ratio = "n/a"
    if let mine, let theirs { ratio = String(format: "%.2fx", mine.rate / theirs.rate) }
    print(
      "| \(name) | \(mine.map { String(format: "%.0f", $0.rate) } ?? "n/a") | "
        + "\(mine?.p99 ?? "n/a") | \(theirs.map { String(format: "%.0f", $0.rate) } ?? "n/a") | "
        + "\(theirs?.p99 ?? "n/a") | \(ratio) |")
  }

  static func run(
    _ wrk: String, url: String, script: String, connections: Int = 32, seconds: Int = 5,
    warmUp: Bool = true
  ) -> Result? {
    // A second of the same requests first, so that "cached" rows measure a warm cache on
    // every server alike (one that asks a database for its misses pays more for them).
    if warmUp {
      _ = Bench.run(
        wrk, ["-t1", "-c\(connections)", "-d1s", "--timeout", "10s", "-s", script, url])
    }
    guard
      let output = Bench.run(
        wrk,
        [
          "-t1", "-c\(connections)", "-d\(seconds)s", "--timeout", "10s", "--latency", "-s", script,
          url,
        ])
    else { return nil }
    var rate: Double?
    var p99 = "n/a"
    var errors = false
    for line in output.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if line.hasPrefix("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) {
        rate = value
      }
      if fields.first == "99%", let value = fields.last { p99 = String(value) }
      if line.contains("Non-2xx") || line.contains("Socket errors") { errors = true }
    }
    guard let rate else { return nil }
    return Result(rate: rate, p99: errors ? p99 + " (errors)" : p99)
  }
}

/// A loopback port nobody is using now (the Python peer takes a port number, not 0).
func freePort() -> Int {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
      bind(descriptor, pointer, length) == 0 ? getsockname(descriptor, pointer, &length) : -1
    }
  }
  return Int(UInt16(bigEndian: address.sin_port))
}
