import BundleKitDiagnostics
import Foundation

/// Where every command's findings go: printed on standard error as they come, counted, and
/// turned into the tool's exit status by ``ToolMain``, with `--warnings-as-errors` applied
/// here and nowhere else (as swift-format's frontend does).
///
/// Commands emit into their run's engine (``ToolRun/diagnostics``) and never choose an exit code: a run that
/// emitted an error exits 1, one that threw a ``DiagnosticConvertible`` error too, anything
/// else 0.
public final class DiagnosticsEngine: @unchecked Sendable {
  // One lock: commands emit from worker threads too (progress of parallel compiles).
  private let lock = NSLock()
  private var errors = 0
  private var warnings = 0
  private var upgrade = false
  private var hintsByRule: [String: String] = [:]
  private var reportFormat: ReportFormat?
  private var reported: [Diagnostic] = []
  private var checkedFiles: [String] = []
  private let consumer: @Sendable (Diagnostic) -> Void

  /// An engine that hands each finding to `consumer` (by default: print it on standard
  /// error in compiler style).
  public init(
    consumer: @escaping @Sendable (Diagnostic) -> Void = { StandardStreams.report([$0]) }
  ) {
    self.consumer = consumer
  }

  /// Whether every warning counts, and prints, as an error (`--warnings-as-errors`,
  /// `strings lint --strict`). Set by the options that offer the flag.
  public var warningsAsErrors: Bool {
    get { lock.withLock { upgrade } }
    set { lock.withLock { upgrade = newValue } }
  }

  /// How the tool lifts each refusal (``Diagnostic/Rule/refusal(_:)``), by rule name: added
  /// as a note to every finding of that rule, so libraries name no command-line flag.
  public var hints: [String: String] {
    get { lock.withLock { hintsByRule } }
    set { lock.withLock { hintsByRule = newValue } }
  }

  /// The CI format findings are reported in (`--format github|sarif|junit|checkstyle|markdown`,
  /// or the configuration's `format`): findings are then collected, not printed, and
  /// ``finishReport(_:)`` writes them as one document. The exit status does not change.
  public var report: ReportFormat? {
    get { lock.withLock { reportFormat } }
    set { lock.withLock { reportFormat = newValue } }
  }

  /// Records files a command checked, findings or not (a JUnit report's passing cases).
  public func checked(_ paths: [String]) {
    lock.withLock { checkedFiles += paths }
  }

  /// Writes the collected findings as ``report`` asks, once, to standard output (nothing
  /// without a report format). With `github` and `$GITHUB_STEP_SUMMARY` set, a line of
  /// counts is added to the step summary.
  public func finishReport(_ context: ReportContext) {
    let (format, findings, checked) = lock.withLock {
      () -> (ReportFormat?, [Diagnostic], [String]) in
      defer {
        reportFormat = nil
        reported = []
      }
      return (reportFormat, reported, checkedFiles)
    }
    guard let format else { return }
    let report = FindingsReport(
      tool: context.tool, version: context.version, command: context.command,
      diagnostics: findings, checked: checked, root: context.root, rules: context.rules)
    StandardStreams.writeDocument(report.encoded(as: format))
    if format == .github {
      StepSummary.append(
        "**\(context.tool) \(context.command)**: \(report.counts)\n")
    }
  }

  /// Whether an error was emitted: the run fails.
  public var hasErrors: Bool { lock.withLock { errors > 0 } }

  /// The number of errors emitted so far (warnings raised to errors included).
  public var errorCount: Int { lock.withLock { errors } }

  /// The number of warnings emitted so far that stayed warnings.
  public var warningCount: Int { lock.withLock { warnings } }

  /// The severity `diagnostic` is reported with: a warning is an error under
  /// ``warningsAsErrors``.
  public func severity(of diagnostic: Diagnostic) -> Diagnostic.Severity {
    diagnostic.severity == .warning && warningsAsErrors ? .error : diagnostic.severity
  }

  /// Prints and counts findings.
  public func emit(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics {
      let counted = count(diagnostic)
      let collected = lock.withLock { () -> Bool in
        guard reportFormat != nil else { return false }
        reported.append(counted)
        return true
      }
      if !collected { consumer(counted) }
    }
  }

  /// Prints and counts one finding.
  public func emit(_ diagnostic: Diagnostic) { emit([diagnostic]) }

  /// Counts findings that the command prints itself, as data (`--format json`); in a CI
  /// report they are the report's.
  public func record(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics {
      let counted = count(diagnostic)
      lock.withLock { if reportFormat != nil { reported.append(counted) } }
    }
  }

  /// Prints and counts an error about no file.
  public func error(_ message: String) { emit(.error(nil, message)) }

  /// Prints and counts a warning about no file.
  public func warning(_ message: String) { emit(Diagnostic(.warning, path: nil, message)) }

  /// Prints a note about no file (notes never fail a run).
  public func note(_ message: String) { emit(Diagnostic(.note, path: nil, message)) }

  /// The diagnostics of `error`, printed and counted: what the tool does with an error a
  /// command throws, and what a command does with one it goes on after.
  public func emit(error: any Error) { emit(Diagnostic.of(error)) }

  /// 1 when an error was emitted, otherwise 0.
  public var exitStatus: Int32 { hasErrors ? 1 : 0 }

  private func count(_ diagnostic: Diagnostic) -> Diagnostic {
    lock.withLock {
      var reported = diagnostic
      if reported.severity == .warning && upgrade { reported.severity = .error }
      if let rule = reported.rule, let hint = hintsByRule[rule.name],
        !reported.notes.contains(hint)
      {
        reported.notes.append(hint)
      }
      switch reported.severity {
      case .error: errors += 1
      case .warning: warnings += 1
      case .note: break
      }
      return reported
    }
  }
}

/// What a CI report names around its findings: the tool, its version, the command, the
/// folder paths are relative to, and help for the rules.
public struct ReportContext: Sendable {
  /// The tool (`bundlekit`).
  public var tool: String
  /// Its version.
  public var version: String
  /// The command (`strings lint`).
  public var command: String
  /// The workspace: `$GITHUB_WORKSPACE`, else the current folder.
  public var root: String
  /// Help for each rule, by name.
  public var rules: [String: String]

  /// A context; `root` defaults to the workspace.
  public init(
    tool: String, version: String, command: String, root: String? = nil,
    rules: [String: String] = [:]
  ) {
    self.tool = tool
    self.version = version
    self.command = command
    self.root =
      root ?? ProcessInfo.processInfo.environment["GITHUB_WORKSPACE"].flatMap {
        $0.isEmpty ? nil : $0
      } ?? FileManager.default.currentDirectoryPath
    self.rules = rules
  }
}

/// `$GITHUB_STEP_SUMMARY`: the Markdown file GitHub Actions shows on a run's page. Appended
/// to (GitHub's own rule: every step adds to it); nothing without the variable.
public enum StepSummary {
  /// Appends `markdown` to the step summary, when the run has one.
  public static func append(_ markdown: String) {
    guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty,
      let handle = FileHandle(forWritingAtPath: path)
    else { return }
    defer { try? handle.close() }
    _ = try? handle.seekToEnd()
    try? handle.write(contentsOf: Data(markdown.utf8))
  }
}
