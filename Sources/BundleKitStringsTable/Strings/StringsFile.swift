import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// One `key = value;` pair of a `.strings` file, with what tooling needs to point at it.
public struct StringsEntry: Sendable, Hashable {
  /// The key.
  public var key: String
  /// The value: a string, or (rarely) an array or dictionary in OpenStep syntax.
  public var value: PropertyListValue
  /// The comment just before the entry, without its delimiters and surrounding white space.
  public var comment: String?
  /// A comment of several lines as written, only its ends trimmed (what Xcode exports as the
  /// note, inner indentation kept), when that differs from ``comment``.
  public var commentAsWritten: String? = nil
  /// The 1-based line of the key.
  public var line: Int
  /// The 1-based column of the key.
  public var column: Int
}

/// The text encodings a `.strings` file may be in.
public enum StringsFileEncoding: String, Sendable, Hashable {
  /// UTF-8 without a byte order mark.
  case utf8
  /// UTF-8 with a byte order mark.
  case utf8WithBOM
  /// UTF-16, little-endian (with or without a BOM).
  case utf16LittleEndian
  /// UTF-16, big-endian (with or without a BOM).
  case utf16BigEndian
}

/// A parsed `.strings` file: entries in order, duplicates kept, each with its comment and line.
///
/// Reads exactly what CoreFoundation reads: UTF-8 or UTF-16 (BOM or not), `/* */` and `//`
/// comments, quoted and unquoted keys and values, `"key";` meaning `"key" = "key";`, and
/// CoreFoundation's escapes (`\U` with four hex digits and surrogate pairs, octal, any other
/// `\x` is `x`). An empty or comment-only file is an empty table.
public struct StringsFile: Sendable {
  /// The file's path, for diagnostics.
  public var path: String
  /// The encoding the file was read in.
  public var encoding: StringsFileEncoding
  /// `xml1` or `binary1` for a table written as a property list (translation platforms
  /// export XML; a compiled table is binary), which CoreFoundation reads as well; nil for
  /// the text format.
  public var propertyListFormat: PropertyListFormat?
  /// Every entry in file order, repeated keys included.
  public private(set) var entries: [StringsEntry]

  /// The table as Foundation loads it: the last value of a repeated key wins, at the position
  /// of its first appearance. Built once, while parsing.
  public private(set) var dictionary: PropertyListDictionary

