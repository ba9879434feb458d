import Foundation

/// What the strings plugins share, for packages and Xcode projects alike: which files are
/// tables, and what compiling them writes (declared as outputs, so builds stay incremental).
enum StringsTables {
  /// The tables among `files`: `.strings`, `.stringsdict`, `.xcstrings`.
  static func tables(in files: [URL]) -> [URL] {
    files.filter { TableLayout.extensions.contains($0.pathExtension) }
  }

  /// Compiling `tables` into `folder`, with the options of `configuration` (a package
  /// target: SwiftPM copies the compiled tables into the target's resource bundle).
  static func compile(
    _ tables: [URL], into folder: URL, targetName: String, configuration: PluginConfiguration
  ) throws -> PlannedCommand {
    var outputs: [URL] = []
    for table in tables {
      // The paths the tool writes, by the rules it compiles by (TableLayout is its file).
      let parent = table.deletingLastPathComponent().lastPathComponent
      let isCatalog = table.pathExtension == "xcstrings"
      let paths = TableLayout.outputPaths(
        table: table.deletingPathExtension().lastPathComponent,
        fileExtension: table.pathExtension,
        language: parent.hasSuffix(".lproj") ? String(parent.dropLast(".lproj".count)) : nil,
        catalogLanguages: isCatalog ? try catalogLanguages(table) : [])
      outputs += paths.map { folder.appending(path: $0) }
    }
    // One command for all tables, so translations are checked against each other; warnings
    // reach the build log.
    return PlannedCommand(
      displayName: "Compiling strings tables of \(targetName)",
      arguments: ["strings", "compile"] + tables.map(\.path)
        + ["--output-dir", folder.path, "--warnings"] + configuration.compileArguments,
      inputs: tables + configuration.files,
      outputs: outputs)
  }

  /// Linting `tables` only, a stamp file its declared output (an Xcode target: Xcode's own
  /// resource phase compiles the tables, and a second producer of the same `.strings` would
  /// be "Multiple commands produce").
  static func lint(
    _ tables: [URL], stampIn folder: URL, targetName: String, configuration: PluginConfiguration
  ) -> PlannedCommand {
    let stamp = folder.appending(path: "strings-lint.stamp")
    return PlannedCommand(
      displayName: "Checking strings tables of \(targetName)",
      arguments: ["strings", "lint"] + tables.map(\.path) + ["--stamp", stamp.path]
        + configuration.lintArguments,
      inputs: tables + configuration.files,
      outputs: [stamp])
  }

  /// Generating typed accessors for `tables` into `folder`, read from `bundle` (`module` for
  /// a package target; see `strings generate --bundle`).
  static func generate(
    _ tables: [URL], into folder: URL, targetName: String, bundle: String = "module",
    configuration: PluginConfiguration
  ) -> PlannedCommand {
    let output = folder.appending(path: "Strings+Generated.swift")
    return PlannedCommand(
      displayName: "Generating string accessors for \(targetName)",
      arguments: ["strings", "generate"] + tables.map(\.path) + ["--output", output.path]
        + (bundle == "module" ? [] : ["--bundle", bundle]) + configuration.generateArguments,
      inputs: tables + configuration.files,
      outputs: [output])
  }

  /// The source language and every language with a localization, as the tool compiles them.
  static func catalogLanguages(_ catalog: URL) throws -> [String] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [String: Any]
    let strings = json?["strings"] as? [String: Any] ?? [:]
    return TableLayout.catalogLanguages(
      source: json?["sourceLanguage"] as? String,
      keyLanguages: strings.values.map {
        Array(((($0 as? [String: Any])?["localizations"] as? [String: Any]) ?? [:]).keys)
      })
  }
}
