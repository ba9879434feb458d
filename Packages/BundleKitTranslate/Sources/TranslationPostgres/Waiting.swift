import Dispatch
import Foundation

/// The result of async work, filled in by the task that does it.
private final class Outcome<T: Sendable>: @unchecked Sendable {
  var result: Result<T, any Error>?
  let done = DispatchSemaphore(value: 0)
}

/// Runs async `work` and blocks the calling thread until it ends: the bridge from
/// ``MemoryStore``'s synchronous questions to PostgresNIO. Call it only off the concurrency
/// pool (``TranslationMemory`` runs such stores' lookups on threads of their own).
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
  let outcome = Outcome<T>()
  Task.detached {
    do {
      outcome.result = .success(try await work())
    } catch {
      outcome.result = .failure(error)
    }
    outcome.done.signal()
  }
  outcome.done.wait()
  guard let result = outcome.result else { throw CancellationError() }
  return try result.get()
}

/// Set once, read from any thread: whether a connection was had.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var set = false
  private var closed = false
  var isSet: Bool { lock.withLock { set } }

  /// Raises the flag, unless the deadline closed it first; false then, and the work must not
  /// go on (its caller has been told it failed: a write now would be one nobody expects).
  func raise() -> Bool {
    lock.withLock {
      if !closed { set = true }
      return set
    }
  }

  /// Closes the flag unless it was raised; whether it was raised.
  func closeUnlessRaised() -> Bool {
    lock.withLock {
      if !set { closed = true }
      return set
    }
  }
}

/// `work`, or a thrown `timeout()` when it takes longer than `seconds`; or, when `extended`
/// is raised by then, longer than `extendedSeconds` in all.
///
/// Not a task group: leaving one waits for every child, so a child that ignores cancellation
/// (a connection lease or a query on a socket that went quiet) would hold the deadline past
/// itself. The work runs in a task of its own, cancelled and left behind at the deadline.
func withDeadline<T: Sendable>(
  seconds: Double, extendedTo extendedSeconds: Double? = nil, when extended: Flag? = nil,
  timeout: @escaping @Sendable () -> any Error,
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
      try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
      if let extendedSeconds, let extended, extended.closeUnlessRaised(),
        extendedSeconds > seconds
      {
        try await Task.sleep(for: .milliseconds(Int((extendedSeconds - seconds) * 1000)))
      }
      outcome.finish(.failure(timeout()))
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
