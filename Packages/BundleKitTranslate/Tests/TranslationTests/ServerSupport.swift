import BundleKitTestSupport
import BundleKitTranslation
import BundleKitTranslationServer
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// A server's errors when a test stops it are no news.
let quietLogger: Logger = {
  var logger = Logger(label: "test-server")
  logger.logLevel = .critical
  return logger
}()

/// A server running in this process on a free loopback port, until `stop()`.
struct RunningServer {
  let port: Int
  let task: Task<Void, any Error>
  /// The service group the server runs in, which `stop()` shuts down gracefully.
  let group: ServiceGroup
  /// Requests answered, for stubs.
  var calls = Counter()

  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Starts `application` and waits until it listens.
  static func start(
    _ make: (@escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol
  ) async throws -> RunningServer {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let application = make { port in
      continuation.yield(port)
      continuation.finish()
    }
    let group = ServiceGroup(
      configuration: .init(services: [application], logger: quietLogger))
    let task = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
      task.cancel()
      throw URLError(.cannotConnectToHost)
    }
    return RunningServer(port: port, task: task, group: group)
  }

  /// A stand-in LibreTranslate server whose `POST /translate` answers with what `answer`
  /// gives for the call's number (1, 2 ...): a status and a JSON body.
  static func translateStub(
    _ answer: @escaping @Sendable (Int) -> (HTTPResponse.Status, String)
  ) async throws -> RunningServer {
    let calls = Counter()
    var server = try await start { onRunning in
      let router = Router()
      router.post("translate") { _, _ -> Response in
        let (status, body) = answer(calls.next())
        return Response(
          status: status, headers: [.contentType: "application/json"],
          body: .init(byteBuffer: ByteBuffer(string: body)))
      }
      return Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { await onRunning($0.localAddress?.port ?? 0) }, logger: quietLogger)
    }
    server.calls = calls
    return server
  }

  /// BundleKit's translation server over `memory`.
  static func translation(
    memory: TranslationMemory, configure: (inout TranslationServer.Configuration) -> Void = { _ in }
  ) async throws -> RunningServer {
    try await translationServer(memory: memory, configure: configure).running
  }

  /// A translation server over `memory`, running, and the server itself (for its counters).
  static func translationServer(
    memory: TranslationMemory, configure: (inout TranslationServer.Configuration) -> Void = { _ in }
  ) async throws -> (running: RunningServer, server: TranslationServer) {
    var configuration = TranslationServer.Configuration()
    configuration.port = 0
    configure(&configuration)
    let server = TranslationServer(memory: memory, configuration: configuration)
    let running = try await start { onRunning in
      server.makeApplication(logger: quietLogger, onServerRunning: onRunning)
    }
    return (running, server)
  }

  /// Runs `body`, then stops the server, whether `body` throws or not.
  func serving(_ body: () async throws -> Void) async throws {
    do {
      try await body()
    } catch {
      await stop()
      throw error
    }
    await stop()
  }

  /// Shuts the server down gracefully: it stops accepting and serves the connections it has
  /// accepted. Cancelling its task instead can drop a connection accepted but not yet served,
  /// which NIO traps on ("Deinited NIOAsyncWriter without calling finish()", seen in CI after
  /// a test under load; apple/swift-nio#3481). A connection that never ends its request would
  /// hold a graceful shutdown: after 30 s the task is cancelled.
  func stop() async {
    await group.triggerGracefulShutdown()
    let task = task
    let deadline = Task {
      try await Task.sleep(for: .seconds(30))
      task.cancel()
    }
    _ = await task.result
    deadline.cancel()
  }
}

/// An HTTP answer: status, parsed JSON (nil if none) and the raw text.
struct HTTPAnswer {
  var status: Int
  var json: Any?
  var text: String
  /// The response's header fields, names lowercased.
  var headers: [String: String] = [:]
  var object: [String: Any]? { json as? [String: Any] }
}

/// A plain HTTP request, as any client would make it.
///
/// The timeout is long on purpose: the three test bundles, their PostgreSQL clusters and
/// Chromium share two cores in CI, where a request that takes 100 ms alone has waited more
/// than 10 s (a run failed on exactly that). A server that hangs still fails the test; the
/// tests of timeouts set their own.
func http(
  _ method: String, _ url: URL, body: Data? = nil, contentType: String? = "application/json",
  headers: [String: String] = [:], timeout: TimeInterval = 60
) async throws -> HTTPAnswer {
  var request = URLRequest(url: url)
  request.httpMethod = method
  request.httpBody = body
  request.timeoutInterval = timeout
  if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  let started = ContinuousClock.now
  let data: Data
  let response: URLResponse
  do {
    (data, response) = try await URLSession.shared.data(for: request)
  } catch {
    // Which request and how long it waited, so a failure in CI says where it stalled.
    throw HTTPFailure(
      description: "\(method) \(url.absoluteString): no answer after "
        + "\(ContinuousClock.now - started): \(error)")
  }
  var headers: [String: String] = [:]
  for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
    headers["\(name)".lowercased()] = "\(value)"
  }
  return HTTPAnswer(
    status: (response as? HTTPURLResponse)?.statusCode ?? 0,
    json: try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
    text: String(decoding: data, as: UTF8.self), headers: headers)
}

