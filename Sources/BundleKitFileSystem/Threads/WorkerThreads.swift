#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs work on threads of its own. Unlike `DispatchQueue.concurrentPerform`, which keeps to
/// one thread per core, these threads may all wait on the disk at once: a file system that
/// discards freed blocks synchronously makes each replaced file wait for the device, and
/// the waits of several threads overlap where one thread would queue them.
public enum WorkerThreads {
  /// Calls `body(worker)` for each `worker` in `0..<count`, each on a thread of its own (the
  /// first on the calling thread), and returns when all have returned. A thread that cannot
  /// be started (the process is out of threads or memory) has its part run on the calling
  /// thread, so the work is always done.
  public static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    var threads: [pthread_t] = []
    var inline: [Int] = []
    for worker in 1..<max(count, 1) {
      let work = Unmanaged.passRetained(Work { body(worker) }).toOpaque()
      if let thread = start(work) {
        threads.append(thread)
      } else {
        Unmanaged<Work>.fromOpaque(work).release()
        inline.append(worker)
      }
    }
    body(0)
    for worker in inline { body(worker) }
    for thread in threads { pthread_join(thread, nil) }
  }

  /// Starts a thread running `work` (a retained `Work`, released by the thread).
  private static func start(_ work: UnsafeMutableRawPointer) -> pthread_t? {
    #if canImport(Darwin)
      var thread: pthread_t?
      let status = pthread_create(
        &thread, nil,
        { context in
          Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
          return nil
        }, work)
      return status == 0 ? thread : nil
    #else
      var thread = pthread_t()
      let status = pthread_create(
        &thread, nil,
        { context in
          if let context { Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body() }
          return nil
        }, work)
      return status == 0 ? thread : nil
    #endif
  }

  /// A closure a thread runs.
  private final class Work {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }

  /// `transform(index)` for each index in `0..<count`, in order, computed by `workers`
  /// threads taking alternate indices; fewer than `threshold` items are computed on the
  /// calling thread, where starting threads would cost more than it saves.
  public static func map<Value: Sendable>(
    _ count: Int, workers: Int = cores, threshold: Int = 64,
    _ transform: @escaping @Sendable (Int) -> Value
  ) -> [Value] {
    let slots = Slots<Value>(count: count)
    let workers = count < threshold ? 1 : max(1, min(workers, count))
    run(workers) { worker in
      for index in stride(from: worker, to: count, by: workers) {
        slots.set(index, transform(index))
      }
    }
    return slots.all
  }

  /// The number of cores this process may run on.
  public static var cores: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }
}

/// One slot per index, each written by one thread only and read after all have finished.
final class Slots<Value>: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<Value?>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  func set(_ index: Int, _ value: Value) {
    slots[index] = value
  }

  subscript(index: Int) -> Value? { slots[index] }

  var all: [Value] { slots.compactMap { $0 } }
}
