import Foundation

/// The lookup suite's second half: the same exact lookups served from PostgreSQL, and fuzzy
/// lookups on a memory of a million entries from both backends. PostgreSQL runs in a
/// throwaway cluster (Scripts/throwaway-postgres.sh); without it the rows say so.
enum MemoryAtScale {
  /// Exact lookups against `serve --database`, beside the SQLite rows already printed.
  static func run(
    tool: String, wrk: String, base: String,
    scripts: [(name: String, script: String, path: String)],
    sqlite: [String: Load.Result]
  ) {
    guard let cluster = Cluster(folder: base + "/pg") else {
      print("PostgreSQL rows skipped: Scripts/throwaway-postgres.sh could not start a cluster\n")
      return
    }
    defer { cluster.stop() }
    guard Bench.run(tool, ["index", LookupSuite.corpus, "--database", cluster.url]) != nil,
      let server = Server.start(tool, ["serve", "--database", cluster.url, "--port", "0"])
    else {
      print("PostgreSQL rows skipped: indexing or serving failed\n")
      return
    }
    print("| request | PostgreSQL req/s | p99 | SQLite req/s | p99 | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for (name, script, path) in scripts {
      Load.row(name, Load.run(wrk, url: server.url + path, script: script), sqlite[path])
    }
    print("\nratio = PostgreSQL requests/s / SQLite requests/s.\n")
    server.stop()
    fuzzy(tool: tool, wrk: wrk, base: base, cluster: cluster)
  }

  /// A million entries made of the corpus's English words, and queries that change one word of
  /// an entry, so that every answer is fuzzy and none is cached.
  static func fuzzy(tool: String, wrk: String, base: String, cluster: Cluster) {
    let entries = 1_000_000
    print("## lookup: fuzzy, \(entries) entries (wrk, 1 thread, 8 connections, 10 s)\n")
    let folder = base + "/big"
    var random = MorseSuite.Generator(state: 0x0B0B)  // the same million entries every run
    let words = vocabulary()
    guard words.count > 100 else { return }
    func sentence() -> [String] {
      (0..<Int.random(in: 4...9, using: &random)).map { _ in
        words[Int.random(in: 0..<words.count, using: &random)]
      }
    }
    var english = ""
    var german = ""
    var queries: [String] = []
    english.reserveCapacity(entries * 60)
    for index in 0..<entries {
      var text = sentence()
      english += "\"k\(index)\" = \"\(text.joined(separator: " "))\";\n"
      german += "\"k\(index)\" = \"\(text.reversed().joined(separator: " "))\";\n"
      if index % 50 == 0 {
        text[Int.random(in: 0..<text.count, using: &random)] =
          words[Int.random(in: 0..<words.count, using: &random)]
        queries.append(text.joined(separator: " "))
      }
    }
    do {
      for (language, text) in [("en", english), ("de", german)] {
        try FileManager.default.createDirectory(
          atPath: "\(folder)/\(language).lproj", withIntermediateDirectories: true)
        try text.write(
          toFile: "\(folder)/\(language).lproj/Big.strings", atomically: true, encoding: .utf8)
      }
      // GET /matches (fuzzy; /translate gives exact matches only), with a counter appended to
      // each query so that no answer comes from a cache.
      let script = base + "/fuzzy.lua"
      try
        ("local paths = {\n"
        + queries.map {
          "  " + Load.luaString("/matches?source=en&target=de&q=" + percentEncoded($0))
        }
        .joined(separator: ",\n")
          + """

          }
          local i = 0
          request = function()
            i = i + 1
            return wrk.format("GET", paths[i % #paths + 1] .. "%20n" .. i)
          end
          """).write(toFile: script, atomically: true, encoding: .utf8)
      let file = base + "/big.sqlite"
      let sqliteIndex = Bench.medianProcess(runs: 1, tool, ["index", folder, "-o", file])
      let start = ContinuousClock.now
      let indexed = Bench.run(
        tool, ["index", folder, "--database", cluster.url, "--project", "big"])
      let postgresIndex = indexed == nil ? nil : Bench.seconds(ContinuousClock.now - start)
      print(
        "index of \(entries) entries in 2 languages: SQLite \(Bench.format(sqliteIndex)), PostgreSQL \(Bench.format(postgresIndex))\n"
      )
      print("| backend | fuzzy req/s (GET /matches, uncached) | p99 | index ready after |")
      print("|---|---:|---:|---:|")
      for (name, arguments) in [
        ("SQLite (preloaded)", ["--memory", file]),
        ("PostgreSQL (replica's index)", ["--database", cluster.url]),
        ("PostgreSQL (pg_trgm only)", ["--database", cluster.url, "--fuzzy-from-database"]),
      ] {
        guard let server = Server.start(tool, ["serve"] + arguments + ["--port", "0"]) else {
          print("| \(name) | did not start | | |")
          continue
        }
        defer { server.stop() }
        // The first fuzzy lookup of a language builds its index (a PostgreSQL replica's in the
        // background, answering through pg_trgm meanwhile): wait until /health lists it.
        let started = ContinuousClock.now
        _ = Bench.run(
          "/usr/bin/curl",
          [
            "-s", "-m", "300", "-o", "/dev/null",
            server.url + "/matches?source=en&target=de&q=warm%20up",
          ])
        while !arguments.contains("--fuzzy-from-database"),
          ContinuousClock.now - started < .seconds(300),
          Bench.run("/usr/bin/curl", ["-s", "-m", "10", server.url + "/health"])?.contains(
            "\"fuzzyIndexes\":[\"en\"") != true
        {
          Thread.sleep(forTimeInterval: 0.2)
        }
        let ready =
          arguments.contains("--fuzzy-from-database")
          ? "—" : Bench.format(Bench.seconds(ContinuousClock.now - started))
        let result = Load.run(
          wrk, url: server.url, script: script, connections: 8, seconds: 10, warmUp: false)
        print(
          "| \(name) | \(result.map { String(format: "%.0f", $0.rate) } ?? "n/a") | \(result?.p99 ?? "n/a") | \(ready) |"
        )
      }
      print("")
      if let note = schedulingNote() { print(note + "\n") }
    } catch {
      print("fuzzy rows skipped: \(error)\n")
    }
  }