  /// A key that appears more than once, with every entry for it in file order.
  public struct Duplicate: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Its entries, the first one first.
    public var entries: [StringsEntry]
  }

  /// Keys that appear more than once, with every entry for each.
  public var duplicates: [Duplicate] {
    // Every key hashed once already: no repeats unless the counts differ.
    guard dictionary.count != entries.count else { return [] }
    var seen: [String: Int] = [:]
    var groups: [[StringsEntry]] = []
    for entry in entries {
      if let group = seen[entry.key] {
        groups[group].append(entry)
      } else {
        seen[entry.key] = groups.count
        groups.append([entry])
      }
    }
    return groups.filter { $0.count > 1 }.map { Duplicate(key: $0[0].key, entries: $0) }
  }

  /// The comment text that marks the next key's value as text, not a format string, so
  /// placeholder checks leave it alone: `/* bundlekit:not-format */`. Written as
  /// `bundlekit:not-format-file` in any comment, it marks every key of the file.
  public static let notFormatDirective = "bundlekit:not-format"

  /// `text` as a quoted `.strings` literal: quotes, backslashes and control characters
  /// escaped as CoreFoundation reads them.
  public static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Whether a key's value is marked as text, not a format string (`notFormatDirective`).
  /// Working it out is a pass over every entry: take it once per file, not once per key.
  public var notFormatKeys: @Sendable (String) -> Bool {
    let marked = entries.filter {
      $0.comment?.contains(Self.notFormatDirective) ?? false
    }
    if marked.isEmpty { return { _ in false } }
    if marked.contains(where: { $0.comment?.contains(Self.notFormatDirective + "-file") ?? false })
    {
      return { _ in true }
    }
    let keys = Set(marked.map(\.key))
    return { keys.contains($0) }
  }

  /// Parses a `.strings` file's bytes; errors name the file, line and column.
  public init(bytes: [UInt8], path: String) throws(PropertyListError) {
    self.path = path
    encoding = Self.detectEncoding(bytes)
    if let format = Self.propertyListFormat(of: bytes) {
      propertyListFormat = format
      entries = try Self.propertyListEntries(bytes, format: format, path: path)
      var dictionary = PropertyListDictionary(minimumCapacity: entries.count)
      for entry in entries { dictionary[entry.key] = entry.value }
      self.dictionary = dictionary
      return
    }
    // Text that is not valid in its encoding is refused, as CoreFoundation refuses it, at
    // the line and column of the first bad byte: decoding it with U+FFFD would compile a
    // table that differs from the file without a word.
    let text: [UInt8]
    switch encoding {
    case .utf8, .utf8WithBOM:
      text = encoding == .utf8 ? bytes : Array(bytes.dropFirst(3))
      if let bad = TextValidation.firstInvalidUTF8(text) {
        throw Self.encodingError(
          text, at: bad, path: path,
          "invalid UTF-8: the byte 0x\(String(text[bad], radix: 16, uppercase: true)) does not belong here; save the file as UTF-8"
        )
      }
    case .utf16LittleEndian, .utf16BigEndian:
      let decoded = TextValidation.utf8(
        fromUTF16: bytes, bigEndian: encoding == .utf16BigEndian)
      if let bad = decoded.errorOffset {
        throw Self.encodingError(
          decoded.text, at: bad, path: path,
          decoded.oddLength
            ? "invalid UTF-16: the file ends in the middle of a character"
            : "invalid UTF-16: a lone surrogate (half of a character); save the file as UTF-16 or UTF-8"
        )
      }
      text = decoded.text
    }
    do {
      entries = try text.withUnsafeBytes { buffer in
        Result { () throws(PropertyListError) in try Self.parse(buffer) }
      }.get()
    } catch {
      throw error.inFile(path)
    }
    // A repeated key keeps its first position and takes its last value, as Foundation does.
    var dictionary = PropertyListDictionary(minimumCapacity: entries.count)
    for entry in entries { dictionary[entry.key] = entry.value }
    self.dictionary = dictionary
  }

  /// `binary1` for `bplist00`, `xml1` for text opening with `<?xml`, `<!DOCTYPE plist` or
  /// `<plist` (after a BOM and white space): the property-list forms CoreFoundation takes
  /// for a strings table.
  static func propertyListFormat(of bytes: [UInt8]) -> PropertyListFormat? {
    if bytes.starts(with: Array("bplist00".utf8)) { return .binary1 }
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    let head = bytes[start..<min(bytes.count, start + 16)]
    for opening in ["<?xml", "<!DOCTYPE plist", "<plist"] where head.starts(with: opening.utf8) {
      return .xml1
    }
    return nil
  }

  /// The entries of a table written as a property list: a dictionary of strings (or, as in
  /// text, arrays and dictionaries), in file order, each key at its `<key>` line in XML.
  private static func propertyListEntries(
    _ bytes: [UInt8], format: PropertyListFormat, path: String
  ) throws(PropertyListError) -> [StringsEntry] {
    let value: PropertyListValue
    do {
      value = try PropertyListDocument(bytes: bytes, format: format).value
    } catch {
      throw error.inFile(path)
    }
    guard case .dictionary(let dictionary) = value else {
      throw .syntax(
        path: path, line: 1, column: 1,
        message: "a strings table in property-list form must be a dictionary of strings")
    }
    // The top-level `<key>` elements in order, for lines: one per entry, else line 1.
    var lines: [(line: Int, column: Int)] = []
    if format == .xml1 {
      var line = 1
      var lineStart = 0
      var depth = 0
      var index = 0
      let open = Array("<dict".utf8)
      let close = Array("</dict>".utf8)
      let key = Array("<key>".utf8)
      while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x0A {
          line += 1
          lineStart = index + 1
        } else if byte == 0x3C {
          let rest = bytes[index...]
          if rest.starts(with: open), !rest.starts(with: Array("<dict/>".utf8)) {
            depth += 1
          } else if rest.starts(with: close) {
            depth -= 1
          } else if depth == 1, rest.starts(with: key) {
            lines.append((line, index - lineStart + 1))
          }
        }
        index += 1
      }
    }
    let located = lines.count == dictionary.count
    return dictionary.enumerated().map { offset, entry in
      StringsEntry(
        key: entry.key, value: entry.value, comment: nil,
        line: located ? lines[offset].line : 1, column: located ? lines[offset].column : 1)
    }
  }

  private static func encodingError(
    _ text: [UInt8], at offset: Int, path: String, _ message: String
  ) -> PropertyListError {
    let (line, column) = text.withUnsafeBytes { buffer in
      var scanner = OpenStepScanner(bytes: buffer)
      return scanner.lineAndColumn(at: offset)
    }
    return .syntax(path: path, line: line, column: column, message: message)
  }

  /// Reads and parses a `.strings` file.
  public init(contentsOfFile path: String) throws(PropertyListError) {
    try self.init(
      bytes: PropertyListError.file { () throws(FileSystemError) in try FileIO.read(path) },
      path: path)
  }

  static func detectEncoding(_ bytes: [UInt8]) -> StringsFileEncoding {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8WithBOM }
    if bytes.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
    if bytes.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
    // Without a BOM, UTF-16 text of mostly ASCII has a zero in every other byte.
    guard bytes.count >= 2, bytes.count % 2 == 0 else { return .utf8 }
    let probe = min(bytes.count / 2, 256)
    var evenZeros = 0
    var oddZeros = 0
    for index in 0..<probe {
      if bytes[2 * index] == 0 { evenZeros += 1 }
      if bytes[2 * index + 1] == 0 { oddZeros += 1 }
    }
    if oddZeros * 2 > probe, evenZeros == 0 { return .utf16LittleEndian }
    if evenZeros * 2 > probe, oddZeros == 0 { return .utf16BigEndian }
    return .utf8
  }

  private static func parse(_ bytes: UnsafeRawBufferPointer) throws(PropertyListError)
    -> [StringsEntry]
  {
    // Large tables are read in two halves on two threads. The second half starts at an
    // entry that opens a line right after a line ending in `;`; the first half's reader,
    // which reads from the start and so knows what is string and what is comment, confirms
    // it lands exactly there. If it does not, the second half is dropped and reading goes on.
    guard bytes.count >= 1 << 20, let split = splitPoint(bytes) else {
      var scanner = OpenStepScanner(bytes: bytes)
      return try parseEntries(&scanner, until: nil, capacity: bytes.count / 48)
    }
    let box = UncheckedBox(bytes: bytes)
    let group = DispatchGroup()
    let second = ResultBox()
    group.enter()
    DispatchQueue.global().async {
      var scanner = OpenStepScanner(bytes: box.bytes)
      scanner.position = split
      second.result = Result { () throws(PropertyListError) in
        try parseEntries(&scanner, until: nil, capacity: (box.bytes.count - split) / 48)
      }
      group.leave()
    }
    var scanner = OpenStepScanner(bytes: bytes)
    let firstResult = Result { () throws(PropertyListError) in
      // Room for both halves, so appending the second does not copy the first.
      try parseEntries(&scanner, until: split, capacity: bytes.count / 48)
    }
    group.wait()
    var entries = try firstResult.get()
    if scanner.position == split, let result = second.result {
      entries += try result.get()
      return entries
    }
    entries += try parseEntries(&scanner, until: nil, capacity: 0)
    return entries
  }

  /// A line start near the middle where an entry's key begins, after a line ending in `;`.
  private static func splitPoint(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var index = bytes.count / 2
    let limit = min(bytes.count - 1, index + 1 << 16)
    while index < limit {
      if bytes[index] == 0x0A, bytes[index + 1] == UInt8(ascii: "\"") {
        var back = index - 1
        while back > 0, bytes[back] == 0x20 || bytes[back] == 0x09 || bytes[back] == 0x0D {
          back -= 1
        }
        if bytes[back] == UInt8(ascii: ";") { return index + 1 }
      }
      index += 1
    }
    return nil
  }

  /// Entries from the scanner's position to the end, or until an entry would start at or
  /// after `limit`.
  private static func parseEntries(
    _ scanner: inout OpenStepScanner, until limit: Int?, capacity: Int
  ) throws(PropertyListError) -> [StringsEntry] {
    scanner.keepComments = true
    var entries: [StringsEntry] = []
    entries.reserveCapacity(capacity)
    while true {
      scanner.lastComment = nil
      try scanner.skipSpace()
      guard scanner.current != nil else { return entries }
      if let limit, scanner.position >= limit { return entries }
      let comment = scanner.lastComment.map(Self.tidy)
      // Rare (genstrings' merged comments): kept only when tidying changed its inside.
      let asWritten = scanner.lastComment.flatMap { written -> String? in
        guard written.utf8.contains(0x0A) else { return nil }
        let trimmed = written.trimmingWhitespace()
        return trimmed == comment ? nil : trimmed
      }
      guard scanner.atString else {
        throw scanner.error(
          "expected a key (a quoted or unquoted string), found \(scanner.currentDescription)")
      }
      let keyOffset = scanner.position
      let key = try scanner.scanString()
      let (line, column) = scanner.lineAndColumn(at: keyOffset)
      scanner.keepComments = false
      try scanner.skipSpace()
      let value: PropertyListValue
      if scanner.current == UInt8(ascii: ";") {
        value = .string(key)
      } else if scanner.current == UInt8(ascii: "=") {
        scanner.position += 1
        try scanner.skipSpace()
        value = try OpenStepPropertyListReader.parseValue(&scanner, depth: 0)
        try scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ";") else {
          throw scanner.error(
            "expected ';' after the value of \"\(key)\", found \(scanner.currentDescription)")
        }
      } else {
        throw scanner.error(
          "expected '=' or ';' after the key \"\(key)\", found \(scanner.currentDescription)")
      }
      scanner.position += 1
      // A comment after the `;` on the entry's own line is the entry's, not the next one's
      // (Xcode's export gives it as this entry's note); a comment above the entry comes first.
      let trailing = try scanner.trailingComment()
      scanner.keepComments = true
      entries.append(
        StringsEntry(
          key: key, value: value, comment: comment ?? trailing.map(Self.tidy),
          commentAsWritten: asWritten, line: line, column: column))
    }
  }

  /// A comment without leading `*` decoration and surrounding white space.
  private static func tidy(_ comment: String) -> String {
    // Most comments are one line: trim its bytes without breaking it into characters.
    var utf8 = comment.utf8[...]
    if !utf8.contains(0x0A) {
      while let first = utf8.first, first == 0x20 || first == 0x09 || first == 0x2A {
        utf8 = utf8.dropFirst()
      }
      while let last = utf8.last, last == 0x20 || last == 0x09 || last == 0x0D {
        utf8 = utf8.dropLast()
      }
      return String(Substring(utf8))
    }
    return comment.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line in
        var trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("*"), !trimmed.hasPrefix("*/") { trimmed = trimmed.dropFirst() }
        return String(trimmed)
      }
      .joined(separator: "\n")
      .trimmingWhitespace()
  }
}

/// The bytes, handed to the thread reading the second half; they outlive it.
private struct UncheckedBox: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
}

/// The second half's outcome, written by its thread before the group is left.
private final class ResultBox: @unchecked Sendable {
  var result: Result<[StringsEntry], PropertyListError>?
}

extension String {
  func trimmingWhitespace() -> String {
    var slice = self[...]
    while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
    while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
    return String(slice)
  }
}
