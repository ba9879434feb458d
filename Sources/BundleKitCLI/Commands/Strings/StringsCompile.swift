import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit strings compile PATH... --output-dir DIR`.
struct StringsCompile: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "compile",
    abstract: "Compile strings tables to binary property lists, keeping the <lang>.lproj layout.",
    discussion: """
      .strings and .stringsdict files become binary plists at DIR/<lang>.lproj/<name>. A \
      String Catalog (.xcstrings) becomes DIR/<lang>.lproj/<Table>.strings and .stringsdict \
      for every language it has; untranslated keys fall back to the source language. What \
      CoreFoundation reads compiles (text or property-list tables; a key defined twice \
      keeps its last value, with a warning): only a table that is unreadable or ambiguous \
      (syntax, encoding, two tables for one output) stops the run, before anything is \
      written. --prune-below 0.7 leaves out every language translated under 70% (as if it \
      had no tables). Other findings are warnings (shown with \
      --warnings); --warnings-as-errors or --severity RULE=error make them stop it. The \
      outputs are written as one batch: all or none, even when the run is killed.
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String]

  @Option(help: "Where to write the compiled tables.")
  var outputDir: String

  @OptionGroup var languageOptions: LanguageOptions

  @Flag(help: "Also print warnings (missing translations, duplicates ...).")
  var warnings = false

  @Flag(help: "List the files written.")
  var verbose = false

  @OptionGroup var severity: SeverityOptions

  @Option(
    help: ArgumentHelp(
      "Leave out each language translated under this share (0 to 1) of the development language's keys.",
      valueName: "share"))
  var pruneBelow: Double?

  @Flag(
    help:
      "Write a left-out language's tables with the development language's text instead of none (what a build plugin, which must write every output it declared, needs)."
  )
  var prunedAsDevelopment = false

  func validate() throws {
    if let pruneBelow, !(0...1).contains(pruneBelow) {
      throw ValidationError("--prune-below must be between 0 and 1, not \(pruneBelow)")
    }
  }

  func run(_ run: ToolRun) throws {
    let policy = try severity.apply(
      in: run, base: .compile)
    do {
      let locations = try TableDiscovery.tables(in: paths)
      LargeHeap.restartIfWorthIt(inputBytes: LargeHeap.totalSize(of: locations.map(\.path)))
      var compiler = StringsCompiler(
        developmentLanguage: languageOptions.developmentLanguage(in: run))
      compiler.policy = policy
      let pruneBelow = run.setting(self.pruneBelow, \.pruneBelow)
      compiler.pruneBelow = pruneBelow
      compiler.prunedLanguagesUseDevelopmentTables = prunedAsDevelopment
      let compiled = try compiler.compile(locations, into: outputDir)
      for (language, share) in compiled.pruned.sorted(by: { $0.key < $1.key }) {
        run.diagnostics.note(
          "\(language) left out: \(String(format: "%.1f", share * 100))% translated, under --prune-below \(pruneBelow ?? 0)"
        )
      }
      if warnings {
        run.diagnostics.emit(compiled.warnings)
      } else if !compiled.warnings.isEmpty {
        // Never silent about a table that builds but may crash at run time (a placeholder
        // that disagrees with the development language): counted by rule, --warnings lists.
        run.diagnostics.note(Self.summary(of: compiled.warnings))
      }
      if verbose { for path in compiled.paths { StandardStreams.printLine(path) } }
    } catch {
      // The errors that stopped the run always; its warnings only with --warnings.
      let stopping = error.diagnostics.filter { $0.severity == .error }
      guard !stopping.isEmpty else { throw error }
      run.diagnostics.emit(warnings ? error.diagnostics : stopping)
    }
  }

  /// "3 warnings (placeholder-mismatch 2, missing-translation 1): --warnings lists them".
  static func summary(of warnings: [Diagnostic]) -> String {
    var counts: [String: Int] = [:]
    for warning in warnings { counts[warning.rule?.name ?? "other", default: 0] += 1 }
    let rules = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
      .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    return
      "\(warnings.count) warning\(warnings.count == 1 ? "" : "s") (\(rules)): --warnings lists them"
  }
}
