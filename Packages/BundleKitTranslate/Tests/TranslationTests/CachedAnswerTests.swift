import BundleKitTranslation
import Foundation
import Testing

@testable import BundleKitTranslationServer

#if canImport(Glibc)
  import Glibc
#endif

/// `CachedAnswerHandler` answers cached lookups and bad requests on the event loop: the
/// answers must be the router's, byte for byte but for the date, and in request order.
extension ServerTests {
  /// Requests as a client writes them, without the blank line that ends the head.
  static let requests: [String] = [
    "GET /lookup?key=menu.settings&lang=de HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    "GET /lookup?key=menu.settings&table=Localizable&lang=de-CH HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    "GET /lookup?key=n%C3%B6pe HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    "GET /lookup?key=menu.settings&lang=xx HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    "GET /lookup HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    post(#"{"q":"Cancel","source":"en","target":"de"}"#),
    post(#"{"q":["Settings","Nobody wrote this"],"source":"en","target":"pt_BR"}"#),
    post(#"{"q":"Cancel","source":"en","target":"de","alternatives":3}"#),
    post("q=Cancel&source=en&target=de", type: "application/x-www-form-urlencoded"),
    post(#"{"q":"Cancel","source":"en""#),
    post(#"{"q":"Cancel","source":"en","target":"tlh"}"#),
    post(#"{"q":["Ümlaut ✓","取消"],"source":"en","target":"de"}"#),
  ]

  static func post(_ body: String, type: String = "application/json") -> String {
    "POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(type)\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
  }

  /// `request` with its head ended, closing the connection after it or not.
  static func wire(_ request: String, close: Bool) -> [UInt8] {
    let parts = request.components(separatedBy: "\r\n\r\n")
    let head = parts[0].hasSuffix("\r\n") ? parts[0] : parts[0] + "\r\n"
    let body = parts.count > 1 ? parts[1] : ""
    return Array((head + (close ? "Connection: close\r\n" : "") + "\r\n" + body).utf8)
  }

  @Test("the same status, headers and body as the router's; the connection stays open")
  func sameAnswers() async throws {
    let (server, translation) = try await RunningServer.translationServer(memory: memory)
    let counter = translation.served.answeredOnEventLoop
    try await server.serving {
      for request in Self.requests {
        // A request that closes its connection always goes through the router; it also
        // fills the cache for the ones after it.
        let routedSocket = try LoopbackSocket(port: server.port)
        defer { routedSocket.close() }
        routedSocket.send(Self.wire(request, close: true))
        let routed = try #require(routedSocket.responses(1).first, "\(request)")

        let before = counter.load(ordering: .relaxed)
        let socket = try LoopbackSocket(port: server.port)
        defer { socket.close() }
        // Two at once (pipelined), then one more.
        socket.send(Self.wire(request, close: false) + Self.wire(request, close: false))
        var answers = socket.responses(2)
        socket.send(Self.wire(request, close: false))
        answers += socket.responses(1)
        let after = counter.load(ordering: .relaxed)
        #expect(after - before == 3, "not answered on the event loop: \(request)")
        #expect(answers.count == 3)
        for answer in answers {
          #expect(answer.statusLine == routed.statusLine, "\(request)")
          #expect(answer.body == routed.body, "\(request)")
          #expect(answer.headerNames == routed.headerNames, "\(request)")
          #expect(answer.header("content-type") == routed.header("content-type"))
          #expect(answer.header("content-length") == routed.header("content-length"))
          #expect(answer.header("date")?.hasSuffix(" GMT") == true)
        }
        #expect(!socket.isClosedByPeer, "the connection closed after \(request)")
      }
    }
  }

  @Test("pipelined after a request the memory must answer, a cached one waits its turn")
  func pipelinedOrder() async throws {
    let server = try await RunningServer.translation(memory: memory)
    try await server.serving {
      let cached = "GET /lookup?key=menu.settings&lang=de HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      let primer = try LoopbackSocket(port: server.port)
      defer { primer.close() }
      primer.send(Self.wire(cached, close: false))
      let expected = try #require(primer.responses(1).first)
      for round in 0..<20 {
        // `source: auto` detects the language: never from the cache, always a task.
        let asked = Self.post(#"{"q":"Cancel \#(round)","source":"auto","target":"de"}"#)
        let socket = try LoopbackSocket(port: server.port)
        defer { socket.close() }
        socket.send(Self.wire(asked, close: false) + Self.wire(cached, close: false))
        let answers = socket.responses(2)
        #expect(answers.count == 2)
        #expect(answers.first?.body.contains("Cancel \(round)") == true, "round \(round)")
        #expect(answers.last?.body == expected.body, "round \(round)")
      }
    }
  }

  @Test("a request closing its connection is answered, then the connection closes")
  func closingRequest() async throws {
    let server = try await RunningServer.translation(memory: memory)
    try await server.serving {
      for _ in 0..<2 {
        let socket = try LoopbackSocket(port: server.port)
        defer { socket.close() }
        socket.send(Self.wire(Self.requests[0], close: true))
        #expect(socket.responses(1).first?.statusLine == "HTTP/1.1 200 OK")
        #expect(socket.waitsForClose())
      }
    }
  }
}

/// One HTTP response as it came off the wire.
struct RawResponse {
  var statusLine: String
  var headers: [(name: String, value: String)]
  var body: String

  var headerNames: [String] { headers.map { $0.name.lowercased() } }

  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name }?.value
  }
}

extension LoopbackSocket {
  /// Reads `count` responses (each ended by its Content-Length), or fewer when the server
  /// closes or 10 s pass.
  func responses(_ count: Int) -> [RawResponse] {
    var bytes: [UInt8] = []
    var found: [RawResponse] = []
    // A guard against a hang, not a measure: the first answer of a fresh server opens the
    // memory, which on a loaded 2-core CI machine has taken longer than 10 s.
    let deadline = Date().addingTimeInterval(60)
    while found.count < count, Date() < deadline {
      if let (response, used) = Self.parse(bytes) {
        found.append(response)
        bytes.removeFirst(used)
        continue
      }
      guard let more = receive(until: deadline), !more.isEmpty else { break }
      bytes += more
    }
    return found
  }

  /// Whether the server closes the connection within 30 s (a guard against a hang: the loop
  /// ends at the close).
  func waitsForClose() -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      guard let more = receive(until: deadline) else { return false }
      if more.isEmpty { return true }
    }
    return false
  }

  /// The next bytes; empty at end of file, nil at the deadline.
  private func receive(until deadline: Date) -> [UInt8]? {
    var pollEntry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    var ready: Int32
    repeat {
      // A signal (the test runner's own) interrupts poll: that is no deadline.
      let wait = Int32(max(deadline.timeIntervalSinceNow, 0) * 1000)
      ready = poll(&pollEntry, 1, wait)
    } while ready < 0 && errno == EINTR && Date() < deadline
    guard ready > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 65536)
    var read: Int
    repeat { read = recv(descriptor, &buffer, buffer.count, 0) } while read < 0 && errno == EINTR
    return read <= 0 ? [] : Array(buffer[0..<read])
  }

  private static func parse(_ bytes: [UInt8]) -> (RawResponse, Int)? {
    let separator = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) })
    else { return nil }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        (
          String(line[..<colon]),
          line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        ))
    }
    let length =
      Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
    let start = end + separator.count
    guard bytes.count >= start + length else { return nil }
    let body = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
    return (RawResponse(statusLine: lines[0], headers: headers, body: body), start + length)
  }
}
