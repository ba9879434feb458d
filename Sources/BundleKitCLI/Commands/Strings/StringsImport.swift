import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit strings import FILE.xliff|DIR.xcloc ... [PATH] [--dry-run]`.
struct StringsImport: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import translations from XLIFF or .xcloc into the tables, as Xcode does.",
    discussion: """
      Each <file original="..."> names a table relative to PATH (default: the current \
      folder). The whole input is checked first: every file needs a target-language, every \
      unit an id the table has and plural forms the language has; each problem is an error \
      with its line and column, and then nothing is written. A new translation whose \
      placeholders disagree with the source's (%@ for %lld, an argument the source does not \
      pass) refuses that unit alone, an error at its line: the others are written and the \
      run exits 1 (--strict refuses everything instead). Translations merge into catalogs, \
      and into <lang>.lproj/ .strings and .stringsdict tables; every table is written in one \
      batch. A translation equal to the table's changes nothing and is not checked, so \
      importing an unedited export changes no byte.
      """
  )

  @Argument(help: "XLIFF files or .xcloc folders, then optionally the project folder.")
  var inputs: [String]

  @Flag(help: "Check and list what would change, and write nothing.")
  var dryRun = false

  @Flag(help: "Write nothing when any unit is refused, placeholders included.")
  var strict = false

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) throws {
    var files = inputs
    var root = "."
    if files.count > 1, let last = files.last, !last.hasSuffix(".xliff"),
      !last.hasSuffix(".xcloc"), !last.hasSuffix(".xcloc/"), !last.hasSuffix(".xlf")
    {
      root = last
      files.removeLast()
    }
    // A killed run's batch in the project is finished first, so the plan starts from whole
    // tables (a dry run writes nothing: it warns of the batch instead).
    if !dryRun { ScratchRecovery.recoverTree([root]) }
    let plan = try LocalizationExchange.planImport(files, into: root, strict: strict)
    if plan.diagnostics.contains(where: { $0.severity == .error }) {
      throw DiagnosticsError(plan.diagnostics)
    }
    run.diagnostics.emit(plan.diagnostics)
    if !dryRun {
      for write in plan.writes { try FileIO.createFolders(for: write.path) }
      try FileIO.writeAtomically(plan.writes)
    }
    for change in plan.changes {
      StandardStreams.printLine(
        "\(change.path): \(change.units) translation\(change.units == 1 ? "" : "s")")
    }
    let total = plan.changes.reduce(0) { $0 + $1.units }
    StandardStreams.printToStandardError(
      total == 0
        ? "nothing to import: every translation is already in the tables"
        : "\(total) translations in \(plan.writes.count) tables\(dryRun ? " would be" : "") written"
    )
    // The refused units last, so they are what the run ends with; the exit status says
    // that not everything was imported.
    if !plan.refused.isEmpty {
      let count = plan.refused.count
      throw DiagnosticsError(
        plan.refused
          + [
            .error(
              root,
              "\(count) unit\(count == 1 ? "" : "s") refused for \(count == 1 ? "its" : "their") placeholders; the rest \(dryRun ? "would be" : "was") imported"
            )
          ])
    }
  }
}

extension StringsImport: ReportsFindingsInFormat {}
