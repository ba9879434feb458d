import BundleKitDiagnostics

/// What can go wrong building, opening or asking a translation memory.
public enum TranslationError: DiagnosticConvertible, Sendable, Hashable {
  /// A table BundleKit cannot use, and why.
  case unreadableTable(path: String, message: String)
  /// A table that could not be read or found, as its reader reported it (file, line, column).
  case table([Diagnostic])
  /// The memory file is missing, not a database, or not a BundleKit memory.
  case invalidMemory(path: String, message: String)
  /// A language code that names no language.
  case invalidLanguage(code: String)
  /// The remote provider answered with an error or not at all.
  case remote(url: String, message: String)
  /// The server could not listen where it was asked to.
  case listen(host: String, port: Int, message: String)

  /// One error, naming the table, memory or server.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .unreadableTable(let path, let message): [.error(path, message)]
    case .table(let diagnostics): diagnostics
    case .invalidMemory(let path, let message): [.error(path, message)]
    case .invalidLanguage(let code): [.error(nil, "\"\(code)\" is not a language code")]
    case .remote(let url, let message): [.error(url, message)]
    case .listen(let host, let port, let message): [.error(nil, "\(host):\(port): \(message)")]
    }
  }
}
