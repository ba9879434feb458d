import BundleKitDiagnostics

/// Errors of the command line itself, for every BundleKit executable (`bundlekit`,
/// `bundlekit-translate`, `bundlekit-localize`).
public enum ToolError: DiagnosticConvertible, Sendable {
  /// A value given on the command line that cannot be used as `kind` (an option's name such
  /// as `--provider`, or what the value should be, such as `integer`).
  case invalidValue(value: String, kind: String, reason: String)
  /// A lookup in `path` that found no value for `key`, or a value that takes more arguments
  /// than were given.
  case lookup(key: String, path: String, message: String)
  /// A target the project at `project` does not have.
  case unknownTarget(project: String, target: String)

  /// The error, in compiler style.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .invalidValue(let value, let kind, let reason):
      [.error(nil, "'\(value)' is not a valid \(kind): \(reason)")]
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
