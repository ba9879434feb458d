import FileSystem
import PropertyListXML

/// Why a version command could not run; nothing was written.
public enum VersioningError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A path given does not exist.
  case notFound(path: String)
  /// A file could not be read or parsed.
  case unreadable(path: String, line: Int?, message: String)
  /// A value that is not a valid version.
  case invalidVersion(path: String, key: String, value: String)
  /// A build-setting reference defined nowhere it could be edited.
  case unresolvedReference(path: String, key: String, setting: String)
  /// A property list that could not be read, parsed or written (the error names the file
  /// and, for malformed text, the line and column).
  case propertyList(PropertyListError)
  /// A file that could not be read.
  case file(FileSystemError)
  /// A batch whose writing failed; no file was replaced.
  case notWritten(FileSystemError)
  /// A file that would change but is write-protected; no file was replaced.
  case writeProtected(path: String)
  /// A version whose part would reach 2^32 if raised.
  case cannotRaise(path: String, key: String, value: String)
  /// A requested scheme could not give a number.
  case scheme(message: String)
  /// No Info.plist or project was found.
  case nothingFound(paths: [String])
  /// Values that could not be resolved or read as versions (each message names its file,
  /// line and chain).
  case unresolvable(problems: [VersionProblem])
  /// A bump that would lower a value, not asked for with `--allow-lower`.
  case wouldLower(path: String, key: String, current: String, new: String)

  /// A compiler-style diagnostic.
  public var description: String {
    switch self {
    case .notFound(let path):
      "\(path): error: no such file or folder"
    case .unreadable(let path, let line, let message):
      "\(path)\(line.map { ":\($0)" } ?? ""): error: \(message)"
    case .invalidVersion(let path, let key, let value):
      "\(path): error: \(key) '\(value)' is not a version (1 to 3 period-separated whole numbers, each below 4294967296)"
    case .unresolvedReference(let path, let key, let setting):
      "\(path): error: \(key) is $(\(setting)), which no .xcconfig beside it and no Xcode project above it defines; nothing was changed"
    case .propertyList(let error):
      error.description
    case .file(let error):
      error.description
    case .notWritten(let error):
      "\(error); no file was changed"
    case .writeProtected(let path):
      "\(path): error: the file is write-protected (make it writable, or open it for edit in your version control); no file was changed"
    case .cannotRaise(let path, let key, let value):
      "\(path): error: \(key) \(value) cannot be raised: a part would reach 4294967296 (2^32)"
    case .scheme(let message):
      "error: \(message)"
    case .nothingFound(let paths):
      "error: no Info.plist or Xcode project found in \(paths.joined(separator: ", "))"
    case .unresolvable(let problems):
      problems.map(\.message).joined(separator: "\n") + "\nerror: nothing was changed"
    case .wouldLower(let path, let key, let current, let new):
      "\(path): error: \(key) would go down from \(current) to \(new); give --allow-lower to do that on purpose; nothing was changed"
    }
  }
}
