import BundleKitDiagnostics

/// What a finding is about: each rule has an identifier users name to choose its
/// severity (`--severity unsafe-placeholder=error`), and some make a table unreadable or
/// ambiguous, which no severity lowers.
public enum StringsRule: String, Sendable, Hashable, CaseIterable, Codable {
  /// Unreadable: syntax, encoding, a file that cannot be read.
  case syntax
  /// Two tables compile to one output file.
  case duplicateOutput = "duplicate-output"
  /// A key defined twice with different values: CoreFoundation reads the table (the last
  /// value wins) and Xcode builds it, so it is a warning that names the value kept.
  case conflictingDuplicate = "conflicting-duplicate"
  /// A code-generation template that failed.
  case template
  /// A `<lang>.lproj` folder, catalog or XLIFF file naming something that is no language
  /// (`-`, `../x`): it would become a path, so no severity lowers it.
  case invalidLanguage = "invalid-language"
  /// A key defined twice with the same value.
  case duplicateKey = "duplicate-key"
  /// A value that is an array or dictionary where a string is expected.
  case notAString = "not-a-string"
  /// An empty value.
  case emptyValue = "empty-value"
  /// `%s`, `%c`, `%p`: placeholders Swift cannot pass safely.
  case unsafePlaceholder = "unsafe-placeholder"
  /// One argument used with two types in one string.
  case placeholderTypeConflict = "placeholder-type-conflict"
  /// An argument position no placeholder uses (often a stray `%`).
  case unusedArgument = "unused-argument"
  /// A translation's placeholders that take other arguments than the development language's.
  case placeholderMismatch = "placeholder-mismatch"
  /// A translation that leaves out an argument.
  case missingPlaceholder = "missing-placeholder"
  /// A plural rule dictionary Foundation cannot use (a missing format key or variable).
  case pluralRules = "plural-rules"
  /// Plural forms missing or unknown for the language.
  case pluralForms = "plural-forms"
  /// A plural variable the format does not use.
  case unusedVariable = "unused-variable"
  /// A key the development language has and a translation lacks.
  case missingTranslation = "missing-translation"
  /// A key a translation has and the development language lacks.
  case extraKey = "extra-key"

  /// Whether the finding makes the table unreadable or ambiguous: always an error, and
  /// the only kind `strings compile` (and so the build) stops for.
  public var isFatal: Bool {
    switch self {
    case .syntax, .duplicateOutput, .template, .invalidLanguage: true
    default: false
    }
  }

  /// What the rule checks, in a sentence: the help a SARIF report gives each rule.
  public var summary: String {
    switch self {
    case .syntax:
      "The table cannot be read: a syntax or encoding error, or a file that cannot be opened."
    case .duplicateOutput: "Two tables compile to one output file."
    case .conflictingDuplicate:
      "A key defined twice with different values; CoreFoundation keeps the last."
    case .template: "A code-generation template failed."
    case .invalidLanguage: "A folder, catalog or XLIFF file names something that is no language."
    case .duplicateKey: "A key defined twice with the same value."
    case .notAString: "A value that is an array or dictionary where a string is expected."
    case .emptyValue: "An empty value."
    case .unsafePlaceholder: "%s, %c or %p: placeholders Swift cannot pass safely."
    case .placeholderTypeConflict: "One argument used with two types in one string."
    case .unusedArgument: "An argument position no placeholder uses (often a stray %)."
    case .placeholderMismatch:
      "A translation's placeholders take other arguments than the development language's: a crash at run time."
    case .missingPlaceholder: "A translation leaves out an argument."
    case .pluralRules: "A plural rule dictionary Foundation cannot use."
    case .pluralForms: "Plural forms missing or unknown for the language."
    case .unusedVariable: "A plural variable the format does not use."
    case .missingTranslation: "A key the development language has and a translation lacks."
    case .extraKey: "A key a translation has and the development language lacks."
    }
  }

  /// The rule as a diagnostic carries it: configurable unless fatal.
  public var diagnosticRule: Diagnostic.Rule {
    Diagnostic.Rule(name: rawValue, isConfigurable: !isFatal)
  }
}

extension Diagnostic {
  /// A finding about a strings table at a place in a file; a fatal rule is always an error.
  public init(
    _ severity: Severity, _ rule: StringsRule, _ path: String, line: Int? = nil,
    column: Int? = nil, _ message: String
  ) {
    self.init(
      rule.isFatal ? .error : severity, path: path, line: line, column: column, message,
      rule: rule.diagnosticRule)
  }

  /// The strings-table rule the finding comes from, when it comes from one.
  public var stringsRule: StringsRule? { rule.flatMap { StringsRule(rawValue: $0.name) } }
}

/// Which severity each finding gets: the rules' own (`strings lint`), every finding that
/// leaves the table readable lowered to a warning (`strings compile`, so what CoreFoundation
/// reads and Xcode builds compiles), then the user's choices on top.
public struct SeverityPolicy: Sendable, Hashable {
  /// A level a user may give a rule.
  public enum Level: String, Sendable, Hashable, CaseIterable {
    /// Stops lint and compile.
    case error
    /// Reported.
    case warning
    /// Not reported.
    case ignore
  }

  /// Whether findings that leave a table readable are warnings whatever their rule says.
  public var readableAreWarnings = false
  /// Severities chosen per rule (fatal rules stay errors).
  public var levels: [StringsRule: Level] = [:]
  /// Whether every warning becomes an error (`--warnings-as-errors`, `lint --strict`).
  public var warningsAsErrors = false

  /// The rules' own severities.
  public init() {}

  /// `strings compile`'s policy: only unreadable or ambiguous tables are errors.
  public static var compile: SeverityPolicy {
    var policy = SeverityPolicy()
    policy.readableAreWarnings = true
    return policy
  }

  /// Reads `rule=level` (`unsafe-placeholder=error`) into `levels`; nil with a reason when
  /// the text is not one.
  public mutating func set(_ text: String) -> String? {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let rule = StringsRule(rawValue: parts[0]) else {
      return
        "'\(text)' is not RULE=LEVEL with a rule of: \(StringsRule.allCases.map(\.rawValue).joined(separator: ", "))"
    }
    guard let level = Level(rawValue: parts[1]) else {
      return "'\(parts[1])' is not a level: error, warning or ignore"
    }
    if rule.isFatal, level != .error {
      return "\(rule.rawValue) makes a table unreadable or ambiguous: it is always an error"
    }
    levels[rule] = level
    return nil
  }

  /// The findings with their severities decided; ignored ones dropped.
  public func apply(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.compactMap { diagnostic in
      var result = diagnostic
      guard let rule = diagnostic.stringsRule, !rule.isFatal else { return result }
      if readableAreWarnings { result.severity = .warning }
      switch levels[rule] {
      case .error?: result.severity = .error
      case .warning?: result.severity = .warning
      case .ignore?: return nil
      case nil: break
      }
      if warningsAsErrors { result.severity = .error }
      return result
    }
  }
}
