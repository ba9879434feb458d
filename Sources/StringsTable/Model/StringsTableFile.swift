import PropertyList

/// The kinds of localization file.
public enum StringsTableKind: String, Sendable, Hashable, CaseIterable {
  /// `.strings`: key = value pairs.
  case strings
  /// `.stringsdict`: plural and width rules.
  case stringsdict
  /// `.xcstrings`: a String Catalog holding every language.
  case catalog = "xcstrings"

  /// The kind for a file name's extension, if it is a table.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: ".") else { return nil }
    self.init(rawValue: String(path[path.index(after: dot)...]))
  }
}

/// Where a table file sits: its table name and the language of its `<lang>.lproj` folder.
public struct TableLocation: Sendable, Hashable {
  /// The file's path.
  public var path: String
  /// The file kind.
  public var kind: StringsTableKind
  /// The table name: the file name without extension (`Localizable`).
  public var table: String
  /// The language from an enclosing `<lang>.lproj` folder (`Base` included), nil when none.
  public var language: String?
  /// The path of the folder holding the `.lproj` (or the file), so tables of one bundle group
  /// together.
  public var bundleFolder: String

  /// Works out the location of a table file from its path; nil when it is not a table.
  public init?(path: String) {
    guard let kind = StringsTableKind(path: path) else { return nil }
    self.path = path
    self.kind = kind
    let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let name = components.last ?? path
    table = String(name[..<(name.lastIndex(of: ".") ?? name.endIndex)])
    let parent = components.count >= 2 ? components[components.count - 2] : ""
    if parent.hasSuffix(".lproj") {
      language = String(parent.dropLast(".lproj".count))
      bundleFolder = components.dropLast(2).joined(separator: "/")
    } else {
      language = nil
      bundleFolder = components.dropLast().joined(separator: "/")
    }
  }
}

/// The 1-based line of the first occurrence of `needle` in `bytes`, for pointing diagnostics at
/// a key in XML or JSON files whose parsers keep no positions.
func line(of needle: String, in bytes: [UInt8]) -> Int? {
  let pattern = Array(needle.utf8)
  guard !pattern.isEmpty, pattern.count <= bytes.count else { return nil }
  var line = 1
  var index = 0
  let last = bytes.count - pattern.count
  while index <= last {
    if bytes[index] == 0x0A { line += 1 }
    if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) {
      return line
    }
    index += 1
  }
  return nil
}
