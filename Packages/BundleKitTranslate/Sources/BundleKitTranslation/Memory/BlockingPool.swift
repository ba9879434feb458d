import Foundation

/// Threads of their own for lookups that block on another process (a database server).
///
/// Swift's concurrency runs on libdispatch's worker threads on Linux, and so does
/// `DispatchQueue.global()`. A lookup that blocks such a thread while PostgresNIO finishes its
/// query on a task that needs the same threads starves them: with eight requests at once, each
/// waited 3.4 s until libdispatch added threads. These threads are outside that pool.
final class BlockingPool: @unchecked Sendable {
  /// The pool every memory over a database server shares.
  static let shared = BlockingPool(threads: 32)

  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var head = 0

  init(threads: Int) {
    for index in 0..<threads {
      let thread = Thread { [unowned self] in self.work() }
      thread.name = "bundlekit-lookup-\(index)"
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  /// Runs `job` on one of the pool's threads, after the jobs before it.
  func submit(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func work() {
    while true {
      condition.lock()
      while head == jobs.count { condition.wait() }
      let job = jobs[head]
      head += 1
      // The queue is compacted now and then rather than shifted on every job.
      if head > 1024, head * 2 > jobs.count {
        jobs.removeFirst(head)
        head = 0
      }
      condition.unlock()
      job()
    }
  }
}
