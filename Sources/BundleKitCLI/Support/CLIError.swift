import Diagnostics

/// Errors of the command-line layer.
enum CLIError: DiagnosticConvertible {
  /// A value given on the command line that cannot be read as the requested type.
  case invalidValue(value: String, type: String, reason: String)
  /// A lookup that found no value, or a value that takes more arguments than were given.
  case lookup(key: String, path: String, message: String)
  /// A target the project does not have.
  case unknownTarget(project: String, target: String)

  var diagnostics: [Diagnostic] {
    switch self {
    case .invalidValue(let value, let type, let reason):
      [.error(nil, "'\(value)' is not a valid \(type): \(reason)")]
    case .lookup(let key, let path, let message):
      [.error(path, "\"\(key)\": \(message)")]
    case .unknownTarget(let project, let target):
      [
        .error(
          project,
          "no target named '\(target)' (the names are Xcode's, as `bundlekit version` lists them)")
      ]
    }
  }
}
