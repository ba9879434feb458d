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
  var isSet: Bool { lock.withLock { set } }
  func raise() { lock.withLock { set = true } }
}

/// `work`, or a thrown `timeout()` when it takes longer than `seconds`; or, when `extended`
/// is raised by then, longer than `extendedSeconds` in all.
func withDeadline<T: Sendable>(
  seconds: Double, extendedTo extendedSeconds: Double? = nil, when extended: Flag? = nil,
  timeout: @escaping @Sendable () -> any Error,
  _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await work() }
    group.addTask {
      try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
      if let extendedSeconds, extended?.isSet == true, extendedSeconds > seconds {
        try await Task.sleep(for: .milliseconds(Int((extendedSeconds - seconds) * 1000)))
      }
      throw timeout()
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw timeout() }
    return first
  }
}
