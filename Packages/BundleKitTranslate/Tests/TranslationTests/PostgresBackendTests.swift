// Linux only: the cluster is Debian's PostgreSQL, run as the `postgres` user when the tests
// run as root, with descriptors closed through /proc. CI runs on Linux.
#if os(Linux)
  import BundleKitFileSystem
  import BundleKitTestSupport
  import Foundation
  import Testing
  import BundleKitTranslation
  import BundleKitTranslationPostgres

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// The PostgreSQL backend against a throwaway cluster: the same answers as SQLite, writes all
  /// or nothing through crashes, writers that take turns, replicas that see each other's
  /// writes, 503 while the database is down.
  /// One cluster for the suite (``SharedCluster``); a test that kills or restarts the database
  /// starts one of its own.
  @Suite("PostgreSQL memory", .serialized, SharedCluster())
  struct PostgresBackendTests {
    /// The corpus's tables as records, in two projects (by bundle), read once.
    static let corpus: [TranslationRecord] = {
      var builder = MemoryBuilder(developmentLanguage: "en")
      builder.project = "corpus"
      var records = (try? builder.records(from: corpusFolders.map(Corpus.path)).records) ?? []
      for index in records.indices where records[index].bundle.contains("home-assistant") {
        records[index].project = "home"
      }
      return records
    }()

    /// Whether the corpus folders `corpus` reads are beside the clone.
    static let corpusFolders = [
      "icecubes-xcstrings", "home-assistant-ios", "xcstrings-tool-fixtures",
    ]

    @Test("index replaces one project's entries; import merges; TMX export and import round-trip")
    func projectsAndExchange() async throws {
      // The suite's cluster, in a database of its own.
      let cluster = try #require(SharedCluster.current)
      let database = "tm_exchange"
      let (url, fixture) = try Self.indexedFixture(
        ["--project", "app"], in: cluster, database: database)
      var result: CommandResult
      result = try BundleKitTool.run([
        "translate", "index", fixture.folder.file("Kit"), "--database", url, "--project", "kit",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let both = try cluster.psql(
        "SELECT project, count(*) FROM bundlekit_units GROUP BY project ORDER BY 1",
        database: database)
      #expect(both.split(separator: "\n").count == 2, "\(both)")
      // Indexing app again replaces app's entries only.
      result = try BundleKitTool.run([
        "translate", "index", fixture.folder.file("App"), "--database", url, "--project", "app",
      ])
      #expect(
        try cluster.psql(
          "SELECT project, count(*) FROM bundlekit_units GROUP BY project ORDER BY 1",
          database: database)
          == both)
      // The same answers as the file memory of the same tables.
      let file = fixture.folder.file("same.sqlite")
      for (project, folder) in [("app", "App"), ("kit", "Kit")] {
        _ = try BundleKitTool.run([
          "translate", "index", fixture.folder.file(folder), "-o", file + project, "--project",
          project,
        ])
      }
      let fromFile = try BundleKitTool.run([
        "translate", "lookup", "Cancel", "--to", "de", "--memory", file + "app", "--project", "app",
        "--format", "json",
      ])
      let fromDatabase = try BundleKitTool.run([
        "translate", "lookup", "Cancel", "--to", "de", "--database", url, "--project", "app",
        "--format", "json",
      ])
      #expect(fromDatabase.status == 0, "\(fromDatabase.stderr)")
      #expect(fromFile.stdout == fromDatabase.stdout)

      // TMX out of PostgreSQL, into a second database, out again: the same bytes.
      let tmx = fixture.folder.file("out.tmx")
      result = try BundleKitTool.run(["translate", "export", "--tmx", tmx, "--database", url])
      #expect(result.status == 0, "\(result.stderr)")
      _ = try cluster.database("copy")
      result = try BundleKitTool.run([
        "translate", "import", tmx, "--database", cluster.url("copy"),
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let again = fixture.folder.file("again.tmx")
      _ = try BundleKitTool.run([
        "translate", "export", "--tmx", again, "--database", cluster.url("copy"),
      ])
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: tmx))
          == Data(contentsOf: URL(fileURLWithPath: again)))

      // A malformed file writes nothing.
      let bad = fixture.folder.file("bad.tmx")
      try Data("<tmx version=\"1.4\"><header srclang=\"en\"/><body><tu>".utf8).write(
        to: URL(fileURLWithPath: bad))
      let before = try cluster.psql(
        "SELECT value FROM bundlekit_meta WHERE name = 'generation'", database: database)
      result = try BundleKitTool.run(["translate", "import", bad, "--database", url])
      #expect(result.status == 1)
      #expect(result.stderr.contains("bad.tmx:1:"), "\(result.stderr)")
      #expect(
        try cluster.psql(
          "SELECT value FROM bundlekit_meta WHERE name = 'generation'", database: database)
          == before)

      // A schema-2 memory (projects in a hash index) is brought to 3 (a B-tree), rows kept.
      let projectIndex =
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'bundlekit_units_by_project'"
      #expect(try cluster.psql(projectIndex, database: database).contains("btree"))
      let rows = try cluster.psql("SELECT count(*) FROM bundlekit_translations", database: database)
      try cluster.psql(
        """
        DROP INDEX bundlekit_units_by_project;
        CREATE INDEX bundlekit_units_by_project ON bundlekit_units USING hash (project);
        UPDATE bundlekit_meta SET value = '2' WHERE name = 'schema'
        """, database: database)
      result = try BundleKitTool.run(["translate", "migrate", "--database", url])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("schema 2 -> 3"), "\(result.stdout)")
      #expect(try cluster.psql(projectIndex, database: database).contains("btree"))
      #expect(
        try cluster.psql("SELECT count(*) FROM bundlekit_translations", database: database) == rows)

      // A newer layout is refused with a clear message.
      try cluster.psql(
        "UPDATE bundlekit_meta SET value = '99' WHERE name = 'schema'", database: database)
      result = try BundleKitTool.run([
        "translate", "lookup", "Cancel", "--to", "de", "--database", url,
      ])
      #expect(result.status == 1)
      #expect(result.stderr.contains("newer bundlekit-translate (schema 99"), "\(result.stderr)")
    }

    @Test(
      "import with the database killed at random moments: all or nothing, then it goes on",
      .enabled(if: corpusFolders.allSatisfy(Corpus.has), Corpus.reason("home-assistant-ios")))
    func crashDuringImport() async throws {
      let cluster = try await PostgresCluster.started()
      defer { cluster.stop() }
      _ = try cluster.database("tm")
      let url = cluster.url("tm")
      let folder = try TemporaryFolder()
      let file = folder.file("big.sqlite")
      _ = try MemoryBuilder(developmentLanguage: "en").build(
        records: Self.corpus, files: 0, to: file)
      let tmx = folder.file("big.tmx")
      try MemoryExchange.exportTMX(memory: file, to: tmx, toolVersion: "test")
      let tool = try #require(BundleKitTool.path)
      let helper = (tool as NSString).deletingLastPathComponent + "/bundlekit-translate"
      // An empty memory at the current schema, so that the count below reads a table.
      let migrated = try BundleKitTool.run(["translate", "migrate", "--database", url])
      #expect(migrated.status == 0, "\(migrated.stderr)")
      let seed = SeededGenerator.seed("postgres-crash")
      print("seed \(seed)")
      var random = SeededGenerator(seed: seed)
      let count = {
        try cluster.psql("SELECT count(*) FROM bundlekit_translations", database: "tm")
      }
      var crashedDuring = 0
      for _ in 0..<3 {
        let before = try count()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = ["import", tmx, "--database", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await Task.sleep(for: .milliseconds(Int.random(in: 300...4000, using: &random)))
        let running = process.isRunning
        try cluster.crash()
        process.waitWithoutSpinning()
        try cluster.start()
        let after = try count()
        if running, process.terminationStatus != 0 {
          crashedDuring += 1
          #expect(after == before, "a killed import left part of its rows")
        } else {
          #expect(process.terminationStatus == 0)
        }
      }
      #expect(crashedDuring > 0, "no import was under way when the database was killed")
      // And the memory takes a whole import afterwards.
      let result = try BundleKitTool.run(["translate", "import", tmx, "--database", url])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try count() == String(Self.corpus.count - Self.duplicateCount))
    }

    /// A new cluster with database `tm` holding the fixture app, indexed by the CLI.
    static func indexedFixture(_ options: [String]) throws -> (
      PostgresCluster, String, MemoryFixture
    ) {
      let cluster = try PostgresCluster()
      let (url, fixture) = try indexedFixture(options, in: cluster, database: "tm")
      return (cluster, url, fixture)
    }

    /// Database `database` of `cluster` holding the fixture app, indexed by the CLI.
    static func indexedFixture(_ options: [String], in cluster: PostgresCluster, database: String)
      throws -> (String, MemoryFixture)
    {
      _ = try cluster.database(database)
      let url = cluster.url(database)
      let fixture = try MemoryFixture()
      let result = try BundleKitTool.run(
        ["translate", "index", fixture.folder.file("App"), "--database", url] + options)
      #expect(result.status == 0, "\(result.stderr)")
      return (url, fixture)
    }

    /// Records of the corpus that repeat an earlier one's unit and language.
    static var duplicateCount: Int {
      var seen = Set<String>()
      var repeats = 0
      for record in corpus {
        let identity = [
          record.project, record.bundle, record.table, record.key, record.variant, record.language,
        ].joined(separator: "\u{0}")
        if !seen.insert(identity).inserted { repeats += 1 }
      }
      return repeats
    }

    @Test("The trigrams the embedded backends count are pg_trgm's own (show_trgm), text by text")
    func trigramsArePostgres() throws {
      let cluster = try #require(SharedCluster.current)
      let database = "tm_trigrams"
      _ = try cluster.database(database)
      try cluster.psql("CREATE EXTENSION IF NOT EXISTS pg_trgm", database: database)
      let seed = SeededGenerator.seed("postgres-trigrams")
      var random = SeededGenerator(seed: seed)
      // Normalised texts of letters, digits, spaces (runs of them, at either end too), ASCII
      // punctuation and letters outside ASCII, which `encode` spells as base-36 digits.
      let characters = Array("abcxyzAZ0189    .,-'!/üéßøñ設定ドア😀")
      var texts = ["", " ", "a", "ab", "  a  b  "]
      for _ in 0..<400 {
        texts.append(
          String(
            (0..<Int.random(in: 0...40, using: &random)).map { _ in
              characters.randomElement(using: &random) ?? "a"
            }))
      }
      let encoded = texts.map(TrigramFilter.encode)
      // One query for every text, one line each in order: show_trgm's array as psql prints it
      // (`{"  a"," ab",abc}`: an element with a space quoted), with nothing else to quote.
      let literal = encoded.map { "'\($0)'" }.joined(separator: ",")
      let output = try cluster.psql(
        "SELECT show_trgm(text) FROM unnest(ARRAY[\(literal)]::text[]) WITH ORDINALITY AS t(text, n) ORDER BY n",
        database: database)
      let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
      try #require(lines.count == texts.count, "\(lines.count) lines for \(texts.count) texts")
      for (index, line) in lines.enumerated() {
        let elements = line.dropFirst().dropLast().split(separator: ",").map { element in
          element.hasPrefix("\"") ? element.dropFirst().dropLast() : element
        }
        let theirs = elements.map { element in
          element.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }.sorted()
        let ours = TrigramFilter.trigrams(ofEncoded: encoded[index])
        #expect(
          ours == theirs,
          "seed \(seed): \(texts[index].debugDescription) encoded \(encoded[index].debugDescription): show_trgm \(line)"
        )
      }
    }

    @Test("concurrent writers lose nothing")
    func concurrentWriters() async throws {
      let cluster = try #require(SharedCluster.current)
      let database = "tm_writers"
      let address = try cluster.database(database)
      // Deadlines no test here is about (see sameAnswers).
      let memory = PostgresMemory(address: address, connectDeadline: 600, queryDeadline: 600)
      try await memory.running { memory in
        try await withThrowingTaskGroup(of: Void.self) { group in
          for writer in 0..<6 {
            group.addTask {
              let records = (0..<200).map { index in
                TranslationRecord(
                  bundle: "b", table: "T", key: "k\(index)", language: "en",
                  value: "writer \(writer) text \(index)", project: "p\(writer)")
              }
              _ = try await memory.write(
                records, developmentLanguage: "en",
                replacingProject: writer.isMultiple(of: 2) ? "p\(writer)" : nil, files: 0)
            }
          }
          try await group.waitForAll()
        }
        #expect(
          try cluster.psql("SELECT count(*) FROM bundlekit_translations", database: database)
            == "1200")
        #expect(
          try cluster.psql(
            "SELECT value FROM bundlekit_meta WHERE name = 'generation'", database: database) == "6"
        )
      }
    }

    @Test("two servers on one database see a write without a restart; 503 while it is down")
    func replicasAndRestart() async throws {
      let (cluster, url, fixture) = try Self.indexedFixture([])
      defer { cluster.stop() }
      var result: CommandResult
      let servers = try [ServerProcess(database: url), ServerProcess(database: url)]
      defer { for server in servers { server.stop() } }
      let text = "A text nobody translated yet"
      for server in servers {
        let answer = try await server.translate(text, to: "de")
        #expect(answer.status == 200)
        #expect(answer.translation == text)  // cached now
      }
      let xliff = fixture.folder.file("new.xliff")
      try Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="en.lproj/Localizable.strings" source-language="en" target-language="de" datatype="plaintext">
            <body><trans-unit id="new.text"><source>\(text)</source><target>Ein neuer Text</target></trans-unit></body>
          </file>
        </xliff>
        """.utf8
      ).write(to: URL(fileURLWithPath: xliff))
      result = try BundleKitTool.run(["translate", "import", xliff, "--database", url])
      #expect(result.status == 0, "\(result.stderr)")
      // Each server looks for a newer generation every 0.25 s (well under a second alone);
      // the bound is wide because in CI three test bundles share two cores, and a test holds
      // no timing threshold. A server that never looks again still fails it.
      let written = ContinuousClock.now
      for server in servers {
        let seen = try await eventually(within: .seconds(30), every: .milliseconds(20)) {
          try await server.translate(text, to: "de").translation == "Ein neuer Text"
        }
        #expect(seen, "a server still answered from its cache 30 s after the write")
      }
      print("replicas saw the write after \(ContinuousClock.now - written)")

      // The database goes down: 503 with Retry-After, never a wrong 200; back up: answers.
      try cluster.crash()
      let down = try await servers[0].translate("Ein ganz anderer Text", to: "de")
      #expect(down.status == 503)
      #expect(down.retryAfter == "1")
      try cluster.start()
      let back = try await eventually(within: .seconds(60), every: .milliseconds(200)) {
        try await servers[0].translate(text, to: "de").translation == "Ein neuer Text"
      }
      #expect(back, "the server did not reconnect after the database restarted")
    }
  }

  /// `bundlekit-translate serve --database URL --port 0` in a process of its own.
  final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let url: URL

    struct Answer {
      var status: Int
      var translation: String?
      var retryAfter: String?
    }

    init(database: String, options: [String] = []) throws {
      let tool = try #require(BundleKitTool.path)
      process.executableURL = URL(
        fileURLWithPath: (tool as NSString).deletingLastPathComponent + "/bundlekit-translate")
      process.arguments = ["serve", "--database", database, "--port", "0"] + options
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      var line = Data()
      while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
        byte != Data("\n".utf8)
      {
        line += byte
      }
      url = try #require(URL(string: String(decoding: line, as: UTF8.self)))
    }

    func translate(_ text: String, to target: String) async throws -> Answer {
      let answer = try await http(
        "POST", url.appendingPathComponent("translate"),
        body: jsonBody(["q": text, "source": "en", "target": target]))
      return Answer(
        status: answer.status,
        translation: (answer.json as? [String: Any])?["translatedText"] as? String,
        retryAfter: answer.headers["retry-after"])
    }

    /// Stops the server; one that has not shut down 15 s after SIGTERM is a failure, killed
    /// so that the run goes on.
    func stop() {
      process.terminate()
      let asked = ContinuousClock.now
      while process.isRunning, ContinuousClock.now - asked < .seconds(15) {
        Thread.sleep(forTimeInterval: 0.05)
      }
      if process.isRunning {
        Issue.record("the server did not shut down within 15 s of SIGTERM")
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitWithoutSpinning()
    }
  }

  /// The 700 queries on both backends: a suite of its own, so that the longest of the
  /// PostgreSQL tests (most of it the same lookups in a debug build) runs beside the serialized
  /// ones instead of after them; it has a cluster of its own and no timing to hold.
  @Suite("PostgreSQL memory: the same answers as SQLite")
  struct PostgresSameAnswersTests {
    @Test(
      "SQLite (file and preloaded) and PostgreSQL (pg_trgm and a replica's index) give the same answers to 700 queries",
      .enabled(
        if: PostgresBackendTests.corpusFolders.allSatisfy(Corpus.has),
        Corpus.reason("home-assistant-ios"))
    )
    func sameAnswers() async throws {
      let records = PostgresBackendTests.corpus
      try #require(records.count > 50_000, "the corpus was not read")
      let cluster = try await PostgresCluster.started()
      defer { cluster.stop() }
      let address = try cluster.database("same")
      // The deadlines are not what this test is about. It runs beside the bundle's other
      // tests, whose synchronous work can hold both threads of the cooperative pool that the
      // connection pool and the lookups run on for tens of seconds on a slow machine: a CI run
      // on two slow cores once saw "no connection within 30.0 s" here.
      let (connect, query) = (600.0, 600.0)
      let postgres = PostgresMemory(
        address: address, connectDeadline: connect, queryDeadline: query,
        fuzzyLookup: .databaseOnly)
      try await postgres.running { postgres in
        let replica = PostgresMemory(
          address: address, connectDeadline: connect, queryDeadline: query,
          fuzzyLookup: .replicaIndex)
        try await replica.running { replica in
          _ = try await postgres.write(
            records, developmentLanguage: "en", replacingProject: nil, files: 0)
          let folder = try TemporaryFolder()
          let file = folder.file("same.sqlite")
          _ = try MemoryBuilder(developmentLanguage: "en").build(
            records: records, files: 0, to: file)
          let memories = [
            ("sqlite", try TranslationMemory(path: file)),
            ("snapshot", try TranslationMemory(path: file, preload: true)),
            ("postgres", try await postgres.open()),
            ("replica", try await replica.open()),
          ]
          #expect(memories[0].1.languages == memories[2].1.languages)
          // The replica's first fuzzy lookup asks pg_trgm and starts its own index; wait for it.
          let replicaMemory = memories[3].1
          _ = try await replicaMemory.matches(for: "Open the door", to: "de")
          let indexed = try await eventually(within: .seconds(120), every: .milliseconds(50)) {
            replicaMemory.fuzzyIndexedLanguages.contains("en")
          }
          #expect(indexed)
          // A fuzzy lookup from English asks the index of each language of its chain (`Base`
          // too), in turn, building the first it lacks; once all are built, it knows from them
          // alone when no English text is the one asked for.
          let chain = try replicaMemory.fallbackChain(for: "en")
          let all = try await eventually(within: .seconds(120), every: .milliseconds(50)) {
            if Set(chain).isSubset(of: replicaMemory.fuzzyIndexedLanguages) { return true }
            _ = try await replicaMemory.matches(for: "Open the door 4711 qz", to: "de", from: "en")
            return false
          }
          #expect(all, "\(chain)")
          #expect(memories[2].1.fuzzyIndexedLanguages.isEmpty)

          let seed = SeededGenerator.seed("postgres-same-answers")
          print("seed \(seed)")
          var random = SeededGenerator(seed: seed)
          let english = Array(
            Set(records.filter { $0.language == "en" && !$0.value.isEmpty }.map(\.value))
          ).sorted()
          let keys = Array(Set(records.map(\.key))).sorted()
          let targets = [
            "de", "fr", "ru", "ja", "pt", "pt-BR", "zh-Hans", "en-GB", "es", "it", "ko",
          ]
          var queries: [(String, String, String?, String?)] = []  // kind, text, target, project
          for index in 0..<300 {
            var text = english[Int.random(in: 0..<english.count, using: &random)]
            switch index % 3 {
            case 0: break
            case 1: text = text.uppercased() + "!"
            default:
              var scalars = Array(text.unicodeScalars)
              for _ in 0..<Int.random(in: 1...3, using: &random) where scalars.count > 2 {
                let at = Int.random(in: 0..<scalars.count, using: &random)
                if Bool.random(using: &random) {
                  scalars.remove(at: at)
                } else {
                  scalars.insert("x", at: at)
                }
              }
              text = String(String.UnicodeScalarView(scalars))
            }
            let project = index % 5 == 0 ? "home" : index % 7 == 0 ? "corpus" : nil
            queries.append(
              ("text", text, targets[Int.random(in: 0..<targets.count, using: &random)], project))
          }
          for _ in 0..<200 {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            queries.append(("key", key, Bool.random(using: &random) ? "de" : nil, nil))
          }
          for _ in 0..<100 {
            queries.append(
              ("detect", english[Int.random(in: 0..<english.count, using: &random)], nil, nil))
          }
          // Concordance: a piece of a value, in any or one language, project and state.
          let values = records.map(\.value).filter { $0.count > 3 }
          for index in 0..<100 {
            let value = Array(values[Int.random(in: 0..<values.count, using: &random)])
            let start = Int.random(in: 0..<(value.count - 2), using: &random)
            let piece = String(
              value[start..<min(value.count, start + Int.random(in: 2...6, using: &random))])
            queries.append(
              (
                "search", index % 10 == 0 ? "" : piece,
                index % 2 == 0 ? targets[index % targets.count] : nil,
                index % 3 == 0 ? "home" : nil
              ))
          }
          // The queries in four lanes at once, each query asked of the four memories in turn:
          // the memories are shared by a server's requests the same way, and PostgreSQL's
          // backends answer beside the test's own work (the test alone on two cores: 43 ->
          // 30-35 s, the same CPU time).
          let lanes = 4
          let asked = queries
          let answered = try await withThrowingTaskGroup(
            of: [(position: Int, fuzzy: Int, difference: String?)].self
          ) { group in
            for lane in 0..<lanes {
              group.addTask {
                var results: [(position: Int, fuzzy: Int, difference: String?)] = []
                for position in stride(from: lane, to: asked.count, by: lanes) {
                  let (kind, text, target, project) = asked[position]
                  var answers: [String] = []
                  var fuzzy = 0
                  // Every other text from English: the replica then knows from its index
                  // alone when no English text is this one (no exact or normalised match).
                  let source = position % 2 == 0 ? "en" : nil
                  for (_, memory) in memories {
                    switch kind {
                    case "text":
                      let matches = try await memory.matches(
                        for: text, to: target ?? "de", from: source, limit: 5, project: project)
                      if matches.first?.kind == .fuzzy { fuzzy += 1 }
                      answers.append("\(matches)")
                    case "key":
                      answers.append(
                        "\(try await memory.records(forKey: text, language: target))")
                    case "search":
                      answers.append(
                        "\(try await memory.search(containing: text, project: project, language: target, limit: 20))"
                      )
                    default:
                      answers.append("\(try await memory.detectLanguages(of: text))")
                    }
                  }
                  let difference =
                    Set(answers).count == 1
                    ? nil
                    : "\(kind) \(text) (\(source ?? "any")) -> \(target ?? "-"):\n"
                      + answers.joined(separator: "\n")
                  results.append((position, fuzzy, difference))
                }
                return results
              }
            }
            var all: [(position: Int, fuzzy: Int, difference: String?)] = []
            for try await results in group { all += results }
            return all.sorted { $0.position < $1.position }
          }
          #expect(answered.count == queries.count)
          let fuzzyAnswers = answered.reduce(0) { $0 + $1.fuzzy }
          let differences = answered.compactMap(\.difference)
          #expect(fuzzyAnswers > 90, "too few fuzzy answers to compare: \(fuzzyAnswers)")
          #expect(differences.isEmpty, "\(differences.prefix(3).joined(separator: "\n\n"))")

          // The replica's fuzzy lookups all at once, into one language, so that their
          // candidates' rows are asked for together (CandidateRowBatches): the answers of
          // each alone.
          let texts = queries.filter { $0.0 == "text" }.prefix(120).map(\.1)
          var alone: [[TranslationMatch]] = []
          for text in texts {
            alone.append(try await replicaMemory.matches(for: text, to: "de", limit: 5))
          }
          let together = try await withThrowingTaskGroup(of: (Int, [TranslationMatch]).self) {
            group in
            for (position, text) in texts.enumerated() {
              group.addTask {
                (position, try await replicaMemory.matches(for: text, to: "de", limit: 5))
              }
            }
            var answers = [[TranslationMatch]](repeating: [], count: texts.count)
            for try await (position, answer) in group { answers[position] = answer }
            return answers
          }
          let apart = texts.indices.filter { alone[$0] != together[$0] }
          #expect(
            apart.isEmpty,
            "\(apart.prefix(2).map { "\(texts[$0]):\n\(alone[$0])\n\(together[$0])" })")
          #expect(
            alone.filter { $0.first?.kind == .fuzzy }.count > 20, "too few fuzzy answers")
        }
      }
    }
  }
#endif
