import Foundation

/// Runs a program found on `PATH` (git, swift) and captures what it prints: the helpers that
/// read a repository's commit or a package's description share this.
public enum ToolOutput {
  /// Runs `arguments` (the program first), with `input` on its standard input (else none).
  /// Returns the exit status and standard output (and, with `capturingErrors`, standard
  /// error, else discarded), or nil when the program cannot be started.
  public static func run(
    _ arguments: [String], capturingErrors: Bool = false, input: Data? = nil
  ) -> Result? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    let errors = Pipe()
    let feed = Pipe()
    process.standardOutput = pipe
    process.standardError = capturingErrors ? errors : FileHandle.nullDevice
    process.standardInput = input == nil ? FileHandle.nullDevice : feed
    do { try process.run() } catch { return nil }
    if let input {
      // Small inputs (a tag object): written whole before the output is read.
      try? feed.fileHandleForWriting.write(contentsOf: input)
      try? feed.fileHandleForWriting.close()
    }
    // Standard error is drained beside standard output: a program that fills one pipe while
    // the other is being read would otherwise wait forever. On a thread of its own, not on
    // Dispatch's pool: callers running several programs at once from that pool's threads
    // would leave the reader queued until the pool grew (on Linux, about a thread a second).
    let outputText = LockedData()
    let errorText = LockedData()
    WorkerThreads.run(capturingErrors ? 2 : 1) { worker in
      if worker == 0 {
        outputText.set(pipe.fileHandleForReading.readDataToEndOfFile())
      } else {
        errorText.set(errors.fileHandleForReading.readDataToEndOfFile())
      }
    }
    process.waitWithoutSpinning()
    return Result(
      status: process.terminationStatus, output: outputText.get(), errorOutput: errorText.get())
  }

  /// Data one thread writes and another reads after the write is known to be done.
  private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
  }

  /// The first line a running program prints to `output`, without its line break (a
  /// server's URL): read as it arrives, so the program may go on running. Empty when the
  /// program closes its output first.
  public static func firstLine(of output: Pipe) -> String {
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line += chunk
    }
    return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// How a program ended and what it printed.
  public struct Result: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output.
    public var output: Data
    /// Standard error, when asked for.
    public var errorOutput = Data()

    /// Standard error on one line (its first 2,000 bytes), to quote a program's own reason
    /// in a message: empty when it printed nothing.
    public var errorLine: String {
      String(decoding: errorOutput.prefix(2000), as: UTF8.self)
        .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// ` (PROGRAM: its standard error on one line)`, or nothing when it printed none: a
    /// program's own reason appended to a message.
    public func reason(of program: String) -> String {
      errorLine.isEmpty ? "" : " (\(program): \(errorLine))"
    }
  }
}
