import Foundation

/// `bundlekit.json`, beside a target or at the package (or Xcode project) root, the nearest
/// winning: how the plugins run the tool.
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
///   "pruneBelow": 0.7
/// }
/// ```
struct PluginConfiguration: Decodable {
  var developmentLanguage: String?
  var accessLevel: String?
  var enumName: String?
  var template: String?
  var warningsAsErrors: Bool?
  /// The target's values are text, not format strings (an app that fills `%0`, `%1`
  /// itself): placeholder checks off.
  var notFormat: Bool?
  var severities: [String: String]?
  /// Languages translated under this share get the development language's text in the
  /// compiled tables: their users see the whole app in it rather than half translated.
  var pruneBelow: Double?

  /// The file read, as a build input (an edit reruns the commands).
  var files: [URL] = []

  enum CodingKeys: String, CodingKey {
    case developmentLanguage, accessLevel, enumName, template, warningsAsErrors, notFormat
    case severities, pruneBelow
  }

  /// The nearest `bundlekit.json` in `folders` (nearest first); an empty configuration when
  /// there is none. A file that does not read is an error naming it.
  static func load(from folders: [URL]) throws -> PluginConfiguration {
    for folder in folders {
      let file = folder.appending(path: "bundlekit.json")
      guard FileManager.default.fileExists(atPath: file.path) else { continue }
      do {
        var configuration = try JSONDecoder().decode(
          PluginConfiguration.self, from: Data(contentsOf: file))
        configuration.files = [file]
        if let template = configuration.template, !template.hasPrefix("/") {
          configuration.template = folder.appending(path: template).path
        }
        return configuration
      } catch {
        throw ConfigurationError(file: file.path, reason: "\(error)")
      }
    }
    return PluginConfiguration()
  }

  /// Options for `bundlekit strings compile`.
  var compileArguments: [String] {
    // SwiftPM copies a target's own `<lang>.lproj` tables into its bundle and the plugin must
    // write every output it declared: a left-out language gets the development tables.
    lintArguments
      + (pruneBelow.map { ["--prune-below", String($0), "--pruned-as-development"] } ?? [])
  }

  /// Options for `bundlekit strings lint` (the same checks as compiling).
  var lintArguments: [String] {
    var arguments: [String] = []
    if let developmentLanguage { arguments += ["--development-language", developmentLanguage] }
    if warningsAsErrors == true { arguments.append("--warnings-as-errors") }
    if notFormat == true { arguments.append("--not-format") }
    for (rule, level) in (severities ?? [:]).sorted(by: { $0.key < $1.key }) {
      arguments += ["--severity", "\(rule)=\(level)"]
    }
    return arguments
  }

  /// Options for `bundlekit strings generate`.
  var generateArguments: [String] {
    var arguments: [String] = []
    if let developmentLanguage { arguments += ["--development-language", developmentLanguage] }
    if accessLevel == "public" { arguments.append("--public") }
    if let enumName { arguments += ["--enum-name", enumName] }
    if let template { arguments += ["--template", template] }
    return arguments
  }
}

/// A `bundlekit.json` that could not be read.
struct ConfigurationError: Error, CustomStringConvertible {
  var file: String
  var reason: String
  var description: String { "\(file): error: not a BundleKit configuration: \(reason)" }
}
