import BundleKitFileSystem
import BundleKitTestSupport
import BundleKitTranslation
import BundleKitTranslationServer
import Foundation
import Hummingbird
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Translation server and LibreTranslate client", .serialized, .offThePool)
struct ServerTests {
  let fixture: MemoryFixture
  let memory: TranslationMemory

  init() throws {
    fixture = try MemoryFixture()
    memory = try TranslationMemory(path: fixture.memoryPath, preload: true)
  }

  @Test("LibreTranslate endpoints answer as LibreTranslate does")
  func endpoints() async throws {
    let server = try await RunningServer.translation(memory: memory)
    let base = server.url
    try await server.serving {
      // A single text.
      var answer = try await http(
        "POST", base.appendingPathComponent("translate"),
        body: jsonBody(["q": "Cancel", "source": "en", "target": "de", "format": "text"]))
      #expect(answer.status == 200)
      #expect(answer.object?["translatedText"] as? String == "Abbrechen")
      #expect(answer.object?["detectedLanguage"] == nil)

      // A batch, source detected; unknown text comes back as it is.
      answer = try await http(
        "POST", base.appendingPathComponent("translate"),
        body: jsonBody([
          "q": ["Settings", "Nobody wrote this"], "source": "auto", "target": "pt_BR",
        ]))
      #expect(answer.status == 200)
      #expect(answer.object?["translatedText"] as? [String] == ["Ajustes", "Nobody wrote this"])
      let detected = try #require(answer.object?["detectedLanguage"] as? [[String: Any]])
      #expect(detected.first?["language"] as? String == "en")
      #expect(detected.first?["confidence"] as? Int == 100)

      // Detection, LibreTranslate's shape: confidence in percent; unknown text is the
      // development language at 0.
      answer = try await http(
        "POST", base.appendingPathComponent("detect"), body: jsonBody(["q": "Abbrechen"]))
      #expect(answer.status == 200)
      let found = try #require(answer.json as? [[String: Any]])
      #expect(found.first?["language"] as? String == "de")
      #expect((found.first?["confidence"] as? Int ?? 0) > 0)
      answer = try await http(
        "POST", base.appendingPathComponent("detect"), body: jsonBody(["q": "zzz"]))
      #expect(answer.text == #"[{"confidence":0,"language":"en"}]"#)

      // Other translations the memory has, as LibreTranslate's `alternatives`.
      answer = try await http(
        "POST", base.appendingPathComponent("translate"),
        body: jsonBody(["q": "Cancel", "source": "en", "target": "de", "alternatives": 3]))
      #expect(answer.object?["translatedText"] as? String == "Abbrechen")
      #expect(answer.object?["alternatives"] as? [String] == ["Stornieren"])
      answer = try await http(
        "POST", base.appendingPathComponent("translate"),
        body: Data("q=Cancel&source=en&target=de&alternatives=lots".utf8),
        contentType: "application/x-www-form-urlencoded")
      #expect(answer.status == 400)
      #expect(
        answer.object?["error"] as? String == "Invalid request: alternatives must be a whole number"
      )

      // An HTML form body, as curl -d sends it, with a repeated q.
      answer = try await http(
        "POST", base.appendingPathComponent("translate"),
        body: Data("q=Cancel&q=Hello%2C+%25%40%21&source=en&target=de".utf8),
        contentType: "application/x-www-form-urlencoded")
      #expect(answer.object?["translatedText"] as? [String] == ["Abbrechen", "Hallo, %@!"])

      // Languages.
      answer = try await http("GET", base.appendingPathComponent("languages"))
      let languages = try #require(answer.json as? [[String: Any]])
      #expect(
        languages.map { $0["code"] as? String } == ["de", "de-CH", "en", "fr", "pt-BR", "zh-Hans"])
      #expect(languages.first?["name"] as? String == "German")
      #expect((languages.first?["targets"] as? [String])?.count == 6)

      // Detect.
      answer = try await http(
        "POST", base.appendingPathComponent("detect"), body: jsonBody(["q": "Einstellungen"]))
      let detections = try #require(answer.json as? [[String: Any]])
      #expect(detections.first?["language"] as? String == "de")
      // Unknown text: still one entry, as LibreTranslate answers (clients read [0]).
      answer = try await http(
        "POST", base.appendingPathComponent("detect"), body: jsonBody(["q": "zzz"]))
      let unknown = try #require(answer.json as? [[String: Any]])
      #expect(unknown.count == 1)
      #expect(unknown.first?["confidence"] as? Double == 0)

