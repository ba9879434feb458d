import Foundation

extension Process {
  /// Waits for the process to exit, as `waitUntilExit()` does, without keeping a core busy.
  ///
  /// Foundation's `waitUntilExit()` runs the current thread's run loop until the process has
  /// exited; on a thread whose run loop has no sources (on Linux every thread but the main one:
  /// an async command's, a test's) each run returns at once and the wait spins: `sleep 2`
  /// waited for on a second thread took 2 CPU-s, on the main thread none.
  public func waitWithoutSpinning() {
    while isRunning { usleep(1_000) }
    waitUntilExit()  // Returns at once now, as it does once the process has exited.
  }
}
