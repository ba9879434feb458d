// Linux only, as PostgresBackendTests: the memory is Debian's PostgreSQL in a throwaway cluster.
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

  @Suite(
    "Reviews: API keys, scopes, limits and the translators' page", .serialized,
    SharedCluster())
  struct ReviewTests {
    /// A database holding the fixture app twice, as projects `app` and `other`, with
    /// `door.open` in German waiting for review in both: in the suite's cluster, or in one of
    /// its own for a test that stops the server.
    struct Memory {
      let cluster: PostgresCluster
      let database: String
      let url: String
      let fixture: MemoryFixture
      private let ownsCluster: Bool

      init(ownCluster: Bool = false) throws {
        if !ownCluster, let shared = SharedCluster.current {
          cluster = shared
          ownsCluster = false
        } else {
          cluster = try PostgresCluster()
          ownsCluster = true
        }
        database = "tm_\(UInt32.random(in: 0...UInt32.max))"
        (url, fixture) = try PostgresBackendTests.indexedFixture(
          ["--project", "app"], in: cluster, database: database)
        let second = try BundleKitTool.run([
          "translate", "index", fixture.folder.file("App"), "--database", url, "--project", "other",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        try cluster.psql(
          """
          UPDATE bundlekit_translations SET state = 'needs_review' FROM bundlekit_units
          WHERE bundlekit_units.id = unit AND key = 'door.open' AND language = 'de'
          """, database: database)
      }

      /// Stops the cluster when it is this memory's own; the suite's stops after its last test.
      func close() {
        if ownsCluster { cluster.stop() }
      }

      /// The review state of `door.open` in German in `project`.
      func state(_ project: String) throws -> String {
        try cluster.psql(
          """
          SELECT state FROM bundlekit_translations JOIN bundlekit_units ON id = unit
          WHERE key = 'door.open' AND language = 'de' AND project = '\(project)'
          """, database: database)
      }

      func key(_ project: String, scope: String = "write") throws -> String {
        let result = try BundleKitTool.run([
          "translate", "keys", "create", "--database", url, "--project", project, "--scope", scope,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      }
    }

    /// Approves `door.open` in German in `project` with `key`.
    static func approve(
      _ server: ServerProcess, project: String, bundle: String, key: String?
    ) async throws -> HTTPAnswer {
      try await http(
        "POST", server.url.appendingPathComponent("review"),
        body: jsonBody([
          "project": project, "bundle": bundle, "table": "Localizable", "key": "door.open",
          "language": "de", "action": "approve",
        ]),
        headers: key.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// The bundle the fixture's entries carry, as `/search` tells it.
    static func bundle(_ server: ServerProcess) async throws -> String {
      let answer = try await http(
        "GET",
        try #require(
          URL(string: server.url.absoluteString + "/search?q=die%20t&lang=de&project=app")))
      let results = try #require((answer.json as? [String: Any])?["results"] as? [[String: Any]])
      return try #require(results.first?["bundle"] as? String)
    }

    @Test(
      "PostgreSQL restarted under load: every answer is right or 503, no acknowledged review is lost"
    )
    func restartUnderLoad() async throws {
      // The server is stopped and started under load: a cluster of its own.
      let memory = try Memory(ownCluster: true)
      defer { memory.close() }
      let server = try ServerProcess(
        database: memory.url, options: ["--reviews-per-minute", "1000000"])
      defer { server.stop() }
      let bundle = try await Self.bundle(server)
      let key = try memory.key("app")

      /// What the load saw: statuses by phase, wrong answers, and the reviews acknowledged.
      final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var statuses: [Int: Int] = [:]
        var problems: [String] = []
        var acknowledged: [Int] = []
        var sent = 0
        var okAfterRestart = 0
        var restarted = false
        var stop = false
        func add(_ status: Int, _ problem: String? = nil) {
          lock.withLock {
            statuses[status, default: 0] += 1
            if let problem { problems.append(problem) }
            if restarted, status == 200 { okAfterRestart += 1 }
          }
        }
        var stopping: Bool { lock.withLock { stop } }
      }
      let tally = Tally()
      let base = server.url.absoluteString
      @Sendable func ask(
        _ what: String, _ method: String, _ url: URL, body: Data? = nil,
        headers: [String: String] = [:]
      ) async -> HTTPAnswer {
        let started = ContinuousClock.now
        do {
          return try await http(method, url, body: body, headers: headers)
        } catch {
          tally.add(-1, "\(what) got no answer (\(ContinuousClock.now - started)): \(error)")
          return HTTPAnswer(status: -1, json: nil, text: "")
        }
      }
      let cluster = memory.cluster
      try await withThrowingTaskGroup(of: Void.self) { group in
        // Readers: uncached fuzzy and exact lookups, which go to the database.
        for reader in 0..<6 {
          group.addTask {
            var count = 0
            while !tally.stopping {
              count += 1
              // A text never asked before: no cache answers it, the database must.
              let text = "Open the door \(reader) \(count)"
              let exact = await ask(
                "translate \(text)", "POST", server.url.appendingPathComponent("translate"),
                body: try jsonBody(["q": text, "source": "en", "target": "de"]))
              switch exact.status {
              case 200:
                let translated = exact.object?["translatedText"] as? String
                tally.add(200, translated == text ? nil : "translate: \(exact.text)")
              case 503:
                tally.add(
                  503, exact.headers["retry-after"] == nil ? "503 without Retry-After" : nil)
              default:
                tally.add(exact.status, "status \(exact.status): \(exact.text)")
              }
              let fuzzy = await ask(
                "matches \(reader) \(count)", "GET",
                try #require(
                  URL(
                    string:
                      "\(base)/matches?source=en&target=de&q=Open%20the%20doors%20\(reader)x\(count)"
                  )))
              switch fuzzy.status {
              case 200:
                let first =
                  ((fuzzy.object?["matches"] as? [[String: Any]])?.first)?[
                    "translation"] as? String
                tally.add(200, first == nil ? "no fuzzy match: \(fuzzy.text)" : nil)
              case 503:
                tally.add(
                  503, fuzzy.headers["retry-after"] == nil ? "503 without Retry-After" : nil)
              default:
                tally.add(fuzzy.status, "status \(fuzzy.status): \(fuzzy.text)")
              }
            }
          }
        }
        // One reviewer, one edit after another; each acknowledged edit must survive.
        group.addTask {
          var number = 0
          while !tally.stopping {
            number += 1
            tally.lock.withLock { tally.sent = number }
            let answer = await ask(
              "review \(number)", "POST", server.url.appendingPathComponent("review"),
              body: try jsonBody([
                "project": "app", "bundle": bundle, "table": "Localizable", "key": "door.open",
                "language": "de", "action": "edit", "value": "Tür öffnen \(number)",
              ]),
              headers: ["Authorization": "Bearer \(key)"])
            if answer.status == 200 {
              tally.lock.withLock { tally.acknowledged.append(number) }
            } else if answer.status != 503 {
              tally.add(answer.status, "review \(number): \(answer.status) \(answer.text)")
            }
          }
        }
        group.addTask {
          try await Task.sleep(for: .seconds(1))
          try cluster.crash()
          // Down for longer than a request waits for a connection (5 s): some must get 503.
          try await Task.sleep(for: .seconds(7))
          try cluster.start()
          tally.lock.withLock { tally.restarted = true }
          let deadline = ContinuousClock.now + .seconds(60)
          while ContinuousClock.now < deadline, tally.lock.withLock({ tally.okAfterRestart < 20 }) {
            try await Task.sleep(for: .milliseconds(100))
          }
          tally.lock.withLock { tally.stop = true }
        }
        try await group.waitForAll()
      }
      let statuses = tally.lock.withLock { tally.statuses }
      print(
        "restart under load: statuses \(statuses), reviews sent \(tally.sent), acknowledged \(tally.acknowledged.count)"
      )
      #expect(tally.problems.isEmpty, "\(tally.problems.prefix(5))")
      #expect(Set(statuses.keys).isSubset(of: [200, 503]), "\(statuses)")
      #expect((statuses[503] ?? 0) > 0, "the load never saw the database down")
      #expect(tally.okAfterRestart >= 20, "the server did not answer again after the restart")
      #expect(server.process.isRunning)
      // The last acknowledged edit, or a later one whose answer the crash cut off, is stored.
      let last = try #require(tally.acknowledged.last)
      let stored = try memory.cluster.psql(
        """
        SELECT value FROM bundlekit_translations JOIN bundlekit_units ON id = unit
        WHERE key = 'door.open' AND language = 'de' AND project = 'app'
        """, database: memory.database)
      let storedNumber = Int(stored.split(separator: " ").last ?? "") ?? 0
      #expect(storedNumber >= last, "stored \(stored); the last acknowledged edit was \(last)")
    }

    @Test("a key writes to its own project only; read keys and revoked keys are refused at once")
    func keysAndScopes() async throws {
      let memory = try Memory()
      defer { memory.close() }
      let server = try ServerProcess(database: memory.url)
      defer { server.stop() }
      let bundle = try await Self.bundle(server)
      let appKey = try memory.key("app")
      let otherKey = try memory.key("other")
      let readKey = try memory.key("app", scope: "read")
      // Stored hashed: the secret is nowhere in the database.
      let secret = String(appKey.split(separator: "_").last ?? "")
      #expect(secret.count == 64)
      #expect(
        try memory.cluster.psql(
          "SELECT count(*) FROM bundlekit_keys WHERE encode(digest, 'escape') LIKE '%\(secret)%'",
          database: memory.database) == "0")

      #expect(
        try await Self.approve(server, project: "app", bundle: bundle, key: nil).status == 401)
      #expect(
        try await Self.approve(server, project: "app", bundle: bundle, key: "bk_0_0").status == 401)
      #expect(
        try await Self.approve(server, project: "app", bundle: bundle, key: readKey).status == 403)
      // project B's key cannot write to project A
      let crossed = try await Self.approve(server, project: "app", bundle: bundle, key: otherKey)
      #expect(crossed.status == 403, "\(crossed.text)")
      #expect(try memory.state("app") == "needs_review")

      let approved = try await Self.approve(server, project: "app", bundle: bundle, key: appKey)
      #expect(approved.status == 200, "\(approved.text)")
      #expect(approved.text.contains(#""state":"approved""#))
      #expect(try memory.state("app") == "approved")
      #expect(try memory.state("other") == "needs_review")

      // Revoked, then refused on the very next request.
      let revoked = try BundleKitTool.run([
        "translate", "keys", "revoke", String(appKey.split(separator: "_")[1]), "--database",
        memory.url,
      ])
      #expect(revoked.status == 0, "\(revoked.stderr)")
      #expect(
        try await Self.approve(server, project: "app", bundle: bundle, key: appKey).status == 401)
      let listed = try BundleKitTool.run(["translate", "keys", "list", "--database", memory.url])
      #expect(listed.stdout.contains("\tapp\twrite\t\trevoked"), "\(listed.stdout)")

      // Reject removes the suggestion; the same server answers without it at once.
      let rejected = try await http(
        "POST", server.url.appendingPathComponent("review"),
        body: jsonBody([
          "project": "other", "bundle": bundle, "table": "Localizable", "key": "door.open",
          "language": "de", "action": "reject", "api_key": otherKey,
        ]))
      #expect(rejected.status == 200, "\(rejected.text)")
      #expect(try memory.state("other") == "")
      let search = try await http(
        "GET",
        try #require(
          URL(string: server.url.absoluteString + "/search?q=die%20t&project=other&lang=de")))
      #expect(search.text == #"{"results":[]}"#)
      // And an entry that does not exist is 404, not a silent success.
      let missing = try await http(
        "POST", server.url.appendingPathComponent("review"),
        body: jsonBody([
          "project": "other", "bundle": bundle, "table": "Localizable", "key": "no.such.key",
          "language": "de", "action": "approve", "api_key": otherKey,
        ]))
      #expect(missing.status == 404)
    }

    @Test("reviews are limited per key (429 with Retry-After); a file memory takes none")
    func limits() async throws {
      let memory = try Memory()
      defer { memory.close() }
      let server = try ServerProcess(
        database: memory.url, options: ["--reviews-per-minute", "3"])
      defer { server.stop() }
      let bundle = try await Self.bundle(server)
      let key = try memory.key("app")
      for _ in 0..<3 {
        #expect(
          try await Self.approve(server, project: "app", bundle: bundle, key: key).status == 200)
      }
      let limited = try await Self.approve(server, project: "app", bundle: bundle, key: key)
      #expect(limited.status == 429)
      #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
      // Another key is not held back by the first one's count.
      #expect(
        try await Self.approve(server, project: "app", bundle: bundle, key: memory.key("app"))
          .status == 200)

      let fileServer = try await RunningServer.translation(
        memory: TranslationMemory(path: memory.fixture.memoryPath, preload: true))
      try await fileServer.serving {
        let refused = try await http(
          "POST", fileServer.url.appendingPathComponent("review"),
          body: jsonBody(["project": "", "table": "Localizable", "key": "door.open"]))
        #expect(refused.status == 405)
      }
    }

    @Test(
      "PostgreSQL: a language that is no tag or a NUL byte is a 400 without the database's address, a foreign Host a 421"
    )
    func hostileRequests() async throws {
      let memory = try Memory()
      defer { memory.close() }
      let server = try ServerProcess(database: memory.url)
      defer { server.stop() }
      try await expectLanguagesRefused(at: server.url)
      try expectForeignHostRefused(at: server.url)
      #expect(server.process.isRunning)
    }

    @Test("the page in headless Chromium: search on a phone-sized screen, approve, screenshot")
    func browser() async throws {
      let chromium = try #require(
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
          FileManager.default.isExecutableFile(atPath: $0)
        }, "Chromium is not installed (Scripts/bootstrap.sh --oracles installs it)")
      let memory = try Memory()
      defer { memory.close() }
      let server = try ServerProcess(database: memory.url)
      defer { server.stop() }
      let key = try memory.key("app")
      let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      let artifacts = package.appendingPathComponent(".build/artifacts").path
      try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
      let screenshot = artifacts + "/review-page.png"
      try? FileManager.default.removeItem(atPath: screenshot)
      let result = try Tool.run(
        "/usr/bin/env",
        [
          "python3", package.appendingPathComponent("Tests/Browser/drive_review_page.py").path,
          chromium, server.url.absoluteString + "/", key, "tür", "de", screenshot,
        ])
      #expect(result.status == 0, "\(result.stderr)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
        "\(String(decoding: result.stdout, as: UTF8.self)) \(result.stderr)")
      #expect(report["loaded"] as? Bool == true)
      #expect(report["found"] as? Bool == true, "\(report)")
      #expect(report["approveShown"] as? Bool == true, "\(report)")
      #expect(report["saved"] as? Bool == true, "\(report)")
      #expect((report["fuzzyRows"] as? Int ?? 0) > 0, "\(report)")
      #expect(
        (report["pageWidth"] as? Int ?? .max) <= (report["screenWidth"] as? Int ?? 0),
        "the page is wider than a phone's screen: \(report)")
      // The database changed: the project's entry is approved, the other project's is not.
      #expect(try memory.state("app") == "approved")
      #expect(try memory.state("other") == "needs_review")

      // A key with spaces, as most catalog keys are: the page sends it form-encoded (`+` for
      // a space), and the entry opens and is approved.
      let tables = try TemporaryFolder()
      for (language, value) in [("en", "Close the window"), ("de", "Schließe das Fenster")] {
        try FileIO.createFolders(for: tables.file("Kit/\(language).lproj/Spaces.strings"))
        try FileIO.writeAtomically(
          Array("\"Close the window\" = \"\(value)\";\n".utf8),
          to: tables.file("Kit/\(language).lproj/Spaces.strings"))
      }
      let indexed = try BundleKitTool.run([
        "translate", "index", tables.file("Kit"), "--database", memory.url, "--project", "app",
      ])
      #expect(indexed.status == 0, "\(indexed.stderr)")
      try memory.cluster.psql(
        """
        UPDATE bundlekit_translations SET state = 'needs_review' FROM bundlekit_units
        WHERE bundlekit_units.id = unit AND key = 'Close the window' AND language = 'de'
        """, database: memory.database)
      let spaced = try Tool.run(
        "/usr/bin/env",
        [
          "python3", package.appendingPathComponent("Tests/Browser/drive_review_page.py").path,
          chromium, server.url.absoluteString + "/", key, "Fenster", "de",
          artifacts + "/review-page-spaces.png",
        ])
      #expect(spaced.status == 0, "\(spaced.stderr)")
      let spacedReport = try #require(
        try JSONSerialization.jsonObject(with: spaced.stdout) as? [String: Any],
        "\(String(decoding: spaced.stdout, as: UTF8.self)) \(spaced.stderr)")
      #expect(spacedReport["approveShown"] as? Bool == true, "\(spacedReport)")
      #expect(spacedReport["saved"] as? Bool == true, "\(spacedReport)")
      #expect(
        try memory.cluster.psql(
          """
          SELECT state FROM bundlekit_translations JOIN bundlekit_units ON id = unit
          WHERE key = 'Close the window' AND language = 'de' AND project = 'app'
          """, database: memory.database) == "approved")
      let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
      print("review page screenshot: \(screenshot)")
    }
  }
#endif
