import ArgumentParser
import CommandLineTool
import Diagnostics
import FileSystem
import PropertyListXML
import StringsTable

/// `bundlekit strings lint PATH...`.
struct StringsLint: ParsableCommand {
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

  @OptionGroup var severity: SeverityOptions

  @OptionGroup var formatOptions: FormatOptions

  @Option(
    help: """
      A file written (empty) when the tables pass: the output a build system waits for \
      (the CompileStrings plugin in an Xcode target, where Xcode compiles the tables).
      """)
  var stamp: String?

  func run() throws {
    let locations: [TableLocation]
    do {
      locations = try TableDiscovery.tables(in: paths)
    } catch {
      StandardStreams.report(error.diagnostics)
      throw ExitCode(1)
    }
    var policy = severity.policy(SeverityPolicy())
    policy.warningsAsErrors = policy.warningsAsErrors || strict
    let diagnostics = policy.apply(
      StringsLinter(developmentLanguage: languageOptions.developmentLanguage).lint(locations))
    switch formatOptions.format {
    case .text:
      StandardStreams.report(diagnostics)
      // Many placeholder findings usually mean values that are not format strings: said
      // once, not once per finding.
      let formatFindings = diagnostics.filter {
        $0.stringsRule.map(SeverityOptions.formatRules.contains) ?? false
      }.count
      if formatFindings >= 20 {
        StandardStreams.printToStandardError(
          "note: \(formatFindings) placeholder findings: if these values are text your app fills itself (%0, %1), pass --not-format (bundlekit.json: \"notFormat\": true)"
        )
      }
      let errors = diagnostics.filter { $0.severity == .error }.count
      StandardStreams.printToStandardError(
        "\(locations.count) table\(locations.count == 1 ? "" : "s") checked: \(errors) error\(errors == 1 ? "" : "s"), \(diagnostics.count - errors) warning\(diagnostics.count - errors == 1 ? "" : "s")"
      )
    case .json:
      let report = PropertyListValue.array(
        diagnostics.map { diagnostic in
          var entry: PropertyListDictionary = [
            "severity": .string(diagnostic.severity.rawValue),
            "path": .string(diagnostic.path ?? ""),
            "rule": .string(diagnostic.rule?.name ?? ""),
          ]
          if let line = diagnostic.line { entry["line"] = .int(line) }
          if let column = diagnostic.column { entry["column"] = .int(column) }
          entry["message"] = .string(diagnostic.message)
          return .dictionary(entry)
        })
      StandardStreams.writeToStandardOutput(try report.encoded(as: .json))
    }
    if diagnostics.contains(where: { $0.severity == .error }) {
      throw ExitCode(1)
    }
    // Written anew on every pass, so its time is newer than the tables it checked.
    if let stamp { try FileIO.writeAtomically([], to: stamp) }
  }
}
