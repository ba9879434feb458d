/// An error that tells what went wrong as diagnostics: where (file, line, column) and what.
///
/// Every error type of BundleKit's libraries conforms, so one printer reports them all (the
/// tools' ``Diagnostic`` lines on standard error, exit status 1) and no caller needs to know
/// the type. The description is the diagnostics' text, one per line.
public protocol DiagnosticConvertible: Error, CustomStringConvertible {
  /// The findings this error stands for, in the order they are printed.
  var diagnostics: [Diagnostic] { get }
}

extension DiagnosticConvertible {
  /// One compiler-style line per diagnostic.
  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}

extension Diagnostic {
  /// The diagnostics of any error: its own when it is ``DiagnosticConvertible``, otherwise one
  /// error carrying its description.
  public static func of(_ error: any Error) -> [Diagnostic] {
    (error as? any DiagnosticConvertible)?.diagnostics ?? [.error(nil, "\(error)")]
  }
}

/// Findings that stop a command: at least one error, with the warnings found beside it.
public struct DiagnosticsError: DiagnosticConvertible, Sendable {
  /// Every finding, errors and warnings.
  public var diagnostics: [Diagnostic]

  /// Findings that stop a command.
  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
