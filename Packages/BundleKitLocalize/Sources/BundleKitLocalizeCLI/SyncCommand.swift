import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyListCore
import BundleKitStringsExtraction
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit strings sync PATH... [--check]`.
struct SyncCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Bring a target's String Catalogs up to date with its Swift sources, as Xcode does.",
    discussion: """
      PATH is a target's folder (or several): its Swift sources are extracted as `extract` \
      does, and each table's strings merged into the target's <Table>.xcstrings: new keys \
      added with their comment and default value, keys gone from the code marked stale (or \
      removed when never translated, as Xcode does), manual keys left alone, comments \
      updated. No translation is lost. A table with no catalog but a development-language \
      <lang>.lproj/<Table>.strings gets the new keys appended. Catalogs keep Xcode's layout: \
      syncing an up-to-date catalog changes no byte. Every file is written in one atomic \
      batch. With --check nothing is written, and the run fails (exit 1) listing what would \
      change.
      """
  )

  @Argument(help: "The target's folders (Swift sources and tables are found in them).")
  var paths: [String] = ["."]

  @Flag(help: "Write nothing; list what would change and fail (exit 1) if anything would.")
  var check = false

  @OptionGroup var languageOptions: LanguageOptions

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) throws {
    let plan = try SyncPlan.make(
      paths: paths, language: languageOptions.developmentLanguage(in: run))
    run.diagnostics.emit(plan.diagnostics)
    // A source that could not be read holds strings sync would take for deleted: nothing is
    // written, and --check cannot call the tables up to date.
    guard !plan.diagnostics.contains(where: { $0.severity == .error }) else {
      StandardStreams.printToStandardError("nothing was written: a Swift source could not be read")
      return
    }
    var lines = ""
    for table in plan.tables {
      for change in table.changes { lines += "\(table.path): \(change)\n" }
    }
    StandardStreams.writeToStandardOutput(Array(lines.utf8))
    let changed = plan.tables.filter { !$0.changes.isEmpty }
    let count = changed.reduce(0) { $0 + $1.changes.count }
    let summary =
      "\(plan.stringCount) strings in \(plan.fileCount) Swift files; \(count) changes in \(changed.count) of \(plan.tables.count) tables"
    if check {
      if count == 0 {
        StandardStreams.printToStandardError(summary + ": up to date")
      } else {
        // A CI report names each change at its table, so the annotation lands on the file.
        if reportFormat(in: run) != nil {
          for table in plan.tables {
            for change in table.changes {
              run.diagnostics.emit(.error(table.path, "out of step with the code: \(change)"))
            }
          }
        }
        // Out of date fails the check.
        run.diagnostics.error(summary + ": run `bundlekit strings sync` to apply")
      }
      return
    }
    try FileIO.writeAtomically(changed.map { FileWrite(path: $0.path, bytes: $0.bytes) })
    StandardStreams.printToStandardError(summary + (count == 0 ? ": up to date" : ": written"))
  }
}

/// What sync would write: each table with its new bytes and changes.
struct SyncPlan {
  /// One table of the target after sync.
  struct Table {
    var path: String
    var bytes: [UInt8]
    var changes: [CatalogSync.Change]
  }

  var tables: [Table] = []
  var diagnostics: [Diagnostic] = []
  var stringCount = 0
  var fileCount = 0

  /// Extracts the sources under `paths` and merges them into the tables found there.
  static func make(paths: [String], language: String) throws -> SyncPlan {
    var plan = SyncPlan()
    let locations = try TableDiscovery.tables(in: paths)
    let files = try SwiftSources.read(paths)
    let extraction = SwiftSources.extractor(for: paths).extract(
      files, context: SwiftSources.context(for: paths, files: files))
    plan.diagnostics = extraction.diagnostics
    plan.fileCount = files.count
    plan.stringCount = extraction.strings.count
    var byTable: [String: [CatalogSync.CodeString]] = [:]
    for string in extraction.strings {
      byTable[string.tableName, default: []].append(
        CatalogSync.CodeString(
          key: string.key, value: string.defaultValue, comment: string.comment,
          file: string.file, line: string.line, column: string.column,
          uncertainSpecifiers: string.uncertainSpecifiers))
    }
    let catalogs = Dictionary(grouping: locations.filter { $0.kind == .catalog }, by: \.table)
    let stringsTables = Dictionary(
      grouping: locations.filter { $0.kind == .strings && $0.language == language }, by: \.table)
    var problems: [Diagnostic] = []
    for (table, found) in catalogs.merging(
      stringsTables, uniquingKeysWith: { catalog, _ in catalog })
    where found.count > 1 {
      problems.append(
        .error(
          found[1].path,
          "a second table named \(table) (the first is \(found[0].path)); sync one target at a time"
        ))
    }
    if !problems.isEmpty { throw DiagnosticsError(problems) }

    // Tables Xcode fills from elsewhere than Swift: InfoPlist from the Info.plist, a table
    // named after a storyboard or xib from that file. Code never makes their keys stale.
    let notFromCode = SwiftSources.interfaceBuilderNames(in: paths).union(["InfoPlist"])
    for (table, found) in catalogs where !notFromCode.contains(table) {
      guard let location = found.first else { continue }
      let catalog = try StringCatalog(contentsOfFile: location.path)
      let result = try CatalogSync.sync(
        catalog, with: byTable[table] ?? [], literals: extraction.literals)
      plan.diagnostics += result.diagnostics
      plan.tables.append(Table(path: location.path, bytes: result.bytes, changes: result.changes))
    }
    for (table, found) in stringsTables where catalogs[table] == nil && !notFromCode.contains(table)
    {
      guard let location = found.first else { continue }
      let bytes = try FileIO.read(location.path)
      let file = try StringsFile(bytes: bytes, path: location.path)
      let result = try StringsTableSync.sync(file, bytes: bytes, with: byTable[table] ?? [])
      plan.diagnostics += result.diagnostics
      plan.tables.append(Table(path: location.path, bytes: result.bytes, changes: result.changes))
    }
    for (table, strings) in byTable.sorted(by: { $0.key < $1.key })
    where catalogs[table] == nil && stringsTables[table] == nil {
      guard let first = strings.first else { continue }
      let count = strings.count == 1 ? "its string is" : "its \(strings.count) strings are"
      plan.diagnostics.append(
        Diagnostic(
          .warning, path: first.file, line: first.line, column: first.column,
          "table \(table) has no \(table).xcstrings or \(language).lproj/\(table).strings here; \(count) not synced (create the catalog to keep them)"
        ))
    }
    plan.tables.sort { $0.path < $1.path }
    return plan
  }
}

extension SyncCommand: ReportsFindingsInFormat {}