      // Lookup by key, with and without a language.
      answer = try await http(
        "GET", URL(string: "\(base)/lookup?key=menu.settings&table=Localizable&lang=de-CH")!)
      var translations = try #require(answer.object?["translations"] as? [[String: Any]])
      #expect(translations.map { $0["value"] as? String } == ["Iistellige"])
      answer = try await http("GET", URL(string: "\(base)/lookup?key=menu.settings")!)
      translations = try #require(answer.object?["translations"] as? [[String: Any]])
      #expect(translations.count == 4)
      #expect(translations.first?["source"] as? String == "Settings")
      answer = try await http("GET", URL(string: "\(base)/lookup?key=nope")!)
      #expect(answer.status == 404)

      answer = try await http("GET", base.appendingPathComponent("health"))
      #expect(answer.object?["status"] as? String == "ok")
    }
  }

  @Test("Bad requests get {\"error\"} with 400 (413 for a large body), and serving goes on")
  func errors() async throws {
    let server = try await RunningServer.translation(memory: memory) {
      $0.maximumBatchSize = 3
      $0.maximumBodySize = 4096
    }
    let translate = server.url.appendingPathComponent("translate")
    let cases: [(String, Data, String?, Int, String)] = [
      (
        "missing q", try jsonBody(["source": "en", "target": "de"]), "application/json", 400,
        "Invalid request: missing q parameter"
      ),
      (
        "empty q", try jsonBody(["q": "", "source": "en", "target": "de"]), "application/json", 400,
        "Invalid request: missing q parameter"
      ),
      (
        "missing target", try jsonBody(["q": "Cancel", "source": "en"]), "application/json", 400,
        "Invalid request: missing target parameter"
      ),
      (
        "missing source", try jsonBody(["q": "Cancel", "target": "de"]), "application/json", 400,
        "Invalid request: missing source parameter"
      ),
      (
        "malformed JSON", Data("{\"q\": \"Cancel\", ".utf8), "application/json", 400,
        "Invalid request: the body is not valid JSON"
      ),
      (
        "not an object", Data("[1, 2]".utf8), "application/json", 400,
        "Invalid request: the body must be a JSON object"
      ),
      (
        "q of numbers", try jsonBody(["q": [1, 2], "source": "en", "target": "de"]),
        "application/json",
        400, "Invalid request: q must hold strings"
      ),
      (
        "unsupported target", try jsonBody(["q": "Cancel", "source": "en", "target": "ja"]),
        "application/json", 400, "ja is not supported"
      ),
      (
        "unsupported source", try jsonBody(["q": "Cancel", "source": "xx", "target": "de"]),
        "application/json", 400, "xx is not supported"
      ),
      (
        "bad format",
        try jsonBody(["q": "Cancel", "source": "en", "target": "de", "format": "pdf"]),
        "application/json", 400, "Invalid request: format must be text or html"
      ),
      (
        "batch too large",
        try jsonBody(["q": ["a", "b", "c", "d"], "source": "en", "target": "de"]),
        "application/json", 400, "Invalid request: request (4) exceeds batch limit (3)"
      ),
      (
        "body too large",
        try jsonBody(["q": String(repeating: "x", count: 10_000), "source": "en", "target": "de"]),
        "application/json", 413, "Invalid request: the body is larger than 4096 bytes"
      ),
    ]
    try await server.serving {
      for (name, body, type, status, message) in cases {
        let answer = try await http("POST", translate, body: body, contentType: type)
        #expect(answer.status == status, "\(name): \(answer.text)")
        #expect(answer.object?["error"] as? String == message, "\(name): \(answer.text)")
        // Still serving after each.
        let health = try await http("GET", server.url.appendingPathComponent("health"))
        #expect(health.status == 200, "after \(name)")
      }
      var answer = try await http(
        "POST", server.url.appendingPathComponent("detect"), body: jsonBody([:]))
      #expect(answer.status == 400)
      #expect(answer.object?["error"] as? String == "Invalid request: missing q parameter")
      answer = try await http("GET", URL(string: "\(server.url)/lookup?key=menu.settings&lang=ja")!)
      #expect(answer.object?["error"] as? String == "ja is not supported")
      answer = try await http("GET", URL(string: "\(server.url)/lookup")!)
      #expect(answer.object?["error"] as? String == "Invalid request: missing key parameter")
      // A good request after all of them.
      answer = try await http(
        "POST", translate, body: jsonBody(["q": "Delete", "source": "en", "target": "fr"]))
      #expect(answer.object?["translatedText"] as? String == "Supprimer")
    }
  }

  @Test(
    "hostile requests: a language that is no tag or a NUL byte is a 400, a foreign Host a 421; never a trap"
  )
  func hostileRequests() async throws {
    let server = try await RunningServer.translation(memory: memory)
    try await server.serving {
      try await expectLanguagesRefused(at: server.url)
      try expectForeignHostRefused(at: server.url)
    }
  }

  @Test("keys with spaces, form-encoded as the page sends them (+ for a space), are found")
  func formEncodedKeys() async throws {
    let folder = try TemporaryFolder()
    for (language, value) in [("en", "Open the door"), ("de", "Öffne die Tür")] {
      try FileIO.createFolders(for: folder.file("App/\(language).lproj/Localizable.strings"))
      try FileIO.writeAtomically(
        Array("\"Open the door\" = \"\(value)\";\n".utf8),
        to: folder.file("App/\(language).lproj/Localizable.strings"))
    }
    _ = try MemoryBuilder().build(from: [folder.file("App")], to: folder.file("tm.sqlite"))
    let spaced = try TranslationMemory(path: folder.file("tm.sqlite"), preload: true)
    let server = try await RunningServer.translation(memory: spaced)
    try await server.serving {
      try await expectFormEncodingRead(at: server.url, key: "Open the door", language: "de")
      let search = try await http(
        "GET", try #require(URL(string: server.url.absoluteString + "/search?q=Open+the&lang=en")))
      #expect(search.text.contains("Open the door"), "\(search.text)")
    }
  }

  @Test("The client against BundleKit's own server: batches, cache, languages")
  func clientAgainstOwnServer() async throws {
    let server = try await RunningServer.translation(memory: memory)
    let client = LibreTranslateClient(configuration: .init(baseURL: server.url))
    try await server.serving {
      #expect(try await client.translate("Cancel", from: "en", to: "de") == "Abbrechen")
      #expect(
        try await client.translate(["Settings", "Delete", "Unknown words"], from: "auto", to: "fr")
          == ["Settings", "Supprimer", "Unknown words"])
      let languages = try await client.languages()
      #expect(languages.map(\.code).contains("pt-BR"))

      // The memory without fr Settings asks the remote, which here is the same memory:
      // what matters is that the remote is used when the local memory lacks the text.
      let emptyFolder = try TemporaryFolder()
      try FileManager.default.createDirectory(
        atPath: emptyFolder.file("en.lproj"), withIntermediateDirectories: true)
      try "\"x\" = \"y\";".write(
        toFile: emptyFolder.file("en.lproj/Localizable.strings"), atomically: true, encoding: .utf8)
      _ = try MemoryBuilder().build(from: [emptyFolder.path], to: emptyFolder.file("m.sqlite"))
      let local = try TranslationMemory(path: emptyFolder.file("m.sqlite"))
      let translator = Translator(memory: local, remote: client)
      let outcome = await translator.translate("Einstellungen", to: "pt-BR", from: "de")
      #expect(outcome.text == "Ajustes")
      #expect(outcome.origin == .remote)
      let offline = await Translator(memory: local).translate(
        "Einstellungen", to: "pt-BR", from: "de")
      #expect(offline.text == "Einstellungen")
    }
    // With the server gone, what was asked before comes from the cache; anything else fails.
    #expect(try await client.translate("Cancel", from: "en", to: "de") == "Abbrechen")
    await #expect(throws: TranslationError.self) {
      try await client.translate("Delete", from: "en", to: "de")
    }
  }

  @Test("Retries with backoff on 503 and 429, then success; the cache spares a second request")
  func retries() async throws {
    let flaky = try await RunningServer.translateStub { call in
      call <= 2
        ? (call == 1 ? .serviceUnavailable : .tooManyRequests, "{\"error\":\"busy\"}")
        : (.ok, "{\"translatedText\":\"Hallo\"}")
    }
    let calls = flaky.calls
    var configuration = LibreTranslateClient.Configuration(baseURL: flaky.url)
    configuration.initialBackoff = 0.05
    configuration.maximumAttempts = 3
    let client = LibreTranslateClient(configuration: configuration)
    let started = Date()
    let result = try await client.translate("Hello", from: "en", to: "de")
    let elapsed = Date().timeIntervalSince(started)
    #expect(result == "Hallo")
    #expect(calls.count == 3)
    // Two waits: 0.05 s then 0.1 s.
    #expect(elapsed >= 0.15)
    #expect(try await client.translate("Hello", from: "en", to: "de") == "Hallo")
    #expect(calls.count == 3)
    await flaky.stop()
  }

  @Test("A server that keeps failing: an error after the last attempt, and the source text")
  func givesUp() async throws {
    let failing = try await RunningServer.translateStub { _ in
      (.internalServerError, "{\"error\":\"broken\"}")
    }
    let calls = failing.calls
    var configuration = LibreTranslateClient.Configuration(baseURL: failing.url)
    configuration.initialBackoff = 0.01
    configuration.maximumAttempts = 4
    let client = LibreTranslateClient(configuration: configuration)
    do {
      _ = try await client.translate("Hello", from: "en", to: "de")
      Issue.record("no error")
    } catch {
      #expect("\(error)".contains("HTTP 500: broken (after 4 attempts)"), "\(error)")
    }
    #expect(calls.count == 4)
    let outcome = await Translator(memory: nil, remote: client).translate("Hello", to: "de")
    #expect(outcome.text == "Hello")
    if case .untranslated(let reason) = outcome.origin {
      #expect(reason.contains("HTTP 500"))
    } else {
      Issue.record("expected the source text back")
    }
    await failing.stop()
  }

  @Test("A server that never answers: a timeout, not a hang")
  func timeout() async throws {
    let listener = try SilentListener()
    var configuration = LibreTranslateClient.Configuration(
      baseURL: URL(string: "http://127.0.0.1:\(listener.port)")!)
    configuration.timeout = 0.5
    configuration.maximumAttempts = 2
    configuration.initialBackoff = 0.01
    let client = LibreTranslateClient(configuration: configuration)
    let started = Date()
    let outcome = await Translator(memory: nil, remote: client).translate("Hello", to: "de")
    let elapsed = Date().timeIntervalSince(started)
    #expect(outcome.text == "Hello")
    print("silent peer on port \(listener.port): gave up after \(elapsed) s")
    #expect(elapsed >= 1, "took \(elapsed) s")
    // A hang never ends; the bound is wide for a loaded CI machine (1.05-1.2 s alone).
    #expect(elapsed < 30, "took \(elapsed) s")
    if case .untranslated(let reason) = outcome.origin {
      #expect(reason.contains("no answer within 0.5 s"), "\(reason)")
    } else {
      Issue.record("expected the source text back")
    }
  }
}

