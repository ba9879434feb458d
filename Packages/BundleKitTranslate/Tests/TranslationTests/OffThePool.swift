import Dispatch
import Testing

/// Runs `work` on a thread that is not one of Swift's cooperative pool, within the caller's
/// task (so a test's `#expect`s are the test's): for work that waits synchronously, such as
/// starting a PostgreSQL cluster, in a suite that stays on the pool.
///
/// Swift Testing runs a synchronous test on that pool, which has one thread a core: on two
/// cores, two long synchronous tests (a seeded comparison, a crash harness waiting for its
/// script) stall every asynchronous test of the process, timers included, until one ends
/// (measured: a 0.5 s sleep woke after 8 s beside two 8 s synchronous tests). A test with a
/// wall-clock deadline then misses it: in CI, the PostgreSQL connection-loss test had "no
/// connection within 30 s" from a server that was up. Whole suites use ``OffThePool``.
func offThePool<T>(_ work: () async throws -> T) async rethrows -> T {
  if #available(macOS 15, *) {
    return try await withTaskExecutorPreference(OwnThreads.shared) { try await work() }
  }
  return try await work()
}

/// Runs every test of a suite, its `init` included, as ``offThePool(_:)`` runs its work:
/// for the suites whose tests build memories, run the CLI and wait for it synchronously, or
/// compute for seconds (the fuzzy index's seeded comparisons, the crash harness).
///
/// Those suites held both threads of the cooperative pool for minutes on a slow machine
/// (simple lookups reported "passed after 167 s" because they waited for a thread), and the
/// PostgreSQL tests, whose client runs on that pool, missed a 30 s connection deadline from
/// a server that had authorised the connection 9 s after it started.
///
/// One scope for the whole suite, as ``SharedCluster``'s: the tests run in child tasks of
/// it, which inherit the executor preference as they inherit its task-local values.
struct OffThePool: SuiteTrait, TestScoping {
  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // The module's function: here `offThePool` names the trait's static member.
    try await TranslationTests.offThePool { try await function() }
  }
}

extension Trait where Self == OffThePool {
  /// Runs a suite's tests off Swift's cooperative pool (``OffThePool``).
  static var offThePool: Self { Self() }
}

/// Whether `condition` comes true within `limit`, asked every `step`, and asked once more
/// after the limit: a test's sleeps can end late when synchronous neighbours hold the
/// cooperative pool, and a loop that stops when its clock runs out would judge on an answer
/// from before the wait.
func eventually(
  within limit: Duration, every step: Duration, _ condition: () async throws -> Bool
) async throws -> Bool {
  let deadline = ContinuousClock.now + limit
  while true {
    let last = ContinuousClock.now >= deadline
    if try await condition() { return true }
    if last { return false }
    try await Task.sleep(for: step)
  }
}

/// A task executor on Dispatch threads of its own, outside the cooperative pool.
@available(macOS 15, *)
private final class OwnThreads: TaskExecutor {
  static let shared = OwnThreads()
  private let queue = DispatchQueue(label: "bundlekit.tests.off-the-pool", attributes: .concurrent)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