/// A request that got no answer: the method, the URL, the time waited and the cause.
struct HTTPFailure: Error, CustomStringConvertible {
  var description: String
}

func jsonBody(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

/// A loopback port that accepts connections and never answers, to test timeouts.
final class SilentListener {
  let descriptor: Int32
  let port: Int

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.descriptor = descriptor
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, listen(descriptor, 16) == 0 else { throw URLError(.cannotConnectToHost) }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(descriptor) }
}

/// Counts calls across the server's threads.
final class Counter: @unchecked Sendable {
  private var value = 0
  private let lock = NSLock()
  func next() -> Int {
    lock.withLock {
      value += 1
      return value
    }
  }
  var count: Int { lock.withLock { value } }
}

/// Requests whose language is no tag (`-`, `_`, a path), sent to a server at `base`: each
/// gets a 4xx answer with a JSON error, and the server answers `/health` after each. Before,
/// `LanguageResolver.normalize` trapped on `-` and `_`, and one request took the server down.
func expectLanguagesRefused(at base: URL) async throws {
  let requests: [(String, String, Data?)] = [
    ("GET", "/search?q=door&lang=-", nil),
    ("GET", "/search?q=door&lang=_", nil),
    ("GET", "/matches?q=Open&source=en&target=-", nil),
    ("GET", "/matches?q=Open&source=_&target=de", nil),
    ("GET", "/lookup?key=door.open&lang=_", nil),
    ("GET", "/lookup?key=door.open&lang=-", nil),
    ("GET", "/lookup?key=door.open&lang=..%2F..%2Fx", nil),
    ("POST", "/translate", try jsonBody(["q": "Open", "source": "_", "target": "de"])),
    ("POST", "/translate", try jsonBody(["q": "Open", "source": "en", "target": "-"])),
    // A NUL byte never reaches the memory: 400, and nothing of the database in the answer.
    ("GET", "/search?q=do%00or&lang=de", nil),
    ("GET", "/lookup?key=door%00open", nil),
    // Again: the event loop's cache remembers answers by the request's bytes, never a refusal.
    ("GET", "/lookup?key=door%00open", nil),
    ("GET", "/matches?q=Open%00&target=de", nil),
    ("GET", "/search?q=%FF%FE", nil),
  ]
  for (method, path, body) in requests {
    let url = try #require(URL(string: base.absoluteString + path))
    let answer = try await http(method, url, body: body)
    #expect(
      (400..<500).contains(answer.status), "\(method) \(path): \(answer.status) \(answer.text)")
    #expect(answer.object?["error"] != nil, "\(method) \(path): \(answer.text)")
    for leak in ["postgres", "127.0.0.1", "5432", "sqlite", "/tmp/"] {
      #expect(!answer.text.lowercased().contains(leak), "\(method) \(path): \(answer.text)")
    }
    let health = try await http("GET", base.appendingPathComponent("health"))
    #expect(health.status == 200, "the server is down after \(method) \(path)")
  }
}

/// A page of another site reaching a loopback server through DNS rebinding sends its own
/// name in `Host:`: answered 421, with nothing of the memory. Its own names are answered.
func expectForeignHostRefused(at base: URL) throws {
  let curl = try #require(Tool.path("curl"), "curl is not on PATH")
  let port = base.port ?? 80
  func status(_ path: String, host: String) throws -> String {
    let run = try Tool.run(
      curl,
      [
        "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)",
        base.absoluteString + path,
      ])
    return String(decoding: run.stdout, as: UTF8.self)
  }
  for (host, expected) in [
    ("evil.example", "421"), ("evil.example:\(port)", "421"), ("127.0.0.1:\(port)", "200"),
    ("localhost:\(port)", "200"), ("[::1]:\(port)", "200"),
  ] {
    #expect(try status("/search?q=door&lang=de", host: host) == expected, "Host: \(host)")
  }
  // A lookup the event loop answers from its cache: asked first by the server's own name,
  // so that its answer is remembered, then by a foreign one, which is still refused.
  for (host, foreign) in [
    ("127.0.0.1:\(port)", false), ("evil.example", true), ("localhost:\(port)", false),
    ("evil.example:\(port)", true),
  ] {
    let answer = try status("/lookup?key=door.open&lang=de", host: host)
    #expect(
      foreign ? answer == "421" : ["200", "404"].contains(answer), "Host: \(host): \(answer)")
  }
}

/// Keys with spaces, as the translators' page sends them (`URLSearchParams`: `+` for a
/// space): found, as with `%20`.
func expectFormEncodingRead(at base: URL, key: String, language: String) async throws {
  for encoded in [
    key.replacingOccurrences(of: " ", with: "+"), key.replacingOccurrences(of: " ", with: "%20"),
  ] {
    let url = try #require(
      URL(string: base.absoluteString + "/lookup?key=\(encoded)&lang=\(language)"))
    let answer = try await http("GET", url)
    #expect(answer.status == 200, "\(encoded): \(answer.text)")
  }
}
