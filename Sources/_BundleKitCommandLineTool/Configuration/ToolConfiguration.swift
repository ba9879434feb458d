import BundleKitDiagnostics
import BundleKitPropertyListCore
import Foundation

/// `bundlekit.json`: settings that stand in for options a command line does not give, for
/// CLI and CI users (`bundlekit --config bundlekit.json strings lint ...`) and for the
/// plugins, which find the nearest file and pass its path.
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
/// An option given on the command line wins over the file; `severities` from both apply,
/// the command line's last.
public struct ToolConfiguration: Sendable, Equatable {
  /// The development language (`--development-language`).
  public var developmentLanguage: String?
  /// `public` or `internal` accessors (`strings generate --public`).
  public var accessLevel: String?
  /// The top-level enum of generated accessors (`--enum-name`).
  public var enumName: String?
  /// A shipped template name or a `.mustache` file, a relative path read from the
  /// configuration's folder (`--template`).
  public var template: String?
  /// Every warning is an error (`--warnings-as-errors`).
  public var warningsAsErrors: Bool?
  /// The values are text, not format strings (`--not-format`).
  public var notFormat: Bool?
  /// Rule severities, `RULE=LEVEL` as `--severity` takes them, in the file's order.
  public var severities: [String] = []
  /// Leave out languages translated under this share (`--prune-below`).
  public var pruneBelow: Double?
  /// The output format when the command line names none (`--format`): `github` in a
  /// repository whose CI is GitHub Actions.
  public var format: String?
  /// The file read, when there was one.
  public var file: String?

  /// ``format`` as a choice; `load(_:)` refuses a name that is none.
  public var formatChoice: FormatChoice? { format.flatMap(FormatChoice.init(rawValue:)) }

  /// No settings: every option keeps its default.
  public init() {}

  /// The keys a configuration may hold.
  public static let keys = [
    "developmentLanguage", "accessLevel", "enumName", "template", "warningsAsErrors",
    "notFormat", "severities", "pruneBelow", "format",
  ]

  /// Reads `path`. Malformed JSON is an error at its line and column; a value of the wrong
  /// type is an error at its key; an unknown key is a warning there (a misspelt setting
  /// would otherwise be ignored without a word).
  ///
  /// - Parameter path: The configuration file.
  /// - Returns: The settings, and warnings about the file.
  public static func load(_ path: String) throws -> (ToolConfiguration, [Diagnostic]) {
    // Only a regular file of at most 1 MiB: a link to /dev/zero or a FIFO is not a
    // configuration, and reading one would never end.
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    guard let attributes else {
      throw DiagnosticsError([.error(path, "no configuration file here")])
    }
    guard attributes[.type] as? FileAttributeType == .typeRegular else {
      throw DiagnosticsError([.error(path, "a configuration is a regular file")])
    }
    guard (attributes[.size] as? NSNumber)?.intValue ?? 0 <= 1 << 20,
      let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20
    else {
      throw DiagnosticsError([.error(path, "a configuration file is at most 1 MiB")])
    }
    let bytes = Array(data)
    let decoded = bytes.withUnsafeBytes { buffer -> Result<PropertyListValue, PropertyListError> in
      do throws(PropertyListError) {
        return .success(try PropertyListValue.decode(buffer, format: .json))
      } catch {
        return .failure(error)
      }
    }
    let root: PropertyListValue
    switch decoded {
    case .success(let value): root = value
    case .failure(let error): throw error.inFile(path)
    }
    guard let dictionary = root.dictionaryValue else {
      throw DiagnosticsError([.error(path, line: 1, column: 1, "a configuration is a JSON object")])
    }
    let text = String(decoding: bytes, as: UTF8.self)
    func located(_ key: String, _ severity: Diagnostic.Severity, _ message: String) -> Diagnostic {
      let (line, column) = position(ofKey: key, in: text)
      return Diagnostic(severity, path: path, line: line, column: column, message)
    }
    var configuration = ToolConfiguration()
    configuration.file = path
    var errors: [Diagnostic] = []
    var warnings: [Diagnostic] = []
    func string(_ key: String) -> String? {
      guard let value = dictionary[key] else { return nil }
      guard let text = value.stringValue, !text.isEmpty else {
        errors.append(located(key, .error, "'\(key)' must be a non-empty string"))
        return nil
      }
      return text
    }
    func bool(_ key: String) -> Bool? {
      guard let value = dictionary[key] else { return nil }
      guard let flag = value.boolValue else {
        errors.append(located(key, .error, "'\(key)' must be true or false"))
        return nil
      }
      return flag
    }
    configuration.developmentLanguage = string("developmentLanguage")
    configuration.accessLevel = string("accessLevel")
    if let level = configuration.accessLevel, !["public", "internal"].contains(level) {
      errors.append(
        located(
          "accessLevel", .error,
          "'accessLevel' must be \"public\" or \"internal\", not \"\(level)\""))
    }
    configuration.enumName = string("enumName")
    if let template = string("template") {
      // A path is read from the configuration's folder; a bare name is a shipped template.
      let isPath = template.contains("/") || template.hasSuffix(".mustache")
      configuration.template =
        isPath && !template.hasPrefix("/")
        ? URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(template)
          .path : template
    }
    configuration.warningsAsErrors = bool("warningsAsErrors")
    configuration.notFormat = bool("notFormat")
    if let value = dictionary["severities"] {
      if let levels = value.dictionaryValue {
        for (rule, level) in levels {
          guard let level = level.stringValue else {
            errors.append(
              located(rule, .error, "the severity of '\(rule)' must be error, warning or ignore"))
            continue
          }
          configuration.severities.append("\(rule)=\(level)")
        }
      } else {
        errors.append(
          located(
            "severities", .error,
            "'severities' must be an object of rules and levels: error, warning or ignore"))
      }
    }
    if let value = dictionary["pruneBelow"] {
      let share: Double? =
        switch value {
        case .real(let number): number
        case .integer: value.int64Value.map(Double.init)
        default: nil
        }
      if let share, (0...1).contains(share) {
        configuration.pruneBelow = share
      } else {
        errors.append(located("pruneBelow", .error, "'pruneBelow' must be a number from 0 to 1"))
      }
    }
    configuration.format = string("format")
    if let format = configuration.format, FormatChoice(rawValue: format) == nil {
      errors.append(
        located(
          "format", .error,
          "'format' must be one of \(FormatChoice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(format)\""
        ))
    }
    for key in dictionary.keys where !keys.contains(key) {
      warnings.append(
        located(key, .warning, "unknown setting '\(key)' (known: \(keys.joined(separator: ", ")))"))
    }
    if !errors.isEmpty { throw DiagnosticsError(warnings + errors) }
    return (configuration, warnings)
  }

  /// The 1-based line and column of `"key"` written as a key in `text`, or nil.
  static func position(ofKey key: String, in text: String) -> (Int?, Int?) {
    let quoted = "\"" + key + "\""
    var line = 1
    var column = 1
    var index = text.startIndex
    while index < text.endIndex {
      if text[index...].hasPrefix(quoted) {
        let after = text[text.index(index, offsetBy: quoted.count)...]
        if after.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first == ":" {
          return (line, column)
        }
      }
      if text[index] == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index = text.index(after: index)
    }
    return (nil, nil)
  }
}
