import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Large inputs make over a hundred megabytes of allocations, and on Linux every fresh page
/// costs a fault and zeroing: a third of the time of compiling a 15 MB table. glibc can back
/// its heap with transparent huge pages (2 MiB, 500 times fewer faults) and keep freed memory
/// for reuse instead of handing it back and faulting it in again, but reads those settings
/// (`GLIBC_TUNABLES`) only when a process starts. So a command about to work on large inputs
/// starts itself again once, with them, when the kernel allows huge pages on request.
enum LargeHeap {
  /// Huge pages; large blocks from the heap, not one mapping each (up to glibc's 32 MiB
  /// limit); freed memory kept (1 GiB) and the heap grown 64 MiB at a time.
  static let tunables = [
    "glibc.malloc.hugetlb=1", "glibc.malloc.mmap_threshold=33554432",
    "glibc.malloc.trim_threshold=1073741824", "glibc.malloc.top_pad=67108864",
  ].joined(separator: ":")
  /// Inputs at least this large are worth the restart (a few milliseconds).
  static let threshold = 8 << 20

  /// Restarts the process with the heap tuned when `inputBytes` is large and it is not
  /// already so set up; returns (and the command goes on as it is) otherwise.
  static func restartIfWorthIt(inputBytes: Int) {
    #if os(Linux) && canImport(Glibc)
      guard inputBytes >= threshold else { return }
      let environment = ProcessInfo.processInfo.environment
      let tunables = environment["GLIBC_TUNABLES"] ?? ""
      // Set already (by us or the user), or switched off: nothing to do.
      guard !tunables.contains("glibc.malloc.hugetlb"),
        environment["BUNDLEKIT_NO_HUGE_PAGES"] == nil,
        let mode = try? String(
          contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8),
        mode.contains("[madvise]") || mode.contains("[always]")
      else { return }
      setenv("GLIBC_TUNABLES", tunables.isEmpty ? Self.tunables : tunables + ":" + Self.tunables, 1)
      var arguments = CommandLine.arguments.map { strdup($0) }
      arguments.append(nil)
      execv("/proc/self/exe", arguments)
      // exec failed: carry on without.
      for argument in arguments { free(argument) }
    #endif
  }

  /// The total size of the files at `paths`.
  static func totalSize(of paths: [String]) -> Int {
    paths.reduce(0) { total, path in
      var info = stat()
      return total + (stat(path, &info) == 0 ? Int(info.st_size) : 0)
    }
  }
}
