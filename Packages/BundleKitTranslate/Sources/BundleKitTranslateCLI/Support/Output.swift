import ArgumentParser
import Foundation

/// Standard output and error, unbuffered so lines never interleave out of order.
enum Output {
  /// Prints a line to standard output.
  static func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// Prints a line to standard error.
  static func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
  }

  /// Prints an error in compiler style: `path:line:col: error: ...` or `error: ...`.
  static func error(_ message: String) {
    printToStandardError(message.contains("error: ") ? message : "error: \(message)")
  }

  /// Pretty, key-sorted JSON text of an `Encodable` value.
  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// Errors of the command line itself.
enum ToolError: Error, CustomStringConvertible {
  /// A value given on the command line that cannot be used.
  case invalidValue(value: String, option: String, reason: String)

  var description: String {
    switch self {
    case .invalidValue(let value, let option, let reason):
      "error: '\(value)' is not a valid \(option): \(reason)"
    }
  }
}

/// `text` or `json`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}
