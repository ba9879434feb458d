import BundleKitDiagnostics

/// The settings of a `bundlekit.json`, for CLI and CI users (`bundlekit --config
/// bundlekit.json strings lint ...`) and for the plugins, which find the nearest file and
/// pass its path: each stands in for an option of the strings commands that a command line
/// does not give.
///
/// ```json
/// {
///   "developmentLanguage": "en",
///   "accessLevel": "public",
///   "enumName": "L10n",
///   "template": "Templates/strings.mustache",
///   "warningsAsErrors": false,
///   "notFormat": false,
///   "severities": { "unsafe-placeholder": "error", "missing-translation": "ignore" },
///   "pruneBelow": 0.7,
///   "format": "github"
/// }
/// ```
///
/// Decoding refuses a key that is none of these (a misspelt setting would otherwise be
/// ignored without a word) and a value of the wrong type or range, every one of them at once
/// (``Refusals``), each naming its key.
public struct StringsSettings: Decodable, Sendable, Equatable {
  /// The development language (`--development-language`).
  public var developmentLanguage: String?
  /// `public` or `internal` accessors (`strings generate --public`).
  public var accessLevel: String?
  /// The top-level enum of generated accessors (`--enum-name`).
  public var enumName: String?
  /// A shipped template's name or a `.mustache` file (`--template`), as written.
  public var template: String?
  /// Every warning is an error (`--warnings-as-errors`).
  public var warningsAsErrors: Bool?
  /// The values are text, not format strings (`--not-format`).
  public var notFormat: Bool?
  /// Rule severities by rule: `error`, `warning` or `ignore` (`--severity RULE=LEVEL`).
  public var severityLevels: [String: String] = [:]
  /// Leave out languages translated under this share, 0 to 1 (`--prune-below`).
  public var pruneBelow: Double?
  /// The output format when the command line names none (`--format`).
  public var format: String?

  /// No settings: every option keeps its default.
  public init() {}

  /// The settings a file may hold, by their key.
  public enum Key: String, CodingKey, CaseIterable, Sendable {
    case developmentLanguage, accessLevel, enumName, template, warningsAsErrors, notFormat
    case severities, pruneBelow, format
  }

  /// ``severityLevels`` as `RULE=LEVEL`, as `--severity` takes them, by rule.
  public var severities: [String] {
    severityLevels.keys.sorted().map { "\($0)=\(severityLevels[$0] ?? "")" }
  }

  /// A key the file gets wrong, and why.
  public struct Refusal: Sendable, Equatable {
    /// The setting's key; for a severity, the rule's.
    public var key: String
    /// What is wrong, naming the key.
    public var message: String
  }

  /// Everything the file gets wrong, in key order. Its diagnostics have no place: the
  /// loader of a file (``Refusal/key``) knows where each key is.
  public struct Refusals: DiagnosticConvertible, Sendable, Equatable {
    /// Each key refused.
    public var refusals: [Refusal]

    /// One error per refusal.
    public var diagnostics: [Diagnostic] { refusals.map { .error(nil, $0.message) } }
  }

  /// Any key: a file's keys are its author's.
  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Decodes a configuration object; throws ``Refusals`` for unknown keys and bad values.
  public init(from decoder: any Decoder) throws {
    var refusals: [Refusal] = []
    let known = Key.allCases.map(\.rawValue)
    for key in try decoder.container(keyedBy: AnyKey.self).allKeys
    where !known.contains(key.stringValue) {
      refusals.append(
        Refusal(
          key: key.stringValue,
          message:
            "unknown setting '\(key.stringValue)' (known: \(known.joined(separator: ", ")))"))
    }
    let container = try decoder.container(keyedBy: Key.self)
    func value<Value: Decodable>(_ key: Key, _ type: Value.Type, _ expected: String) -> Value? {
      guard container.contains(key) else { return nil }
      guard let value = try? container.decode(Value.self, forKey: key) else {
        refusals.append(
          Refusal(key: key.rawValue, message: "'\(key.rawValue)' must be \(expected)"))
        return nil
      }
      return value
    }
    func text(_ key: Key) -> String? {
      let text = value(key, String.self, "a non-empty string")
      if text?.isEmpty == true {
        refusals.append(
          Refusal(key: key.rawValue, message: "'\(key.rawValue)' must be a non-empty string"))
        return nil
      }
      return text
    }
    developmentLanguage = text(.developmentLanguage)
    accessLevel = text(.accessLevel)
    if let level = accessLevel, !["public", "internal"].contains(level) {
      refusals.append(
        Refusal(
          key: Key.accessLevel.rawValue,
          message: "'accessLevel' must be \"public\" or \"internal\", not \"\(level)\""))
    }
    enumName = text(.enumName)
    template = text(.template)
    warningsAsErrors = value(.warningsAsErrors, Bool.self, "true or false")
    notFormat = value(.notFormat, Bool.self, "true or false")
    if container.contains(.severities) {
      if let levels = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: .severities) {
        for rule in levels.allKeys {
          if let level = try? levels.decode(String.self, forKey: rule) {
            severityLevels[rule.stringValue] = level
          } else {
            refusals.append(
              Refusal(
                key: rule.stringValue,
                message:
                  "the severity of '\(rule.stringValue)' must be error, warning or ignore"))
          }
        }
      } else {
        refusals.append(
          Refusal(
            key: Key.severities.rawValue,
            message:
              "'severities' must be an object of rules and levels: error, warning or ignore"))
      }
    }
    pruneBelow = value(.pruneBelow, Double.self, "a number from 0 to 1")
    if let share = pruneBelow, !(0...1).contains(share) {
      refusals.append(
        Refusal(key: Key.pruneBelow.rawValue, message: "'pruneBelow' must be a number from 0 to 1"))
      pruneBelow = nil
    }
    format = text(.format)
    if !refusals.isEmpty { throw Refusals(refusals: refusals) }
  }
}
