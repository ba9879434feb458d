import BundleKitDiagnostics

/// Why a file or folder could not be read, written, locked or listed. It prints as a
/// compiler-style diagnostic: `path: error: message`.
public enum FileSystemError: DiagnosticConvertible, Sendable, Equatable {
  /// The file (or folder) and what went wrong with it, the system's reason included.
  case io(path: String, message: String)

  /// The file the error is about.
  public var path: String {
    switch self {
    case .io(let path, _): path
    }
  }

  /// What went wrong, without the file: for callers that place it themselves.
  public var message: String {
    switch self {
    case .io(_, let message): message
    }
  }

  /// One error naming the file.
  public var diagnostics: [Diagnostic] { [.error(path, message)] }
}
