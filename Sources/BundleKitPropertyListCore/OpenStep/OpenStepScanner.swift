import Foundation

/// The lexical layer of the old-style ASCII ("OpenStep") format, shared by the property-list
/// reader and the `.strings` parser: white space and comments, quoted and unquoted strings
/// with CoreFoundation's escapes, and `<hex>` data.
package struct OpenStepScanner: ~Copyable {
  /// The UTF-8 text being read.
  package let bytes: UnsafeRawBufferPointer
  /// Offset of the next byte to read.
  package var position: Int = 0
  /// The text of the last comment skipped, without its delimiters, when `keepComments` is on.
  package var lastComment: String?
  /// Whether `skipSpace` records comments in `lastComment`.
  package var keepComments = false

  /// A scanner over UTF-8 `bytes`.
  package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  // Line counting resumes where it last stopped, so asking for the line of each entry in turn
  // costs one pass over the file in all.
  private var countedUpTo = 0
  private var countedLine = 1
  private var countedLineStart = 0

  /// The 1-based line and column of `offset`; cheapest when offsets only grow between calls.
  package mutating func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
    let offset = min(offset, bytes.count)
    if offset < countedUpTo {
      countedUpTo = 0
      countedLine = 1
      countedLineStart = 0
    }
    var index = countedUpTo
    while index < offset {
      if bytes[index] == 0x0A {
        countedLine += 1
        countedLineStart = index + 1
      }
      index += 1
    }
    countedUpTo = offset
    return (countedLine, textColumn(of: offset, lineStart: countedLineStart, in: bytes))
  }

  /// The byte at the cursor, or nil at the end.
  @inline(__always)
  package var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  /// A syntax error at `offset` (by default the cursor).
  package func error(_ message: String, at offset: Int? = nil) -> PropertyListError {
    let (line, column) = textLocation(of: offset ?? position, in: bytes)
    return .syntax(path: nil, line: line, column: column, message: message)
  }

  /// A description of the byte at the cursor for messages: `'x'` or `end of file`.
  package var currentDescription: String {
    guard let byte = current else { return "end of file" }
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(hex(byte))"
  }

  /// Skips white space and `//` and `/* */` comments.
  package mutating func skipSpace() throws(PropertyListError) {
    while position < bytes.count {
      let byte = bytes[position]
      if isSpace(byte) || byte == 0x0B || byte == 0x0C {
        position += 1
      } else if let comment = try skipComment() {
        // Only a kept comment becomes text: a project file has one on nearly every line.
        if keepComments { lastComment = text(comment.lowerBound, comment.upperBound) }
      } else {
        return
      }
    }
  }

  /// A comment after spaces and tabs on the same line (`"k" = "v"; // why`): skipped and
  /// returned; nil, the cursor unmoved, when the line holds none.
  package mutating func trailingComment() throws(PropertyListError) -> String? {
    let start = position
    while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 {
      position += 1
    }
    if let comment = try skipComment() { return text(comment.lowerBound, comment.upperBound) }
    position = start
    return nil
  }

  /// Skips the comment at the cursor; the offsets of its text without the delimiters, or nil
  /// when none starts there.
  private mutating func skipComment() throws(PropertyListError) -> Range<Int>? {
    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "/") else { return nil }
    let next = bytes[position + 1]
    let start = position + 2
    if next == UInt8(ascii: "/") {
      position = start
      while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
        position += 1
      }
      return start..<position
    }
    guard next == UInt8(ascii: "*") else { return nil }
    let open = position
    position = start
    while true {
      guard position + 1 < bytes.count else {
        throw error("unterminated /* comment", at: open)
      }
      if bytes[position] == UInt8(ascii: "*"), bytes[position + 1] == UInt8(ascii: "/") {
        break
      }
      position += 1
    }
    defer { position += 2 }
    return start..<position
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// Whether `byte` may appear in an unquoted string, as CoreFoundation defines it.
  @inline(__always)
  package static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
      UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  /// Whether a string at the cursor starts: a quote or an unquoted character.
  package var atString: Bool {
    guard let byte = current else { return false }
    return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || Self.isUnquotedCharacter(byte)
  }

  /// Reads a quoted or unquoted string at the cursor.
  package mutating func scanString() throws(PropertyListError) -> String {
    var decoded: [UInt8] = []
    if let range = try scanString(decodingInto: &decoded) {
      return text(range.lowerBound, range.upperBound)
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// Reads a quoted or unquoted string at the cursor without making a `String`: the range of
  /// its text in ``bytes`` when it has no escape (nearly every string in a table), else nil
  /// with its text, escapes read, in `decoded` (emptied first).
  package mutating func scanString(decodingInto decoded: inout [UInt8]) throws(PropertyListError)
    -> Range<Int>?
  {
    guard let byte = current else { throw error("expected a string, found end of file") }
    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
      return try scanQuoted(quote: byte, decodingInto: &decoded)
    }
    let start = position
    while position < bytes.count, Self.isUnquotedCharacter(bytes[position]) { position += 1 }
    guard position > start else { throw error("expected a string, found \(currentDescription)") }
    return start..<position
  }

  private mutating func scanQuoted(quote: UInt8, decodingInto output: inout [UInt8])
    throws(PropertyListError) -> Range<Int>?
  {
    let open = position
    position += 1
    let start = position
    // Fast path: find the closing quote with memchr; no backslash before it means no escapes.
    if let base = bytes.baseAddress, start < bytes.count,
      let found = memchr(base + start, Int32(quote), bytes.count - start)
    {
      let end = base.distance(to: UnsafeRawPointer(found))
      if memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) == nil {
        position = end + 1
        return start..<end
      }
    }
    while position < bytes.count, bytes[position] != UInt8(ascii: "\\"), bytes[position] != quote {
      position += 1
    }
    output.removeAll(keepingCapacity: true)
    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
    var pendingHighSurrogate: UInt16?
    while position < bytes.count {
      let byte = bytes[position]
      if byte == quote {
        position += 1
        if let high = pendingHighSurrogate { appendScalar(UInt32(high), to: &output) }
        return nil
      }
      guard byte == UInt8(ascii: "\\") else {
        if let high = pendingHighSurrogate {
          appendScalar(UInt32(high), to: &output)
          pendingHighSurrogate = nil
        }
        output.append(byte)
        position += 1
        continue
      }
      position += 1
      guard position < bytes.count else { break }
      let escaped = bytes[position]
      position += 1
      if escaped == UInt8(ascii: "U") {
        // Up to four hex digits, as CoreFoundation reads them.
        var value: UInt16 = 0
        var digits = 0
        while digits < 4, position < bytes.count, isHexDigit(bytes[position]) {
          value = value << 4 | UInt16(hexValue(bytes[position]))
          position += 1
          digits += 1
        }
        if let high = pendingHighSurrogate {
          pendingHighSurrogate = nil
          if (0xDC00...0xDFFF).contains(value) {
            let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(value - 0xDC00)
            appendScalar(scalar, to: &output)
            continue
          }
          appendScalar(UInt32(high), to: &output)
        }
        if (0xD800...0xDBFF).contains(value) {
          pendingHighSurrogate = value
        } else {
          appendScalar(UInt32(value), to: &output)
        }
        continue
      }
      if let high = pendingHighSurrogate {
        appendScalar(UInt32(high), to: &output)
        pendingHighSurrogate = nil
      }
      switch escaped {
      case UInt8(ascii: "a"): output.append(0x07)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "v"): output.append(0x0B)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = UInt32(escaped - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, position < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[position])
        {
          value = value << 3 | UInt32(bytes[position] - UInt8(ascii: "0"))
          position += 1
          digits += 1
        }
        appendScalar(value, to: &output)
      default:
        // `\"`, `\'`, `\\` and any other escaped character stand for themselves. Keep
        // multi-byte characters whole.
        output.append(escaped)
        while position < bytes.count, bytes[position] & 0xC0 == 0x80 {
          output.append(bytes[position])
          position += 1
        }
      }
    }
    throw error("unterminated quoted string", at: open)
  }

  /// Reads `<hex digits>` data at the cursor (which is on `<`).
  package mutating func scanData() throws(PropertyListError) -> Data {
    let open = position
    position += 1
    var output: [UInt8] = []
    var high: UInt8?
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: ">") {
        guard high == nil else { throw error("odd number of hex digits in data", at: position) }
        position += 1
        return Data(output)
      }
      if isHexDigit(byte) {
        if let first = high {
          output.append(first << 4 | hexValue(byte))
          high = nil
        } else {
          high = hexValue(byte)
        }
      } else if !isSpace(byte) {
        throw error("unexpected \(currentDescription) in <hex data>")
      }
      position += 1
    }
    throw error("unterminated <data>", at: open)
  }
}

