import ArgumentParser
import Diagnostics
import Foundation

/// What the commands print besides diagnostics.
enum Output {
  /// Pretty, key-sorted JSON text of an `Encodable` value.
  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// Errors of the command line itself.
enum ToolError: DiagnosticConvertible {
  /// A value given on the command line that cannot be used.
  case invalidValue(value: String, option: String, reason: String)

  var diagnostics: [Diagnostic] {
    switch self {
    case .invalidValue(let value, let option, let reason):
      [.error(nil, "'\(value)' is not a valid \(option): \(reason)")]
    }
  }
}
