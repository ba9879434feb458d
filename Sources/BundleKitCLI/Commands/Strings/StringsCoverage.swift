import ArgumentParser
import BundleKitDiagnostics
import BundleKitPropertyList
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit strings coverage PATH... [--min 0.9] [--format json]`.
struct StringsCoverage: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "coverage",
    abstract: "Show how much of each table is translated into each language.",
    discussion: """
      Per language and table: the keys translated out of the development language's, and \
      the keys missing. A catalog key counts when every unit of the language is in state \
      translated (needs_review does not); stale keys and keys not to translate are left out. \
      A regional variant (de-CH) counts what it inherits from its base (de). With --min, \
      exits 1 when any language of any table is under that share.
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String] = ["."]

  @OptionGroup var languageOptions: LanguageOptions

  @Option(help: "The share (0 to 1) every language of every table must reach.")
  var min: Double?

  /// What `strings coverage --format` prints.
  enum CoverageFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown, svg, github
  }

  @Option(
    help: ArgumentHelp(
      "Output: text, json, markdown (a table per language with a bar per share), svg (a badge: translated 87%), or github (annotations for --min, and the Markdown table added to $GITHUB_STEP_SUMMARY).",
      valueName: "format"))
  var format: CoverageFormat = .text

  func validate() throws {
    if let min, !(0...1).contains(min) {
      throw ValidationError("--min is a share from 0 to 1 (0.9 for 90%), not \(min)")
    }
  }

  func run(_ run: ToolRun) throws {
    let locations = try TableDiscovery.tables(in: paths)
    let loaded = StringsTableSet.load(locations)
    if !loaded.diagnostics.isEmpty { throw DiagnosticsError(loaded.diagnostics) }
    let coverage = TranslationCoverage(
      loaded, developmentLanguage: languageOptions.developmentLanguage(in: run))
    let under = coverage.rows.filter { row in min.map { row.share < $0 } ?? false }
    switch format {
    case .text, .github:
      var rows = [["LANGUAGE", "TABLE", "TRANSLATED", "SHARE", "FOLDER"]]
      for row in coverage.rows {
        rows.append([
          row.language, row.table, "\(row.translated)/\(row.total)", Self.percent(row.share),
          row.bundleFolder.isEmpty ? "." : row.bundleFolder,
        ])
      }
      var text = TextTable.render(rows)
      for row in coverage.rows where !row.missing.isEmpty {
        text += "\n\(row.language) \(row.table): missing \(row.missing.count): "
        text += row.missing.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
        if row.missing.count > 20 { text += ", and \(row.missing.count - 20) more" }
      }
      StandardStreams.printLine(text.hasSuffix("\n") ? String(text.dropLast()) : text)
    case .json:
      StandardStreams.writeJSON(coverage.rows)
    case .markdown:
      StandardStreams.writeToStandardOutput(Array(CoverageGraphics.markdown(coverage.rows).utf8))
    case .svg:
      StandardStreams.writeToStandardOutput(Array(CoverageGraphics.badge(coverage.rows).utf8))
    }
    if format == .github { StepSummary.append(CoverageGraphics.markdown(coverage.rows)) }
    guard let min, !under.isEmpty else { return }
    for row in under {
      run.diagnostics.error(
        "\(row.language) \(row.table) is \(Self.percent(row.share)) translated, under \(Self.percent(min)) (\(row.missing.count) missing)"
      )
    }
  }

  /// `87.5%`.
  static func percent(_ share: Double) -> String {
    let tenths = Int((share * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

extension StringsCoverage: ReportsFindings {
  func reportFormat(in run: ToolRun) -> ReportFormat? { format == .github ? .github : nil }
}
