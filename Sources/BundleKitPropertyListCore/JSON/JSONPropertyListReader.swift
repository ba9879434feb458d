import Foundation

/// Reads JSON (RFC 8259) into property-list values: objects become dictionaries (key order
/// kept), numbers with a fraction or exponent become reals and the rest integers. `null` has
/// no property-list form and is an error.
package struct JSONPropertyListReader: ~Copyable {
  static let maximumDepth = Nesting.maximumDepth

  private let bytes: UnsafeRawBufferPointer
  private var position = 0
  /// Keys an object holds twice (a bad merge): the last value is kept, as Foundation keeps it.
  private var duplicates: [DuplicateKey] = []

  /// A key an object holds a second time, and where.
  package struct DuplicateKey: Sendable, Hashable {
    /// The key.
    package var key: String
    /// Where the second one is, 1-based.
    package var line: Int
    /// The column, 1-based.
    package var column: Int
  }

  static func read(_ raw: UnsafeRawBufferPointer) throws(PropertyListError) -> PropertyListValue {
    try readReportingDuplicates(raw).value
  }

  /// Reads JSON text, which must be UTF-8, and the keys objects hold twice.
  package static func readReportingDuplicates(_ raw: UnsafeRawBufferPointer)
    throws(PropertyListError) -> (value: PropertyListValue, duplicates: [DuplicateKey])
  {
    var start = 0
    if raw.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    var reader = JSONPropertyListReader(bytes: UnsafeRawBufferPointer(rebasing: raw[start...]))
    if let bad = UTF8Validation.firstInvalidByte(in: reader.bytes) {
      throw reader.error(
        "byte 0x\(hex(reader.bytes[bad])) is not UTF-8, which JSON must be", at: bad)
    }
    reader.skipSpace()
    let value = try reader.parseValue(depth: 0)
    reader.skipSpace()
    guard reader.position == reader.bytes.count else {
      throw reader.error("unexpected \(reader.currentDescription) after the JSON value")
    }
    return (value, reader.duplicates)
  }

  private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  private func error(_ message: String, at offset: Int? = nil) -> PropertyListError {
    let (line, column) = textLocation(of: offset ?? position, in: bytes)
    return .syntax(path: nil, line: line, column: column, message: message)
  }

  private var currentDescription: String {
    guard position < bytes.count else { return "end of file" }
    let byte = bytes[position]
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(hex(byte))"
  }

  private mutating func skipSpace() {
    while position < bytes.count, isSpace(bytes[position]) { position += 1 }
  }

  private mutating func expect(_ literal: StaticString) throws(PropertyListError) {
    let count = literal.utf8CodeUnitCount
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
    guard position + count <= bytes.count,
      bytes[position..<position + count].elementsEqual(expected)
    else {
      throw error("expected '\(literal)'")
    }
    position += count
  }

  private mutating func parseValue(depth: Int) throws(PropertyListError) -> PropertyListValue {
    guard depth <= Self.maximumDepth else {
      throw error("nesting deeper than \(Self.maximumDepth) levels")
    }
    guard position < bytes.count else { throw error("expected a value, found end of file") }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      let open = position
      position += 1
      var dictionary = PropertyListDictionary()
      skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .dictionary(dictionary)
      }
      while true {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          if position >= bytes.count { throw error("object opened here is not closed", at: open) }
          throw error("expected a string key, found \(currentDescription)")
        }
        let keyStart = position
        let key = try parseString()
        if dictionary[key] != nil {
          let (line, column) = textLocation(of: keyStart, in: bytes)
          duplicates.append(DuplicateKey(key: key, line: line, column: column))
        }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
          throw error("expected ':' after key \"\(key)\", found \(currentDescription)")
        }
        position += 1
        skipSpace()
        dictionary[key] = try parseValue(depth: depth + 1)
        skipSpace()
        guard position < bytes.count else {
          throw error("object opened here is not closed", at: open)
        }
        if bytes[position] == UInt8(ascii: ",") {
          position += 1
        } else if bytes[position] == UInt8(ascii: "}") {
          position += 1
          return .dictionary(dictionary)
        } else {
          throw error("expected ',' or '}' in object, found \(currentDescription)")
        }
      }
    case UInt8(ascii: "["):
      let open = position
      position += 1
      var items: [PropertyListValue] = []
      skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      }
      while true {
        skipSpace()
        items.append(try parseValue(depth: depth + 1))
        skipSpace()
        guard position < bytes.count else {
          throw error("array opened here is not closed", at: open)
        }
        if bytes[position] == UInt8(ascii: ",") {
          position += 1
        } else if bytes[position] == UInt8(ascii: "]") {
          position += 1
          return .array(items)
        } else {
          throw error("expected ',' or ']' in array, found \(currentDescription)")
        }
      }
    case UInt8(ascii: "\""):
      return .string(try parseString())
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expect("null")
      throw error("null has no property-list form", at: position - 4)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw error("expected a value, found \(currentDescription)")
    }
  }

  private mutating func parseNumber() throws(PropertyListError) -> PropertyListValue {
    let start = position
    var isReal = false
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    let digitsStart = position
    while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
    guard position > digitsStart else { throw error("expected digits in number") }
    if bytes[digitsStart] == 0x30, position - digitsStart > 1 {
      throw error("leading zeros are not allowed in JSON numbers", at: digitsStart)
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isReal = true
      position += 1
      let fraction = position
      while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
      guard position > fraction else { throw error("expected digits after '.'") }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isReal = true
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      let exponent = position
      while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
      guard position > exponent else { throw error("expected digits in exponent") }
    }
    let text = bytes[start..<position]
    if !isReal {
      guard let integer = PropertyListInteger(text: text) else {
        throw error(
          "integer \(String(decoding: text, as: UTF8.self)) is outside the 64-bit range", at: start)
      }
      return .integer(integer)
    }
    guard let real = Double(String(decoding: text, as: UTF8.self)) else {
      throw error("invalid number", at: start)
    }
    return .real(real)
  }

  private mutating func parseString() throws(PropertyListError) -> String {
    let open = position
    position += 1
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let string = String(
          decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return string
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      position += 1
    }
    var output = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(decoding: output, as: UTF8.self)
      }
      if byte < 0x20 { throw error("control character 0x\(hex(byte)) in a string must be escaped") }
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        position += 1
        continue
      }
      position += 1
      guard position < bytes.count else { break }
      let escaped = bytes[position]
      position += 1
      switch escaped {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        var unit = try hexUnit()
        if (0xD800...0xDBFF).contains(unit), position + 1 < bytes.count,
          bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
        {
          let save = position
          position += 2
          let low = try hexUnit()
          if (0xDC00...0xDFFF).contains(low) {
            appendScalar(
              0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00), to: &output)
            continue
          }
          position = save
        }
        if (0xD800...0xDFFF).contains(unit) { unit = 0xFFFD }
        appendScalar(UInt32(unit), to: &output)
      default:
        throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'", at: position - 2)
      }
    }
    throw error("unterminated string", at: open)
  }

  private mutating func hexUnit() throws(PropertyListError) -> UInt16 {
    guard position + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      guard isHexDigit(byte) else { throw error("expected four hex digits after \\u") }
      value = value << 4 | UInt16(hexValue(byte))
      position += 1
    }
    return value
  }
}
