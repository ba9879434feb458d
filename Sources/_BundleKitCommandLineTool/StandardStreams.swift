import BundleKitDiagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Standard output and standard error written with plain `write(2)` calls, so output and
/// diagnostics are never reordered by buffering.
///
/// It lives with the tools, not in `BundleKitDiagnostics`: an app that links the runtime links no
/// terminal writer.
public enum StandardStreams {
  private static let redirectLock = NSLock()
  // Guarded by `redirectLock` (macOS 13 has no `Mutex`).
  nonisolated(unsafe) private static var redirecting = false

  /// Whether data lines (``printLine(_:)``, ``writeJSON(_:)``) go to standard error: while a
  /// CI report document (SARIF, JUnit ...) is standard output's only content.
  public static var dataToStandardError: Bool {
    get { redirectLock.withLock { redirecting } }
    set { redirectLock.withLock { redirecting = newValue } }
  }

  /// Prints a line to standard output.
  public static func printLine(_ line: String) {
    printLines([line])
  }

  /// Prints lines to standard output in one write: a thousand changed files make one system
  /// call, not a thousand.
  public static func printLines(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
    for line in lines {
      bytes.append(contentsOf: line.utf8)
      bytes.append(0x0A)
    }
    writeAll(bytes, to: dataToStandardError ? STDERR_FILENO : STDOUT_FILENO)
  }

  /// Prints a line to standard error.
  public static func printToStandardError(_ message: String) {
    var line = message
    if !line.hasSuffix("\n") { line += "\n" }
    writeAll(Array(line.utf8), to: STDERR_FILENO)
  }

  /// Prints diagnostics to standard error, one compiler-style line each.
  public static func report(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics { printToStandardError(diagnostic.description) }
  }

  /// Writes text to standard error as it is (progress bars).
  public static func writeToStandardError(_ text: String) {
    writeAll(Array(text.utf8), to: STDERR_FILENO)
  }

  /// Writes raw bytes to standard output (standard error while a CI report document is
  /// standard output's content: ``dataToStandardError``).
  public static func writeToStandardOutput(_ bytes: [UInt8]) {
    writeAll(bytes, to: dataToStandardError ? STDERR_FILENO : STDOUT_FILENO)
  }

  /// Writes a report document to standard output, always.
  public static func writeDocument(_ bytes: [UInt8]) {
    writeAll(bytes, to: STDOUT_FILENO)
  }

  /// Writes `value` to standard output as one JSON document (pretty, keys sorted, then a
  /// line break): what every `--format json` prints, through one encoder.
  public static func writeJSON(_ value: some Encodable) {
    writeAll(
      jsonBytes(value) + [0x0A], to: dataToStandardError ? STDERR_FILENO : STDOUT_FILENO)
  }

  /// `value` as the tools print JSON: pretty, keys sorted, slashes as they are.
  public static func jsonBytes(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // The values printed are strings, numbers, arrays and dictionaries: they always encode.
    return (try? encoder.encode(value)).map { Array($0) } ?? Array("null".utf8)
  }

  /// Whether to colour or animate what goes to `descriptor`: a terminal, and `NO_COLOR`
  /// (no-color.org) not set.
  public static func colorsAllowed(on descriptor: Int32) -> Bool {
    isatty(descriptor) == 1 && (getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true)
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}
