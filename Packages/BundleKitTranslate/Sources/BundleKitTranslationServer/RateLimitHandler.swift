import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// How many requests each client address may make: at most `limit` in any window of
/// `window` seconds (a fixed window per address), shared by every connection of the server.
final class RateLimiter: @unchecked Sendable {
  private let limit: Int
  private let window: Double
  private let lock = NSLock()
  private var windows: [String: (start: Double, count: Int)] = [:]

  init(limit: Int, window: Double) {
    self.limit = limit
    self.window = window
  }

  /// Counts a request from `address`; nil when it may go on, else the whole seconds to wait.
  func admit(_ address: String, now: Double = Date().timeIntervalSinceReferenceDate) -> Int? {
    lock.withLock {
      // Old windows are dropped now and then, so a stream of addresses cannot grow the table.
      if windows.count > 100_000 {
        windows = windows.filter { now - $0.value.start < window }
      }
      var current = windows[address] ?? (now, 0)
      if now - current.start >= window { current = (now, 0) }
      current.count += 1
      windows[address] = current
      guard current.count > limit else { return nil }
      return max(1, Int((current.start + window - now).rounded(.up)))
    }
  }
}

/// Answers 429 Too Many Requests, with `Retry-After`, to a request over its address's limit,
/// before the application sees it; the connection stays usable.
final class RateLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let limiter: RateLimiter
  /// Seconds to wait, while the parts of a refused request are read and dropped.
  private var refusing: Int?

  init(limiter: RateLimiter) { self.limiter = limiter }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
      refusing = limiter.admit(address)
      if refusing == nil { context.fireChannelRead(data) }
    case .body:
      if refusing == nil { context.fireChannelRead(data) }
    case .end:
      guard let wait = refusing else {
        context.fireChannelRead(data)
        return
      }
      refusing = nil
      let body = ByteBuffer(
        string: #"{"error":"Too many requests: retry after \#(wait) s"}"#)
      var head = HTTPResponse(status: .tooManyRequests)
      head.headerFields[.retryAfter] = String(wait)
      head.headerFields[.contentType] = "application/json"
      head.headerFields[.contentLength] = String(body.readableBytes)
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      context.write(wrapOutboundOut(.body(body)), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
