import Diagnostics

/// Errors of the command-line layer.
enum CLIError: DiagnosticConvertible {
  /// A value given on the command line that cannot be read as the requested type.
  case invalidValue(value: String, type: String, reason: String)
  /// One or more files failed a check; the details were already printed.
  case failures(count: Int, what: String)

  var diagnostics: [Diagnostic] {
    switch self {
    case .invalidValue(let value, let type, let reason):
      [.error(nil, "'\(value)' is not a valid \(type): \(reason)")]
    case .failures(let count, let what):
      [.error(nil, "\(count) \(what)\(count == 1 ? "" : "s") failed")]
    }
  }
}
