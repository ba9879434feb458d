import HTTPTypes
import Hummingbird
import HummingbirdCore

/// Refuses, before any handler answers it, a request that no page of this server can have
/// sent (the event loop's cache answers only a query the gate let through before):
/// - a `Host:` that is not the server's own name when it listens on loopback: a web page of
///   another site whose name an attacker made resolve to 127.0.0.1 (DNS rebinding) sends
///   its own name, and is answered 421 Misdirected Request, so it cannot read the memory;
/// - a query field holding a NUL byte or bytes that are not UTF-8 (400): nothing of it
///   reaches the database, whose error would name itself.
struct RequestGate: Sendable {
  /// The host names a loopback server answers to; nil when it listens beyond loopback
  /// (then any name reaches it on purpose).
  private let allowedHosts: Set<String>?

  /// A gate for a server listening on `host`.
  init(listeningOn host: String) {
    allowedHosts = Self.isLoopback(host) ? ["localhost", host.lowercased()] : nil
  }

  /// Whether `host` (a name or address, IPv6 with or without brackets) is loopback.
  static func isLoopback(_ host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    return name == "localhost" || name.hasSuffix(".localhost") || name == "::1"
      || name.hasPrefix("127.")
  }

  /// The host name of a `Host:` value, without its port.
  static func hostName(_ value: String) -> String {
    let lowered = value.lowercased()
    if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
      return String(lowered[...close])
    }
    return String(lowered.split(separator: ":", maxSplits: 1).first ?? "")
  }

  /// Why `head` is refused, or nil when it may be answered.
  func refusal(for head: HTTPRequest) -> (status: HTTPResponse.Status, message: String)? {
    hostRefusal(for: head) ?? queryRefusal(for: head)
  }

  /// Why `head`'s `Host:` is refused, or nil when it is the server's own name.
  func hostRefusal(for head: HTTPRequest) -> (status: HTTPResponse.Status, message: String)? {
    if let allowed = allowedHosts {
      let name = Self.hostName(head.authority ?? "")
      // No Host at all (HTTP/1.0) is no browser's request.
      if !name.isEmpty, !(allowed.contains(name) || Self.isLoopback(name)) {
        return (
          .misdirectedRequest,
          "This server answers to its loopback address only, not to the name in Host"
        )
      }
    }
    return nil
  }

  /// Why `head`'s query is refused, or nil when its fields may be read. It depends on the
  /// path alone, so an answer remembered by its path (``CachedAnswerHandler``) was given to
  /// a path this check let through.
  func queryRefusal(for head: HTTPRequest) -> (status: HTTPResponse.Status, message: String)? {
    if let path = head.path, let problem = FormQuery(URI(path)).problem {
      return (.badRequest, problem)
    }
    return nil
  }
}

/// The gate in front of the router.
struct RequestGateMiddleware<Context: RequestContext>: RouterMiddleware {
  let gate: RequestGate

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let (status, message) = gate.refusal(for: request.head) {
      return Handlers.error(message, status: status)
    }
    return try await next(request, context)
  }
}
