/// A finding about a strings table, printed in compiler style (`path:line:col: error: ...`)
/// so SwiftPM and Xcode show it inline.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious a finding is.
  public enum Severity: String, Sendable, Hashable, Comparable {
    /// Worth fixing; fails only `lint --strict`.
    case warning
    /// Wrong: fails lint, compile and the build.
    case error

    /// Warnings before errors.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }
  }

  /// How serious it is.
  public var severity: Severity
  /// The file.
  public var path: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column, when known.
  public var column: Int?
  /// What is wrong, and what was expected.
  public var message: String

  /// A finding at a place in a file.
  public init(
    _ severity: Severity, _ path: String, line: Int? = nil, column: Int? = nil, _ message: String
  ) {
    self.severity = severity
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// `path:line:col: severity: message`.
  public var description: String {
    var location = path
    if let line {
      location += ":\(line)"
      if let column { location += ":\(column)" }
    }
    return "\(location): \(severity.rawValue): \(message)"
  }
}

/// Findings that stop a command: at least one error.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
  /// Every finding, errors and warnings.
  public var diagnostics: [Diagnostic]

  /// Findings that stop a command.
  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

  /// One line per finding.
  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
