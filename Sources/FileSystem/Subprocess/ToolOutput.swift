import Foundation

/// Runs a program found on `PATH` (git, swift) and captures what it prints: the helpers that
/// read a repository's commit or a package's description share this.
public enum ToolOutput {
  /// Runs `arguments` (the program first) with standard error discarded. Returns the exit
  /// status and standard output, or nil when the program cannot be started.
  public static func run(_ arguments: [String]) -> Result? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(status: process.terminationStatus, output: data)
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
  }
}
