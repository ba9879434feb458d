import BundleKitFileSystem
import BundleKitPropertyList

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

  /// What the tables of one name in one bundle share, whatever their language or kind: the
  /// linter compares such tables with each other, and the build makes one output of them.
  var group: String { "\(bundleFolder)\u{0}\(table)" }
}

/// The 1-based line of each key of an XML or JSON table, found in one pass over its bytes:
/// their parsers keep no positions, and searching the file once per key made checking a
/// large table quadratic.
public struct KeyLines: Sendable {
  /// Each key as written in the file (escaped) to the line of its first appearance.
  private var lines: [[UInt8]: Int] = [:]
  private let written: @Sendable (String) -> [UInt8]

  /// The `<key>` elements of an XML property list.
  public init(xml bytes: [UInt8]) {
    written = { Array(XMLEscaping.escape($0).utf8) }
    let open = Array("<key>".utf8)
    let close = UInt8(ascii: "<")
    var line = 1
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
      } else if byte == open[0], bytes[index...].starts(with: open) {
        let start = index + open.count
        var end = start
        while end < bytes.count, bytes[end] != close { end += 1 }
        let key = Array(bytes[start..<end])
        if lines[key] == nil { lines[key] = line }
        // Keys hold no line breaks that matter here: count them anyway.
        for inner in start..<end where bytes[inner] == 0x0A { line += 1 }
        index = end
        continue
      }
      index += 1
    }
  }

  /// The object keys of a JSON document: strings followed by `:`.
  public init(json bytes: [UInt8]) {
    written = { Array(JSONEscaping.quoted($0).utf8.dropFirst().dropLast()) }
    var line = 1
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A { line += 1 }
      guard byte == UInt8(ascii: "\"") else {
        index += 1
        continue
      }
      let start = index + 1
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
        if bytes[end] == UInt8(ascii: "\\") { end += 1 }
        end += 1
      }
      var after = end + 1
      while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after]) {
        if bytes[after] == 0x0A { line += 1 }
        after += 1
      }
      if after < bytes.count, bytes[after] == UInt8(ascii: ":"), end <= bytes.count {
        let key = Array(bytes[start..<min(end, bytes.count)])
        if lines[key] == nil { lines[key] = line }
      }
      index = after
    }
  }

  /// The line of `key`, when the file writes it as BundleKit would escape it.
  public func line(of key: String) -> Int? { lines[written(key)] }
}
