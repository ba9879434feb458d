import Foundation
import PackagePlugin

/// What the strings plugins share, for packages and Xcode projects alike: which files are
/// tables, and what compiling them writes (declared as outputs, so builds stay incremental).
enum StringsTables {
  /// The tables among `files`: `.strings`, `.stringsdict`, `.xcstrings`.
  static func tables(in files: [URL]) -> [URL] {
    files.filter { ["strings", "stringsdict", "xcstrings"].contains($0.pathExtension) }
  }

  /// The command compiling `tables` into `folder`, with the options of `configuration`.
  static func compileCommand(
    tool: URL, tables: [URL], into folder: URL, targetName: String,
    configuration: PluginConfiguration
  ) throws -> Command {
    var outputs: [URL] = []
    for table in tables {
      let name = table.deletingPathExtension().lastPathComponent
      if table.pathExtension == "xcstrings" {
        // A catalog compiles to every language it holds.
        for language in try catalogLanguages(table) {
          outputs.append(folder.appending(path: "\(language).lproj/\(name).strings"))
          outputs.append(folder.appending(path: "\(language).lproj/\(name).stringsdict"))
        }
      } else {
        let parent = table.deletingLastPathComponent().lastPathComponent
        let relative =
          parent.hasSuffix(".lproj")
          ? "\(parent)/\(table.lastPathComponent)" : table.lastPathComponent
        outputs.append(folder.appending(path: relative))
      }
    }
    // One command for all tables, so translations are checked against each other; warnings
    // reach the build log.
    return .buildCommand(
      displayName: "Compiling strings tables of \(targetName)",
      executable: tool,
      arguments: ["strings", "compile"] + tables.map(\.path)
        + ["--output-dir", folder.path, "--warnings"] + configuration.compileArguments,
      inputFiles: tables + configuration.files,
      outputFiles: outputs
    )
  }

  /// The command generating typed accessors for `tables` into `folder`.
  static func generateCommand(
    tool: URL, tables: [URL], into folder: URL, targetName: String,
    configuration: PluginConfiguration
  ) -> Command {
    let output = folder.appending(path: "Strings+Generated.swift")
    return .buildCommand(
      displayName: "Generating string accessors for \(targetName)",
      executable: tool,
      arguments: ["strings", "generate"] + tables.map(\.path) + ["--output", output.path]
        + configuration.generateArguments,
      inputFiles: tables + configuration.files,
      outputFiles: [output]
    )
  }

  /// The source language and every language with a localization, as the tool compiles them.
  static func catalogLanguages(_ catalog: URL) throws -> [String] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [String: Any]
    var languages: [String] = []
    if let source = json?["sourceLanguage"] as? String { languages.append(source) }
    let strings = json?["strings"] as? [String: Any] ?? [:]
    for entry in strings.values {
      let localizations = (entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]
      for language in localizations.keys where !languages.contains(language) {
        languages.append(language)
      }
    }
    return languages
  }
}
