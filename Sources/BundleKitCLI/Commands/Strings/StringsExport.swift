import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsTable
import BundleKitVersioning
import _BundleKitCommandLineTool

/// `bundlekit strings export PATH... --xcloc DIR [--language LANG ...]`.
struct StringsExport: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export strings for translators as Xcode does: one .xcloc per language.",
    discussion: """
      Writes DIR/<lang>.xcloc for each language the tables have (or each --language): \
      contents.json, Localized Contents/<lang>.xliff (XLIFF 1.2, one <file> per table, \
      Xcode's ids for plurals, devices and substitutions, comments as notes, states from the \
      catalog) and Source Contents/ (the development tables). Tables are named relative to \
      the current folder, so run import from the same folder. All files are written as one \
      batch, or none.
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String] = ["."]

  @Option(help: "The folder to write the .xcloc bundles in.")
  var xcloc: String

  @Option(
    name: .customLong("language"),
    help: "A language to export (repeat for several; default: every language the tables have).")
  var languages: [String] = []

  @OptionGroup var languageOptions: LanguageOptions

  func run(_ run: ToolRun) throws {
    var warnings: [Diagnostic] = []
    let developmentLanguage = languageOptions.developmentLanguage(in: run)
    // Each app's, extension's and framework's Info.plist strings, as Xcode exports them
    // where the target has no InfoPlist table of its own.
    let infoPlists = try InfoPlistStrings.tables(
      in: paths, developmentLanguage: developmentLanguage, warnings: &warnings
    ).map { table in
      LocalizationExchange.GeneratedTable(
        path: table.path,
        entries: table.entries.map { .init(key: $0.key, value: $0.value, comment: $0.note) })
    }
    // Each target's Swift code, as Xcode extracts it into the target's own tables.
    let code = try ExportCode.strings(
      in: paths, developmentLanguage: developmentLanguage, warnings: &warnings)
    let outputs = try LocalizationExchange.export(
      paths, to: xcloc, languages: languages, developmentLanguage: developmentLanguage,
      toolVersion: BundleKit.configuration.version, generated: infoPlists + code.catalogs,
      code: code.merged, warnings: &warnings)
    run.diagnostics.emit(warnings)
    guard !outputs.isEmpty else {
      throw DiagnosticsError([
        Diagnostic(
          .error, path: nil,
          "nothing to export: no strings table in \(paths.joined(separator: " ")) has a language other than the development language; name one with --language"
        )
      ])
    }
    for output in outputs { try FileIO.createFolders(for: output.path) }
    try FileIO.writeAtomically(outputs)
    let bundles = outputs.filter { $0.path.hasSuffix("contents.json") }.map {
      Paths.parent($0.path)
    }
    for bundle in bundles { StandardStreams.printLine(bundle) }
    StandardStreams.printToStandardError(
      "\(bundles.count) .xcloc\(bundles.count == 1 ? "" : "s") written")
  }
}
