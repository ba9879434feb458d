import BundleKitDiagnostics
import Foundation

/// Where every command's findings go: printed on standard error as they come, counted, and
/// turned into the tool's exit status by ``ToolMain``, with `--warnings-as-errors` applied
/// here and nowhere else (as swift-format's frontend does).
///
/// Commands emit into ``ToolMain/diagnostics`` and never choose an exit code: a run that
/// emitted an error exits 1, one that threw a ``DiagnosticConvertible`` error too, anything
/// else 0.
public final class DiagnosticsEngine: @unchecked Sendable {
  // One lock: commands emit from worker threads too (progress of parallel compiles).
  private let lock = NSLock()
  private var errors = 0
  private var warnings = 0
  private var upgrade = false
  private var hintsByRule: [String: String] = [:]
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
    for diagnostic in diagnostics { consumer(count(diagnostic)) }
  }

  /// Prints and counts one finding.
  public func emit(_ diagnostic: Diagnostic) { emit([diagnostic]) }

  /// Counts findings that the command prints itself, as data (`--format json`).
  public func record(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics { _ = count(diagnostic) }
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
