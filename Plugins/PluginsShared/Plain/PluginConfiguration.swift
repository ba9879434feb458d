import Foundation

/// The `bundlekit.json` a plugin hands the tool: the nearest one beside the target or at the
/// package (or Xcode project) root. The plugin only finds it; `bundlekit --config FILE` reads
/// it (errors at their line and column, in the build log) and applies it, as it does for CLI
/// and CI users.
struct PluginConfiguration {
  /// The file found, when there is one.
  var file: URL?

  /// The file, as a build input (an edit reruns the commands).
  var files: [URL] { file.map { [$0] } ?? [] }

  /// The nearest `bundlekit.json` in `folders` (nearest first); none when there is none.
  static func load(from folders: [URL]) -> PluginConfiguration {
    for folder in folders {
      let file = folder.appending(path: "bundlekit.json")
      if FileManager.default.fileExists(atPath: file.path) {
        return PluginConfiguration(file: file)
      }
    }
    return PluginConfiguration()
  }

  /// `--config FILE`, when there is a file.
  var arguments: [String] { file.map { ["--config", $0.path] } ?? [] }

  /// Options for `bundlekit strings compile`. SwiftPM copies a target's own `<lang>.lproj`
  /// tables into its bundle and the plugin must write every output it declared: a language
  /// the configuration's `pruneBelow` leaves out gets the development language's tables.
  var compileArguments: [String] { arguments + ["--pruned-as-development"] }

  /// Options for `bundlekit strings lint` in an Xcode target: the checks and severities of
  /// compiling, so the plugin fails a build only where `strings compile` would (what Xcode
  /// builds, the plugin builds; a user raises a rule in the configuration's severities).
  var lintArguments: [String] { arguments + ["--as-build"] }

  /// Options for `bundlekit strings generate`.
  var generateArguments: [String] { arguments }
}
