import FileSystem
import PropertyListXML

/// Errors of the command-line layer, described in compiler style.
enum CLIError: Error, CustomStringConvertible {
  /// A value given on the command line that cannot be read as the requested type.
  case invalidValue(value: String, type: String, reason: String)
  /// One or more files failed a check; the details were already printed.
  case failures(count: Int, what: String)

  var description: String {
    switch self {
    case .invalidValue(let value, let type, let reason):
      "error: '\(value)' is not a valid \(type): \(reason)"
    case .failures(let count, let what):
      "error: \(count) \(what)\(count == 1 ? "" : "s") failed"
    }
  }
}