  /// What the PostgreSQL rows' tail depends on, where the kernel groups processes by session
  /// (`kernel.sched_autogroup_enabled`): PostgreSQL makes every backend a session of its own,
  /// so under a load that fills the cores a backend waits for one behind the server's whole
  /// group (Benchmarks/README.md, "the PostgreSQL tail").
  static func schedulingNote() -> String? {
    guard
      let setting = try? String(
        contentsOfFile: "/proc/sys/kernel/sched_autogroup_enabled", encoding: .utf8)
    else { return nil }
    let enabled = setting.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    return "kernel.sched_autogroup_enabled = \(enabled ? 1 : 0): "
      + (enabled
        ? "each PostgreSQL backend is a session, and a scheduling group, of its own, and waits "
          + "for a core behind the server's session (fuzzy lookups' questions are asked "
          + "together, so that backends wake less often)"
        : "PostgreSQL's backends and the server share the cores thread by thread")
  }

  static func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }

  /// The distinct plain words of the corpus's English table.
  static func vocabulary() -> [String] {
    let text =
      (try? String(
        contentsOfFile: LookupSuite.corpus + "/en.lproj/Localizable.strings", encoding: .utf8))
      ?? ""
    var seen = Set<String>()
    var words: [String] = []
    for word in text.split(whereSeparator: { !$0.isLetter }) where word.count > 2 {
      let word = word.lowercased()
      if seen.insert(word).inserted { words.append(word) }
    }
    return words.sorted()
  }

  /// The throwaway cluster.
  final class Cluster {
    let folder: String
    let url: String

    init?(folder: String) {
      let script = Bench.script("throwaway-postgres.sh")
      guard
        let url = Bench.run("/bin/bash", [script, "start", folder])?
          .trimmingCharacters(in: .whitespacesAndNewlines), url.hasPrefix("postgres://")
      else { return nil }
      self.folder = folder
      self.url = url
    }

    func stop() { Bench.run("/bin/bash", [Bench.script("throwaway-postgres.sh"), "stop", folder]) }
  }
}
