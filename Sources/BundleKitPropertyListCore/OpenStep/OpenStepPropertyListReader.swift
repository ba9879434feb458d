import Foundation

/// Reads old-style ASCII property lists as CoreFoundation does: dictionaries `{ k = v; }`,
/// arrays `( a, b )` (a trailing comma allowed), `<hex>` data, and strings, quoted or not.
/// Every scalar is a string. A file holding only `key = value;` pairs (a `.strings` file)
/// reads as a dictionary, and an empty one as an empty dictionary.
package enum OpenStepPropertyListReader {
  static let maximumDepth = Nesting.maximumDepth

  static func read(_ raw: UnsafeRawBufferPointer) throws(PropertyListError) -> PropertyListValue {
    guard let text = utf8Text(raw) else {
      throw .syntax(path: nil, line: 1, column: 1, message: "not UTF-8 or UTF-16 text")
    }
    if let bad = text.withUnsafeBytes({ UTF8Validation.firstInvalidByte(in: $0) }) {
      let (line, column) = text.withUnsafeBytes { textLocation(of: bad, in: $0) }
      throw .syntax(
        path: nil, line: line, column: column,
        message: "byte 0x\(hex(text[bad])) is not UTF-8 (nor is the file UTF-16)")
    }
    return try text.withUnsafeBytes { bytes in
      Result { () throws(PropertyListError) in try parseDocument(bytes) }
    }.get()
  }

  private static func parseDocument(_ bytes: UnsafeRawBufferPointer) throws(PropertyListError)
    -> PropertyListValue
  {
    var scanner = OpenStepScanner(bytes: bytes)
    try scanner.skipSpace()
    if scanner.current == nil { return .dictionary([:]) }
    let start = scanner.position
    let value = try parseValue(&scanner, depth: 0)
    try scanner.skipSpace()
    if scanner.current == nil { return value }
    // `key = value;` at the top level: a strings file.
    if case .string = value,
      scanner.current == UInt8(ascii: "=") || scanner.current == UInt8(ascii: ";")
    {
      scanner.position = start
      let dictionary = try parseDictionaryContent(&scanner, depth: 0, closing: nil)
      return .dictionary(dictionary)
    }
    throw scanner.error("unexpected \(scanner.currentDescription) after the top-level value")
  }

  package static func parseValue(_ scanner: inout OpenStepScanner, depth: Int)
    throws(PropertyListError)
    -> PropertyListValue
  {
    guard depth <= maximumDepth else {
      throw scanner.error("nesting deeper than \(maximumDepth) levels")
    }
    guard let byte = scanner.current else {
      throw scanner.error("expected a value, found end of file")
    }
    switch byte {
    case UInt8(ascii: "{"):
      let open = scanner.position
      scanner.position += 1
      let dictionary = try parseDictionaryContent(&scanner, depth: depth + 1, closing: open)
      return .dictionary(dictionary)
    case UInt8(ascii: "("):
      let open = scanner.position
      scanner.position += 1
      var items: [PropertyListValue] = []
      try scanner.skipSpace()
      while scanner.current != UInt8(ascii: ")") {
        guard scanner.current != nil else {
          throw scanner.error("array opened here is not closed with ')'", at: open)
        }
        items.append(try parseValue(&scanner, depth: depth + 1))
        try scanner.skipSpace()
        if scanner.current == UInt8(ascii: ",") {
          scanner.position += 1
          try scanner.skipSpace()
        } else if scanner.current != UInt8(ascii: ")") {
          throw scanner.error("expected ',' or ')' in array, found \(scanner.currentDescription)")
        }
      }
      scanner.position += 1
      return .array(items)
    case UInt8(ascii: "<"):
      return .data(try scanner.scanData())
    default:
      guard scanner.atString else {
        throw scanner.error("expected a value, found \(scanner.currentDescription)")
      }
      return .string(try scanner.scanString())
    }
  }

  /// `key = value;` pairs up to `}` (when `closing` is the offset of its `{`) or the end.
  /// `key;` alone means `key = key;`, as in strings files.
  static func parseDictionaryContent(
    _ scanner: inout OpenStepScanner, depth: Int, closing open: Int?
  ) throws(PropertyListError) -> PropertyListDictionary {
    var dictionary = PropertyListDictionary()
    while true {
      try scanner.skipSpace()
      guard let byte = scanner.current else {
        if let open {
          throw scanner.error("dictionary opened here is not closed with '}'", at: open)
        }
        return dictionary
      }
      if byte == UInt8(ascii: "}"), open != nil {
        scanner.position += 1
        return dictionary
      }
      guard scanner.atString else {
        throw scanner.error("expected a key, found \(scanner.currentDescription)")
      }
      let key = try scanner.scanString()
      try scanner.skipSpace()
      if scanner.current == UInt8(ascii: ";") {
        scanner.position += 1
        dictionary[key] = .string(key)
        continue
      }
      guard scanner.current == UInt8(ascii: "=") else {
        throw scanner.error("expected '=' after key '\(key)', found \(scanner.currentDescription)")
      }
      scanner.position += 1
      try scanner.skipSpace()
      let value = try parseValue(&scanner, depth: depth + 1)
      try scanner.skipSpace()
      guard scanner.current == UInt8(ascii: ";") else {
        throw scanner.error(
          "expected ';' after the value of '\(key)', found \(scanner.currentDescription)")
      }
      scanner.position += 1
      dictionary[key] = value
    }
  }
}
