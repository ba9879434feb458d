import Dispatch
import Foundation

/// Whether a connection was had, and whether it has closed since: set once, read from any
/// thread.
final class Lease: @unchecked Sendable {
  private let lock = NSLock()
  private var set = false
  private var closed = false
  private var isConnectionClosed: (@Sendable () -> Bool)?
  var isSet: Bool { lock.withLock { set } }

  /// Raises the flag for a connection that `isClosed` tells about, unless the deadline closed
  /// the lease first; false then, and the work must not go on (its caller has been told it
  /// failed: a write now would be one nobody expects).
  func raise(isClosed: @escaping @Sendable () -> Bool = { false }) -> Bool {
    lock.withLock {
      if !closed {
        set = true
        isConnectionClosed = isClosed
      }
      return set
    }
  }

  /// Closes the lease unless it was raised; whether it was raised.
  func closeUnlessRaised() -> Bool {
    lock.withLock {
      if !set { closed = true }
      return set
    }
  }

  /// Whether the connection had has closed.
  var connectionClosed: Bool {
    guard let probe = lock.withLock({ isConnectionClosed }) else { return false }
    return probe()
  }
}

/// Why ``withDeadline(seconds:extendedTo:when:timeout:_:)`` gave up on its work.
enum DeadlineMiss: Sendable {
  /// No connection came within the first deadline.
  case noConnection
  /// A connection came, but the work took longer than the extended deadline.
  case noAnswer
  /// The connection closed while the work was waiting on it. PostgresNIO drops a query
  /// written to a channel that has just closed, and its caller would wait for ever: a
  /// connection leased from the pool in the instant the server went away is such a channel.
  case connectionClosed
}

/// `work`, or a thrown `timeout(reason)` when it takes longer than `seconds`; or, when `lease`
/// is raised by then, longer than `extendedSeconds` in all, or its connection closes first.
///
/// Not a task group: leaving one waits for every child, so a child that ignores cancellation
/// (a connection lease or a query on a socket that went quiet) would hold the deadline past
/// itself. The work runs in a task of its own, cancelled and left behind at the deadline.
func withDeadline<T: Sendable>(
  seconds: Double, extendedTo extendedSeconds: Double? = nil, when lease: Lease? = nil,
  timeout: @escaping @Sendable (DeadlineMiss) -> any Error,
  _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
  let outcome = FirstOutcome<T>()
  return try await withCheckedThrowingContinuation { continuation in
    outcome.set(continuation)
    let worker = Task {
      do {
        outcome.finish(.success(try await work()))
      } catch {
        outcome.finish(.failure(error))
      }
    }
    let timer = Task {
      let started = ContinuousClock.now
      let first = started + .milliseconds(Int(seconds * 1000))
      let last = started + .milliseconds(Int(max(extendedSeconds ?? seconds, seconds) * 1000))
      // Most work ends within milliseconds and cancels this timer; work that waits longer
      // is looked at four times a second, to notice a connection that closed under it.
      let step = Duration.milliseconds(250)
      var miss = DeadlineMiss.noConnection
      while true {
        let now = ContinuousClock.now
        if let lease, lease.connectionClosed {
          miss = .connectionClosed
          break
        }
        if now >= first {
          guard let lease, extendedSeconds != nil, lease.closeUnlessRaised() else { break }
          if now >= last {
            miss = .noAnswer
            break
          }
        }
        let next = now < first ? first : last
        try await Task.sleep(until: min(next, now + step), clock: .continuous)
      }
      outcome.finish(.failure(timeout(miss)))
      worker.cancel()
    }
    outcome.onFinish { timer.cancel() }
  }
}

/// The first of several results, handed to one continuation once.
private final class FirstOutcome<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, any Error>?
  private var result: Result<T, any Error>?
  private var finished: (@Sendable () -> Void)?

  func set(_ continuation: CheckedContinuation<T, any Error>) {
    let early: Result<T, any Error>? = lock.withLock {
      if let result { return result }
      self.continuation = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func onFinish(_ action: @escaping @Sendable () -> Void) {
    let done: Bool = lock.withLock {
      if result != nil { return true }
      finished = action
      return false
    }
    if done { action() }
  }

  func finish(_ outcome: Result<T, any Error>) {
    let (continuation, action): (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) =
      lock.withLock {
        guard result == nil else { return (nil, nil) }
        result = outcome
        defer {
          self.continuation = nil
          finished = nil
        }
        return (self.continuation, finished)
      }
    continuation?.resume(with: outcome)
    action?()
  }
}