@inline(__always)
func hexValue(_ byte: UInt8) -> UInt8 {
  byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
}

/// Appends a Unicode scalar as UTF-8; lone surrogates and invalid values become U+FFFD.
func appendScalar(_ value: UInt32, to output: inout [UInt8]) {
  let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
  output.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [0xEF, 0xBF, 0xBD])
}

/// Text of a file as UTF-8: a UTF-8 BOM is dropped, UTF-16 (with a BOM, or detected by its
/// zero bytes) is transcoded. Returns nil for input that is not text.
package func utf8Text(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
  if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
  var bigEndian: Bool?
  var start = 0
  if bytes.starts(with: [0xFE, 0xFF]) {
    bigEndian = true
    start = 2
  } else if bytes.starts(with: [0xFF, 0xFE]) {
    bigEndian = false
    start = 2
  } else if bytes.count >= 2, bytes.count % 2 == 0 {
    // BOM-less UTF-16: ASCII text has a zero in every other byte.
    let probe = min(bytes.count, 64) / 2
    let evenZeros = (0..<probe).filter { bytes[2 * $0] == 0 }.count
    let oddZeros = (0..<probe).filter { bytes[2 * $0 + 1] == 0 }.count
    if evenZeros * 2 > probe, oddZeros == 0 { bigEndian = true }
    if oddZeros * 2 > probe, evenZeros == 0 { bigEndian = false }
  }
  guard let bigEndian else { return Array(bytes) }
  guard (bytes.count - start) % 2 == 0 else { return nil }
  let count = (bytes.count - start) / 2
  var units = [UInt16]()
  units.reserveCapacity(count)
  for index in 0..<count {
    let a = UInt16(bytes[start + 2 * index])
    let b = UInt16(bytes[start + 2 * index + 1])
    units.append(bigEndian ? a << 8 | b : b << 8 | a)
  }
  var output: [UInt8] = []
  output.reserveCapacity(count)
  // Lone surrogates become U+FFFD, as CoreFoundation's conversion does.
  _ = transcode(
    units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false
  ) { output.append($0) }
  return output
}
