import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit strings lint PATH...`.
struct StringsLint: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check strings tables: syntax, duplicates, missing keys, placeholders, plural rules.",
    discussion: """
      PATH may be files or folders (searched for .strings, .stringsdict and .xcstrings, \
      skipping .build, .git, DerivedData, Pods and Carthage). Findings are printed as \
      path:line:col: warning|error: message [rule]. Exits 1 when there are errors (with \
      --strict or --warnings-as-errors, warnings too). A key whose comment holds \
      bundlekit:not-format is text, not a format string (bundlekit:not-format-file: every \
      key of its file; in a String Catalog, the key's comment).
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String] = ["."]

  @OptionGroup var languageOptions: LanguageOptions

  @Flag(help: "Fail on warnings too (the same as --warnings-as-errors).")
  var strict = false

  @Flag(
    help: """
      Judge as a build does (`strings compile`, the CompileStrings plugin): only a table \
      CoreFoundation cannot read, or two tables for one output, is an error, since Xcode \
      builds the rest; every other finding is a warning unless --severity or the \
      configuration's severities raise it.
      """)
  var asBuild = false

  @OptionGroup var severity: SeverityOptions

  @OptionGroup var formatOptions: FormatOptions

  @Option(
    help: """
      A file written (empty) when the tables pass: the output a build system waits for \
      (the CompileStrings plugin in an Xcode target, where Xcode compiles the tables).
      """)
  var stamp: String?

  /// One finding as `--format json` prints it.
  struct Finding: Encodable {
    var severity: Diagnostic.Severity
    var path: String
    var rule: String
    var line: Int?
    var column: Int?
    var message: String

    init(_ diagnostic: Diagnostic) {
      severity = diagnostic.severity
      path = diagnostic.path ?? ""
      rule = diagnostic.rule?.name ?? ""
      line = diagnostic.line
      column = diagnostic.column
      message = diagnostic.message
    }
  }

  func run(_ run: ToolRun) throws {
    let diagnostics = run.diagnostics
    let locations = try TableDiscovery.tables(in: paths)
    diagnostics.checked(locations.map(\.path))
    let findings = try severity.apply(
      in: run, base: asBuild ? .compile : SeverityPolicy(), strict: strict
    ).apply(
      StringsLinter(developmentLanguage: languageOptions.developmentLanguage(in: run)).lint(
        locations))
    switch formatOptions.format(in: run) {
    case .text:
      diagnostics.emit(findings)
      // Many placeholder findings usually mean values that are not format strings: said
      // once, not once per finding.
      let formatFindings = findings.filter {
        $0.stringsRule.map(SeverityOptions.formatRules.contains) ?? false
      }.count
      if formatFindings >= 20 {
        diagnostics.note(
          "\(formatFindings) placeholder findings: if these values are text your app fills itself (%0, %1), pass --not-format (bundlekit.json: \"notFormat\": true)"
        )
      }
      let errors = diagnostics.errorCount
      let warnings = diagnostics.warningCount
      StandardStreams.printToStandardError(
        "\(locations.count) table\(locations.count == 1 ? "" : "s") checked: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
      )
    case .json:
      diagnostics.record(findings)
      StandardStreams.writeJSON(
        findings.map { Finding($0.with(severity: diagnostics.severity(of: $0))) })
    }
    // Written anew on every pass, so its time is newer than the tables it checked.
    if let stamp, !diagnostics.hasErrors { try FileIO.writeAtomically([], to: stamp) }
  }
}

extension StringsLint: ReportsFindingsInFormat {}