/// Hostile clients: huge repeated form fields, slow headers, idle connections.
extension ServerTests {
  @Test("60,000 repeated q fields: refused at the batch limit while parsing, /health answers")
  func repeatedFormFields() async throws {
    let server = try await RunningServer.translation(memory: memory)
    try await server.serving {
      let body = Data(
        (Array(repeating: "q=Delete", count: 60_000) + ["source=en", "target=de"])
          .joined(separator: "&").utf8)
      let translate = server.url.appendingPathComponent("translate")
      async let first = http(
        "POST", translate, body: body, contentType: "application/x-www-form-urlencoded")
      async let second = http(
        "POST", translate, body: body, contentType: "application/x-www-form-urlencoded")
      let health = try await http("GET", server.url.appendingPathComponent("health"))
      #expect(health.status == 200)
      for answer in try await [first, second] {
        #expect(answer.status == 400)
        #expect(
          (answer.object?["error"] as? String)?.contains("exceeds batch limit (128)") == true,
          "\(answer.text)")
      }
      // Within the limit, a form batch works, in order.
      let small = Data("q=Delete&q=Cancel&source=en&target=fr".utf8)
      let answer = try await http(
        "POST", translate, body: small, contentType: "application/x-www-form-urlencoded")
      #expect(answer.status == 200, "\(answer.text)")
    }
  }

  @Test("a client that sends its headers a byte at a time is cut off; an idle one too")
  func slowClients() async throws {
    let server = try await RunningServer.translation(memory: memory) {
      $0.requestTimeout = 1
      $0.idleTimeout = 1
    }
    try await server.serving {
      for (label, payload) in [
        ("slow headers", Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)), ("idle", []),
      ] {
        let socket = try LoopbackSocket(port: server.port)
        defer { socket.close() }
        if !payload.isEmpty { socket.send(payload) }
        // Drip one header line a quarter second apart until the server closes (after its 1 s
        // timeout; 20 s is only the guard against a server that never does, wide for a
        // loaded CI machine).
        var closedAfter: Double?
        let start = Date()
        while Date().timeIntervalSince(start) < 20 {
          usleep(250_000)
          if !payload.isEmpty { socket.send(Array("X-Slow: 1\r\n".utf8)) }
          if socket.isClosedByPeer {
            closedAfter = Date().timeIntervalSince(start)
            break
          }
        }
        #expect(closedAfter != nil, "\(label): the connection stayed open for 20 s")
      }
      let health = try await http("GET", server.url.appendingPathComponent("health"))
      #expect(health.status == 200)
    }
  }

  @Test("--rate-limit: past the limit an address gets 429 with Retry-After, and the server goes on")
  func rateLimit() async throws {
    let server = try await RunningServer.translation(memory: memory) {
      $0.requestsPerMinute = 3
    }
    try await server.serving {
      for _ in 0..<3 {
        let answer = try await http("GET", server.url.appendingPathComponent("health"))
        #expect(answer.status == 200)
      }
      let refused = try await http(
        "POST", server.url.appendingPathComponent("translate"),
        body: jsonBody(["q": "Cancel", "source": "en", "target": "de"]))
      #expect(refused.status == 429)
      let wait = Int(refused.headers["retry-after"] ?? "") ?? 0
      #expect((1...60).contains(wait), "\(refused.headers)")
      #expect((refused.object?["error"] as? String)?.hasPrefix("Too many requests") == true)
      // Still refused on the same and on new connections, still answering.
      let again = try await http("GET", server.url.appendingPathComponent("languages"))
      #expect(again.status == 429)
    }
    // Without a limit, the same burst is served.
    let open = try await RunningServer.translation(memory: memory)
    try await open.serving {
      for _ in 0..<10 {
        let answer = try await http("GET", open.url.appendingPathComponent("health"))
        #expect(answer.status == 200)
      }
    }
  }

  @Test("a server stopped while connections pour in stops, and does not trap")
  func stopUnderConnections() async throws {
    // Cancelling a server's task could drop a connection it had accepted but not yet served,
    // and NIO traps on that: it took the translate test bundle down once in CI.
    for _ in 0..<40 {
      let server = try await RunningServer.translateStub { _ in (.ok, "{}") }
      let flood = ConnectionFlood(port: server.port)
      while flood.opened < 20 { try await Task.sleep(for: .milliseconds(1)) }
      await server.stop()
      let opened = flood.stop()
      #expect(opened >= 20)
    }
  }

  @Test("the printed URL puts an IPv6 address in brackets")
  func ipv6URL() {
    #expect(TranslationServer.url(host: "::1", port: 5000) == "http://[::1]:5000")
    #expect(TranslationServer.url(host: "127.0.0.1", port: 80) == "http://127.0.0.1:80")
    #expect(TranslationServer.url(host: "[::1]", port: 1) == "http://[::1]:1")
  }
}

