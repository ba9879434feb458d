import BundleKitDiagnostics

/// Why a property list could not be read, written or edited.
///
/// It prints as a compiler-style diagnostic (`path:line:col: error: message`), so SwiftPM and
/// Xcode show it inline.
public enum PropertyListError: DiagnosticConvertible, Sendable, Equatable {
  /// Malformed text in an XML, OpenStep or JSON property list, at a 1-based line and column.
  case syntax(path: String?, line: Int, column: Int, message: String)
  /// A corrupt or hostile binary property list, at a byte offset.
  case corruptBinary(path: String?, offset: Int, message: String)
  /// A value that the destination format cannot hold, at a key path.
  case unrepresentable(path: String?, keyPath: String, type: String, format: PropertyListFormat)
  /// A value that the destination format cannot write as it is, at a key path.
  case invalidValue(path: String?, keyPath: String, message: String)
  /// A key path that does not lead to a value, or cannot be edited as asked.
  case keyPath(path: String?, keyPath: String, message: String)
  /// A file that could not be read or written.
  case io(path: String, message: String)

  /// The same error, naming `path` as the file it happened in.
  public func inFile(_ path: String) -> PropertyListError {
    switch self {
    case .syntax(_, let line, let column, let message):
      .syntax(path: path, line: line, column: column, message: message)
    case .corruptBinary(_, let offset, let message):
      .corruptBinary(path: path, offset: offset, message: message)
    case .unrepresentable(_, let keyPath, let type, let format):
      .unrepresentable(path: path, keyPath: keyPath, type: type, format: format)
    case .invalidValue(_, let keyPath, let message):
      .invalidValue(path: path, keyPath: keyPath, message: message)
    case .keyPath(_, let keyPath, let message):
      .keyPath(path: path, keyPath: keyPath, message: message)
    case .io:
      self
    }
  }

  /// The same error with `component` put in front of its key path, as an error bubbles up
  /// out of a container.
  func nested(in component: String) -> PropertyListError {
    let escaped = PropertyListKeyPath.escape(component)
    func join(_ rest: String) -> String { rest.isEmpty ? escaped : escaped + "." + rest }
    switch self {
    case .unrepresentable(let path, let keyPath, let type, let format):
      return .unrepresentable(path: path, keyPath: join(keyPath), type: type, format: format)
    case .invalidValue(let path, let keyPath, let message):
      return .invalidValue(path: path, keyPath: join(keyPath), message: message)
    default:
      return self
    }
  }

  /// The file the error is about, when known.
  public var path: String? {
    switch self {
    case .syntax(let path, _, _, _), .corruptBinary(let path, _, _),
      .unrepresentable(let path, _, _, _),
      .invalidValue(let path, _, _), .keyPath(let path, _, _):
      path
    case .io(let path, _):
      path
    }
  }

  /// What went wrong, without the file, line and column: for callers that report the
  /// location their own way.
  public var message: String {
    switch self {
    case .syntax(_, _, _, let message), .io(_, let message):
      message
    case .corruptBinary(_, let offset, let message):
      "\(message) (at byte offset \(offset))"
    case .unrepresentable(_, let keyPath, let type, let format):
      "\(format) format cannot hold a \(type) value" + Self.location(keyPath)
    case .invalidValue(_, let keyPath, let message):
      message + Self.location(keyPath)
    case .keyPath(_, let keyPath, let message):
      "key path '\(keyPath)': \(message)"
    }
  }

  private static func location(_ keyPath: String) -> String {
    keyPath.isEmpty ? " (the root value)" : " (at key path '\(keyPath)')"
  }

  /// One error, at the line and column for malformed text.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .syntax(let path, let line, let column, _):
      [.error(path ?? "<input>", line: line, column: column, message)]
    case .corruptBinary(let path, _, _):
      [.error(path ?? "<input>", message)]
    case .io(let path, _):
      [.error(path, message)]
    case .unrepresentable(let path, _, _, _), .invalidValue(let path, _, _),
      .keyPath(let path, _, _):
      [.error(path, message)]
    }
  }
}

/// A 1-based line and column found by counting newlines up to a byte offset.
func textLocation(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
  var line = 1
  var lineStart = 0
  let end = min(offset, bytes.count)
  var index = 0
  while index < end {
    if bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    index += 1
  }
  return (line, textColumn(of: end, lineStart: lineStart, in: bytes))
}

/// The 1-based column of `offset` in the line starting at `lineStart`. Columns count
/// characters, not bytes: UTF-8 continuation bytes are skipped.
func textColumn(of offset: Int, lineStart: Int, in bytes: UnsafeRawBufferPointer) -> Int {
  var column = 1
  var index = lineStart
  while index < offset {
    if bytes[index] & 0xC0 != 0x80 { column += 1 }
    index += 1
  }
  return column
}
