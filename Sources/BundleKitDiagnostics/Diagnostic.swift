/// One finding about an input, printed in compiler style (`path:line:col: error: message`) so
/// SwiftPM and Xcode show it inline, and encoded as JSON for `--format json`.
///
/// Every error BundleKit reports is made of these (see ``DiagnosticConvertible``): a syntax
/// error in a property list, a strings table's lint finding, a build setting that cannot be
/// resolved, a refused archive entry.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How serious a finding is.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// For information: nothing is wrong.
    case note
    /// Worth fixing; fails only strict runs.
    case warning
    /// Wrong: the command fails.
    case error

    /// Notes, then warnings, then errors.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs.rank < rhs.rank
    }

    private var rank: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }
  }

  /// The check a finding comes from, as compilers name their warning flags.
  public struct Rule: Sendable, Hashable, Codable {
    /// The identifier users give to choose its severity (`unsafe-placeholder`).
    public var name: String
    /// Whether users may lower or raise it; a rule that is not is left out of the text.
    public var isConfigurable: Bool

    /// A rule by its identifier.
    public init(name: String, isConfigurable: Bool = true) {
      self.name = name
      self.isConfigurable = isConfigurable
    }

    /// A refusal the user may lift on purpose (a size limit, a write outside the tree, a
    /// value that would go down). Libraries name no command-line flag: the tool that runs
    /// them adds how to lift it, as a note (``Diagnostic/notes``), from this name.
    public static func refusal(_ name: String) -> Rule {
      Rule(name: name, isConfigurable: false)
    }
  }

  /// How serious it is.
  public var severity: Severity
  /// The file, when the finding is about one.
  public var path: String?
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column, when known.
  public var column: Int?
  /// What is wrong, and what was expected.
  public var message: String
  /// The check it comes from, when it has one.
  public var rule: Rule?
  /// Lines that explain it, printed indented below it (the settings a value was resolved
  /// through, for example).
  public var notes: [String]

  /// A finding at a place in a file.
  ///
  /// - Parameters:
  ///   - severity: How serious it is.
  ///   - path: The file, or nil when it is about no file.
  ///   - line: The 1-based line, when known.
  ///   - column: The 1-based column, when known (ignored without a line).
  ///   - message: What is wrong.
  ///   - rule: The check it comes from.
  ///   - notes: Lines that explain it.
  public init(
    _ severity: Severity, path: String?, line: Int? = nil, column: Int? = nil,
    _ message: String, rule: Rule? = nil, notes: [String] = []
  ) {
    self.severity = severity
    self.path = path
    self.line = line
    self.column = column
    self.message = message
    self.rule = rule
    self.notes = notes
  }

  /// An error at a place in a file.
  public static func error(
    _ path: String?, line: Int? = nil, column: Int? = nil, _ message: String,
    notes: [String] = []
  ) -> Diagnostic {
    Diagnostic(.error, path: path, line: line, column: column, message, notes: notes)
  }

  /// The same finding with another severity (a failure that is only worth a warning here).
  public func with(severity: Severity) -> Diagnostic {
    var copy = self
    copy.severity = severity
    return copy
  }

  /// `path:line:col`, or the parts of it that are known; empty for no file.
  public var location: String {
    guard let path else { return "" }
    var location = path
    if let line {
      location += ":\(line)"
      if let column { location += ":\(column)" }
    }
    return location
  }

  /// `path:line:col: severity: message [rule]`, then the notes indented.
  public var description: String {
    let location = self.location
    var text = location.isEmpty ? "" : location + ": "
    text += "\(severity.rawValue): \(message)"
    if let rule, rule.isConfigurable { text += " [\(rule.name)]" }
    for note in notes { text += "\n  " + note }
    return text
  }
}
