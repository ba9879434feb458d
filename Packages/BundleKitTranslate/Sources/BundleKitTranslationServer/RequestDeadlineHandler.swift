import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow: a request's head and body must arrive
/// within `requestTimeout` of the connection opening (or of the previous response), and a
/// kept-alive connection waits at most `idleTimeout` for its next request. A client that
/// sends one header byte every few seconds (slowloris) or never finishes its body no longer
/// holds a connection, and a task, for ever.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let requestTimeout: TimeAmount
  private let idleTimeout: TimeAmount
  private var deadline: Scheduled<Void>?
  /// Requests read whose response is not yet written.
  private var pending = 0

  init(requestTimeout: TimeAmount, idleTimeout: TimeAmount) {
    self.requestTimeout = requestTimeout
    self.idleTimeout = idleTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    arm(context, requestTimeout)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      // The head is in: the body must follow within the request timeout.
      arm(context, requestTimeout)
    case .end:
      // The whole request is in: the server's own time is not limited here.
      pending += 1
      deadline?.cancel()
      deadline = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) {
      pending = max(pending - 1, 0)
      // Waiting for the next request on a kept-alive connection.
      if pending == 0 { arm(context, idleTimeout) }
    }
    context.write(data, promise: promise)
  }

  private func arm(_ context: ChannelHandlerContext, _ delay: TimeAmount) {
    deadline?.cancel()
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    deadline = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
      loopBound.value.close(promise: nil)
    }
  }
}