/// A raw TCP connection to a loopback port, to behave as no HTTP client would.
final class LoopbackSocket {
  let descriptor: Int32

  init(port: Int) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw URLError(.cannotConnectToHost) }
  }

  func send(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes {
      Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
  }

  /// Whether the server has closed its end (a read returns end of file or an error).
  var isClosedByPeer: Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
    if count == 0 { return true }
    if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
    return false
  }

  func close() { Glibc.close(descriptor) }
}

/// Connections opened to a loopback port one after another, on a thread of their own, and
/// kept open until `stop()`.
final class ConnectionFlood: @unchecked Sendable {
  private let lock = NSLock()
  private var sockets: [LoopbackSocket] = []
  private var stopping = false
  private let done = DispatchSemaphore(value: 0)

  init(port: Int) {
    Thread.detachNewThread { [self] in
      while !lock.withLock({ stopping }) {
        guard let socket = try? LoopbackSocket(port: port) else { break }
        lock.withLock { sockets.append(socket) }
      }
      done.signal()
    }
  }

  /// How many connections are open so far.
  var opened: Int { lock.withLock { sockets.count } }

  /// Stops opening connections, closes them, and says how many there were.
  func stop() -> Int {
    lock.withLock { stopping = true }
    done.wait()
    return lock.withLock {
      for socket in sockets { socket.close() }
      defer { sockets.removeAll() }
      return sockets.count
    }
  }
}
