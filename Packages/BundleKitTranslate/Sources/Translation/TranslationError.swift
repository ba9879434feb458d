/// What can go wrong building, opening or asking a translation memory.
public enum TranslationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A table could not be read; the message carries `path:line:col:` where known.
  case unreadableTable(path: String, message: String)
  /// The memory file is missing, not a database, or not a BundleKit memory.
  case invalidMemory(path: String, message: String)
  /// A language code that names no language.
  case invalidLanguage(code: String)
  /// The remote provider answered with an error or not at all.
  case remote(url: String, message: String)

  /// The message, in compiler style where a file is involved.
  public var description: String {
    switch self {
    case .unreadableTable(let path, let message):
      message.hasPrefix(path) ? message : "\(path): \(message)"
    case .invalidMemory(let path, let message): "\(path): \(message)"
    case .invalidLanguage(let code): "\"\(code)\" is not a language code"
    case .remote(let url, let message): "\(url): \(message)"
    }
  }
}
