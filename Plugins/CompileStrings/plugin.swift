import Foundation
import PackagePlugin

/// Compiles a target's `.strings`, `.stringsdict` and `.xcstrings` tables to binary property
/// lists in its resource bundle, on Linux as on macOS, so `Bundle.module` finds every
/// language. The tool checks the tables first: errors fail the build with `file:line:`
/// diagnostics.
///
/// Only works out paths; `bundlekit strings compile` does the work.
@main
struct CompileStrings: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let tables = target.sourceFiles.map(\.url).filter {
      ["strings", "stringsdict", "xcstrings"].contains($0.pathExtension)
    }
    guard !tables.isEmpty else { return [] }
    let output = context.pluginWorkDirectoryURL
    var outputs: [URL] = []
    for table in tables {
      let name = table.deletingPathExtension().lastPathComponent
      if table.pathExtension == "xcstrings" {
        // A catalog compiles to every language it holds.
        for language in try catalogLanguages(table) {
          outputs.append(output.appending(path: "\(language).lproj/\(name).strings"))
          outputs.append(output.appending(path: "\(language).lproj/\(name).stringsdict"))
        }
      } else {
        let folder = table.deletingLastPathComponent().lastPathComponent
        let relative =
          folder.hasSuffix(".lproj")
          ? "\(folder)/\(table.lastPathComponent)" : table.lastPathComponent
        outputs.append(output.appending(path: relative))
      }
    }
    // One command for all tables, so translations are checked against each other.
    return [
      .buildCommand(
        displayName: "Compiling strings tables of \(target.name)",
        executable: try context.tool(named: "bundlekit").url,
        arguments: ["strings", "compile"] + tables.map(\.path) + [
          "--output-dir", output.path, "--warnings",
        ],
        inputFiles: tables,
        outputFiles: outputs
      )
    ]
  }

  /// The source language and every language with a localization, as the tool compiles them.
  private func catalogLanguages(_ catalog: URL) throws -> [String] {
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
