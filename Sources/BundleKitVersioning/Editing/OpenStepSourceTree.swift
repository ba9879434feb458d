import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitPropertyListCore

/// An old-style (OpenStep) property list read with the byte range of every string, so single
/// values can be replaced in place: Xcode's `project.pbxproj` and OpenStep Info.plists keep
/// every other byte, comments and layout included.
public indirect enum OpenStepSourceTree: Sendable, Hashable {
  /// A string and the range of its token (quotes included).
  case string(String, Range<Int>)
  /// Data, by range.
  case data(Range<Int>)
  /// An array.
  case array([OpenStepSourceTree])
  /// A dictionary: keys with their token ranges, in order.
  case dictionary([(key: String, keyRange: Range<Int>, value: OpenStepSourceTree)])

  /// Parses OpenStep text (UTF-8).
  public static func parse(_ bytes: [UInt8], path: String) throws(VersioningError)
    -> OpenStepSourceTree
  {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(PropertyListError) -> OpenStepSourceTree in
        var scanner = OpenStepScanner(bytes: buffer)
        if let bad = UTF8Validation.firstInvalidByte(in: buffer) {
          scanner.position = bad
          throw scanner.error("byte 0x\(String(buffer[bad], radix: 16)) is not UTF-8")
        }
        try scanner.skipSpace()
        let value = try parseValue(&scanner, depth: 0)
        try scanner.skipSpace()
        guard scanner.current == nil else {
          throw scanner.error("unexpected \(scanner.currentDescription) after the top-level value")
        }
        return value
      }
    }
    switch result {
    case .success(let tree): return tree
    case .failure(let error):
      throw .propertyList(error.inFile(path))
    }
  }

  private static func parseValue(_ scanner: inout OpenStepScanner, depth: Int)
    throws(PropertyListError) -> OpenStepSourceTree
  {
    guard depth < 256 else { throw scanner.error("nesting deeper than 256 levels") }
    switch scanner.current {
    case UInt8(ascii: "{"):
      scanner.position += 1
      var entries: [(key: String, keyRange: Range<Int>, value: OpenStepSourceTree)] = []
      while true {
        try scanner.skipSpace()
        guard let byte = scanner.current else {
          throw scanner.error("dictionary is not closed with '}'")
        }
        if byte == UInt8(ascii: "}") {
          scanner.position += 1
          return .dictionary(entries)
        }
        let keyStart = scanner.position
        let key = try scanner.scanString()
        let keyRange = keyStart..<scanner.position
        try scanner.skipSpace()
        guard scanner.current == UInt8(ascii: "=") else {
          throw scanner.error("expected '=' after key '\(key)'")
        }
        scanner.position += 1
        try scanner.skipSpace()
        let value = try parseValue(&scanner, depth: depth + 1)
        try scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ";") else {
          throw scanner.error("expected ';' after the value of '\(key)'")
        }
        scanner.position += 1
        entries.append((key, keyRange, value))
      }
    case UInt8(ascii: "("):
      scanner.position += 1
      var items: [OpenStepSourceTree] = []
      while true {
        try scanner.skipSpace()
        guard let byte = scanner.current else {
          throw scanner.error("array is not closed with ')'")
        }
        if byte == UInt8(ascii: ")") {
          scanner.position += 1
          return .array(items)
        }
        items.append(try parseValue(&scanner, depth: depth + 1))
        try scanner.skipSpace()
        if scanner.current == UInt8(ascii: ",") { scanner.position += 1 }
      }
    case UInt8(ascii: "<"):
      let start = scanner.position
      _ = try scanner.scanData()
      return .data(start..<scanner.position)
    default:
      let start = scanner.position
      let value = try scanner.scanString()
      return .string(value, start..<scanner.position)
    }
  }

  /// The value for `key`, when this is a dictionary.
  public subscript(key: String) -> OpenStepSourceTree? {
    guard case .dictionary(let entries) = self else { return nil }
    return entries.last { $0.key == key }?.value
  }

  /// The string, when this is one.
  public var string: String? {
    if case .string(let value, _) = self { return value }
    return nil
  }

  /// The token range, when this is a string.
  public var range: Range<Int>? {
    if case .string(_, let range) = self { return range }
    return nil
  }

  /// An edit replacing this string's token with `value`, quoted as needed.
  public func replacing(with value: String) -> TextEdit? {
    guard let range else { return nil }
    return TextEdit(range: range, replacement: OpenStepPropertyListWriter.literal(value))
  }
}

extension OpenStepSourceTree {
  /// Equality by structure and ranges.
  public static func == (lhs: OpenStepSourceTree, rhs: OpenStepSourceTree) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a, let r), .string(let b, let s)): a == b && r == s
    case (.data(let r), .data(let s)): r == s
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)):
      a.count == b.count
        && zip(a, b).allSatisfy {
          $0.key == $1.key && $0.keyRange == $1.keyRange && $0.value == $1.value
        }
    default: false
    }
  }

  /// Hashes the structure.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let value, let range):
      hasher.combine(value)
      hasher.combine(range.lowerBound)
    case .data(let range): hasher.combine(range.lowerBound)
    case .array(let items): hasher.combine(items)
    case .dictionary(let entries):
      for entry in entries {
        hasher.combine(entry.key)
        hasher.combine(entry.value)
      }
    }
  }
}
