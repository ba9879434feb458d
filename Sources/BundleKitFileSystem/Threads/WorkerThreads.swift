#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if os(Linux)
  import CBundleKitThreads
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
      if let thread = start(work, worker: worker) {
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

  /// Starts a thread running `work` (a retained `Work`, released by the thread), the
  /// `worker`th of its group.
  private static func start(_ work: UnsafeMutableRawPointer, worker: Int) -> pthread_t? {
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
      var attributes = pthread_attr_t()
      guard pthread_attr_init(&attributes) == 0 else { return nil }
      defer { pthread_attr_destroy(&attributes) }
      let placed = Placement.startElsewhere(&attributes, worker: worker)
      let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
        context in
        Placement.release()
        if let context { Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body() }
        return nil
      }
      var thread = pthread_t()
      if pthread_create(&thread, &attributes, body, work) == 0 { return thread }
      // A core taken from the process since it was read (a CPU set made smaller): started
      // wherever Linux puts it.
      guard placed, pthread_create(&thread, nil, body, work) == 0 else { return nil }
      return thread
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
  /// Inlinable, so a caller in another module gets a copy made for its `Value`: unspecialized,
  /// each result was copied and destroyed through its type's value witnesses.
  @inlinable
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
    return slots.takeAll()
  }

  /// The number of cores this process may run on: on Linux those its affinity allows
  /// (`taskset`, a container's CPU set), read once; elsewhere the cores online.
  public static var cores: Int {
    #if os(Linux)
      if !Placement.cores.isEmpty { return Placement.cores.count }
    #endif
    return max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
  }
}

#if os(Linux)
  /// Where a new worker thread starts. Linux places a new thread on the core of the thread
  /// that creates it, and it waits there until that thread's time slice ends or the load
  /// balancer moves it: on this 2-core VM 1.4-1.8 ms on average (up to 3 ms, 44-46 starts of
  /// 50 on the creator's core), while the creator does its own share of the work, so the
  /// share of a worker mostly ran after it, on the same core. Started on another core the
  /// process may use, a thread runs within 60-130 us. The placement only chooses where the
  /// thread starts: its first act is to take back every core the process may use.
  enum Placement {
    /// The cores this process may run on, when it read them.
    private static let allowed: cpu_set_t? = {
      var set = cpu_set_t()
      return sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &set) == 0 ? set : nil
    }()

    /// The numbers of ``allowed``'s cores, in order.
    static let cores: [Int] = {
      guard var set = allowed else { return [] }
      return withUnsafeBytes(of: &set) { bytes in
        bytes.indices.flatMap { index in
          (0..<8).filter { bytes[index] & (1 << $0) != 0 }.map { index * 8 + $0 }
        }
      }
    }()

    /// Sets `attributes` to start the `worker`th thread of a group on the core `worker`
    /// places after the calling thread's among the cores the process may use, and returns
    /// whether it did: not when that is the caller's own core, or the cores cannot be read.
    static func startElsewhere(_ attributes: inout pthread_attr_t, worker: Int) -> Bool {
      let current = Int(sched_getcpu())
      guard cores.count > 1, let position = cores.firstIndex(of: current) else { return false }
      let core = cores[(position + worker) % cores.count]
      guard core != current else { return false }
      var one = cpu_set_t()
      withUnsafeMutableBytes(of: &one) { bytes in bytes[core / 8] |= UInt8(1 << (core % 8)) }
      return pthread_attr_setaffinity_np(&attributes, MemoryLayout<cpu_set_t>.size, &one) == 0
    }

    /// Lets the calling thread run on every core the process may use again.
    static func release() {
      guard var set = allowed, cores.count > 1 else { return }
      _ = pthread_setaffinity_np(pthread_self(), MemoryLayout<cpu_set_t>.size, &set)
    }
  }
#endif

/// One slot per index, each written by one thread only and read after all have finished.
@usableFromInline
final class Slots<Value>: @unchecked Sendable {
  @usableFromInline let slots: UnsafeMutableBufferPointer<Value?>

  @inlinable
  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  @inlinable
  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  @inlinable
  func set(_ index: Int, _ value: Value) {
    slots[index] = value
  }

  subscript(index: Int) -> Value? { slots[index] }

  /// The values set, in order, moved out: each slot is empty afterwards. Moved rather than
  /// copied, no value is retained for the array and released with the slots.
  @inlinable
  func takeAll() -> [Value] {
    var values: [Value] = []
    values.reserveCapacity(slots.count)
    guard let base = slots.baseAddress else { return values }
    for index in slots.indices {
      if let value = (base + index).move() { values.append(value) }
      (base + index).initialize(to: nil)
    }
    return values
  }
}
