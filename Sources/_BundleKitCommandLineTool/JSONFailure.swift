import BundleKitDiagnostics
import Foundation

extension FormatOptions {
  /// Runs `body`. With `--format json` (or the `--config` file's `format` of `run`), a failure also prints one JSON object on standard
  /// output, `{"ok": false, "diagnostics": [...]}` (each with `severity`, `path`, `line`,
  /// `column`, `message`), so a script that parses the output learns why instead of meeting
  /// an empty document; the error then goes on to standard error and the exit status as
  /// usual.
  public func reportingFailures<Value>(in run: ToolRun, _ body: () throws -> Value) throws
    -> Value
  {
    do {
      return try body()
    } catch let error as any DiagnosticConvertible {
      if format(in: run) == .json {
        StandardStreams.writeJSON(FailureReport(diagnostics: error.diagnostics))
      }
      throw error
    }
  }
}

/// What `--format json` prints when a command fails.
struct FailureReport: Encodable {
  var ok = false
  var diagnostics: [Diagnostic]
}
