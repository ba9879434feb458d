import Dispatch
import Testing

/// Runs a synchronous test's work on a thread that is not one of Swift's cooperative pool,
/// within the test's own task (so its `#expect`s are the test's).
///
/// Swift Testing runs a synchronous test on that pool, which has one thread a core: on two
/// cores, two long synchronous tests (a seeded comparison, a crash harness waiting for its
/// script) stall every asynchronous test of the process, timers included, until one ends
/// (measured: a 0.5 s sleep woke after 8 s beside two 8 s synchronous tests). A test with a
/// wall-clock deadline then misses it: in CI, the PostgreSQL connection-loss test had "no
/// connection within 30 s" from a server that was up.
func offThePool<T>(_ work: () throws -> T) async rethrows -> T {
  if #available(macOS 15, *) {
    return try await withTaskExecutorPreference(OwnThreads.shared) { try work() }
  }
  return try work()
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
