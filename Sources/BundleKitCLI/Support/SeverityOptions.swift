import ArgumentParser
import BundleKitDiagnostics
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `--warnings-as-errors` and `--severity RULE=LEVEL`, shared by `strings lint` and
/// `strings compile`.
struct SeverityOptions: ParsableArguments {
  @Flag(help: "Treat every warning as an error.")
  var warningsAsErrors = false

  @Option(
    name: .customLong("severity"),
    help: ArgumentHelp(
      "Set a rule's severity: RULE=error|warning|ignore (repeatable).",
      discussion: "Rules: "
        + StringsRule.allCases.filter { !$0.isFatal }.map(\.rawValue).joined(separator: ", ")
        + ". Syntax, encoding and two tables for one output are always errors.",
      valueName: "rule=level"))
  var severities: [String] = []

  @Flag(
    help:
      "The values are text, not format strings (an app that fills %0, %1 itself): every placeholder check is off. Per file: a /* bundlekit:not-format-file */ comment."
  )
  var notFormat = false

  /// The rules that judge values as format strings.
  static let formatRules: [StringsRule] = [
    .unsafePlaceholder, .placeholderTypeConflict, .unusedArgument, .placeholderMismatch,
    .missingPlaceholder,
  ]

  func validate() throws {
    var policy = SeverityPolicy()
    for text in severities {
      if let problem = policy.set(text) { throw ValidationError(problem) }
    }
  }

  /// Applies `--warnings-as-errors` (and `lint --strict`, and the `--config` file's
  /// `warningsAsErrors`) to `run`'s engine, which then raises every warning it prints, and
  /// returns `base` with the configuration's settings and then these options on top; the
  /// policy follows the engine, so a compile stops before it writes anything. A severity the
  /// configuration gets wrong is an error naming it.
  func apply(in run: ToolRun, base: SeverityPolicy, strict: Bool = false) throws
    -> SeverityPolicy
  {
    let engine = run.diagnostics
    let configuration = run.configuration
    if warningsAsErrors || strict || configuration.warningsAsErrors == true {
      engine.warningsAsErrors = true
    }
    var policy = base
    if notFormat || configuration.notFormat == true {
      for rule in Self.formatRules { _ = policy.set("\(rule.rawValue)=ignore") }
    }
    for text in configuration.severities {
      if let problem = policy.set(text) {
        throw DiagnosticsError([.error(configuration.file, "severities: \(problem)")])
      }
    }
    for text in severities { _ = policy.set(text) }
    policy.warningsAsErrors = policy.warningsAsErrors || engine.warningsAsErrors
    return policy
  }
}
