/// The block YAML that project specs are written in (XcodeGen's `project.yml`), read with
/// the place of every scalar so a bump can change exactly its bytes.
///
/// What specs use is read: block mappings and sequences (`- item`, `- key: value`), plain,
/// single- and double-quoted scalars, flow sequences and mappings of scalars (`[a, b]`,
/// `{path: a}`), comments and `---`. Anchors, aliases, tags and multi-line scalars are read
/// as the text they are (a multi-line scalar's lines skipped): no version lives there.
/// Depth and size are bounded: a spec is input from strangers.
struct YAMLTree: Sendable {
  /// A node: a scalar with its place, a mapping in file order, or a sequence.
  indirect enum Node: Sendable {
    /// A scalar: its text (quotes removed), the byte range it takes in the file (quotes
    /// included), its line, and whether it was quoted.
    case scalar(String, range: Range<Int>, line: Int, quoted: Bool)
    /// A mapping, keys in file order.
    case mapping([(key: String, value: Node)])
    /// A sequence.
    case sequence([Node])

    /// The value of `key` in a mapping (the last, as YAML readers keep).
    subscript(key: String) -> Node? {
      guard case .mapping(let entries) = self else { return nil }
      return entries.last { $0.key == key }?.value
    }

    /// A scalar's text.
    var text: String? {
      guard case .scalar(let text, _, _, _) = self else { return nil }
      return text
    }

    /// A mapping's entries, or none.
    var entries: [(key: String, value: Node)] {
      guard case .mapping(let entries) = self else { return [] }
      return entries
    }

    /// A sequence's items, or none.
    var items: [Node] {
      guard case .sequence(let items) = self else { return [] }
      return items
    }
  }

  /// Why a spec could not be read, at its line.
  struct Malformed: Error, Sendable {
    var line: Int
    var message: String
  }

  /// The document.
  var root: Node

  /// How deep blocks may nest.
  static let maximumDepth = 64
  /// The largest spec read (specs are a few kilobytes).
  static let maximumSize = 4 << 20

  private struct Line {
    var indent: Int
    /// The content: from the first non-blank byte to the end, comment removed.
    var start: Int
    var end: Int
    var number: Int
  }

  private let bytes: [UInt8]
  private var lines: [Line] = []

  /// Reads `bytes` (UTF-8).
  init(bytes: [UInt8]) throws(Malformed) {
    guard bytes.count <= Self.maximumSize else {
      throw Malformed(line: 1, message: "is larger than \(Self.maximumSize >> 20) MiB")
    }
    self.bytes = bytes
    self.root = .mapping([])
    lines = Self.lines(of: bytes)
    var index = 0
    root = lines.isEmpty ? .mapping([]) : try block(&index, indent: lines[0].indent, depth: 0)
    if index < lines.count {
      throw Malformed(line: lines[index].number, message: "unexpected indentation")
    }
  }

  /// The lines that hold something, comments and `---` left out.
  private static func lines(of bytes: [UInt8]) -> [Line] {
    var result: [Line] = []
    var number = 0
    var position = 0
    while position < bytes.count {
      number += 1
      var end = position
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      var start = position
      while start < end, bytes[start] == 0x20 { start += 1 }
      // A comment starts at `#` at the start or after a blank, outside quotes.
      var cut = start
      var quote: UInt8?
      while cut < end {
        let byte = bytes[cut]
        if let open = quote {
          // A backslash escapes the next byte in double quotes (`\"`).
          if open == 0x22, byte == 0x5C {
            cut = min(cut + 2, end)
            continue
          }
          if byte == open { quote = nil }
        } else if byte == 0x22 || byte == 0x27 {
          if cut == start || [0x20, 0x3A, 0x2D, 0x5B, 0x7B, 0x2C].contains(bytes[cut - 1]) {
            quote = byte
          }
        } else if byte == 0x23, cut == start || bytes[cut - 1] == 0x20 || bytes[cut - 1] == 0x09 {
          break
        }
        cut += 1
      }
      while cut > start, [0x20, 0x09, 0x0D].contains(bytes[cut - 1]) { cut -= 1 }
      let text = bytes[start..<cut]
      if cut > start, !text.elementsEqual("---".utf8), !text.elementsEqual("...".utf8) {
        result.append(Line(indent: start - position, start: start, end: cut, number: number))
      }
      position = end + 1
    }
    return result
  }

  private func isItem(_ line: Line) -> Bool {
    bytes[line.start] == 0x2D && (line.end == line.start + 1 || bytes[line.start + 1] == 0x20)
  }

  /// The block at `indent` from line `index`: a sequence or a mapping.
  private func block(_ index: inout Int, indent: Int, depth: Int) throws(Malformed) -> Node {
    guard depth < Self.maximumDepth else {
      throw Malformed(
        line: lines[index].number, message: "nests more than \(Self.maximumDepth) deep")
    }
    if isItem(lines[index]) { return try sequence(&index, indent: indent, depth: depth) }
    return try mapping(&index, indent: indent, depth: depth, first: nil)
  }

  private func sequence(_ index: inout Int, indent: Int, depth: Int) throws(Malformed) -> Node {
    var items: [Node] = []
    while index < lines.count, lines[index].indent == indent, isItem(lines[index]) {
      let line = lines[index]
      var start = line.start + 1
      while start < line.end, bytes[start] == 0x20 { start += 1 }
      if start == line.end {
        // `-` alone: the item is the block below.
        index += 1
        guard index < lines.count, lines[index].indent > indent else {
          items.append(.scalar("", range: start..<start, line: line.number, quoted: false))
          continue
        }
        items.append(try block(&index, indent: lines[index].indent, depth: depth + 1))
        continue
      }
      let inner = Line(
        indent: start - line.start + indent, start: start, end: line.end, number: line.number)
      if keyColon(in: inner) != nil {
        // `- key: value` and the lines below at its column: one mapping.
        index += 1
        items.append(try mapping(&index, indent: inner.indent, depth: depth + 1, first: inner))
      } else {
        index += 1
        items.append(try value(start..<line.end, line: line.number))
        skipMultiline(&index, deeperThan: indent, of: start..<line.end)
      }
    }
    return .sequence(items)
  }

  /// The offset of the `:` that ends a key on `line`, outside quotes and brackets.
  private func keyColon(in line: Line) -> Int? {
    var position = line.start
    if bytes[position] == 0x22 || bytes[position] == 0x27 {
      let quote = bytes[position]
      position += 1
      while position < line.end, bytes[position] != quote { position += 1 }
      position += 1
    } else if bytes[position] == 0x5B || bytes[position] == 0x7B {
      return nil
    }
    while position < line.end {
      if bytes[position] == 0x3A, position + 1 == line.end || bytes[position + 1] == 0x20 {
        return position
      }
      position += 1
    }
    return nil
  }

  private func mapping(_ index: inout Int, indent: Int, depth: Int, first: Line?) throws(Malformed)
    -> Node
  {
    var entries: [(key: String, value: Node)] = []
    var pending = first
    while true {
      let line: Line
      if let first = pending {
        line = first
        pending = nil
      } else {
        guard index < lines.count, lines[index].indent == indent, !isItem(lines[index]) else {
          break
        }
        line = lines[index]
        index += 1
      }
      guard let colon = keyColon(in: line) else {
        throw Malformed(line: line.number, message: "expected 'key: value'")
      }
      let key = unquoted(line.start..<colon)
      var valueStart = colon + 1
      while valueStart < line.end, bytes[valueStart] == 0x20 { valueStart += 1 }
      if valueStart < line.end, bytes[valueStart] != 0x7C, bytes[valueStart] != 0x3E,
        bytes[valueStart] != 0x26 || keyColonFree(valueStart..<line.end)
      {
        entries.append((key, try value(valueStart..<line.end, line: line.number)))
        continue
      }
      if valueStart < line.end, bytes[valueStart] == 0x7C || bytes[valueStart] == 0x3E {
        // A multi-line scalar: its lines are skipped.
        while index < lines.count, lines[index].indent > indent { index += 1 }
        entries.append(
          (key, .scalar("", range: valueStart..<line.end, line: line.number, quoted: true)))
        continue
      }
      // The value is the block below: deeper, or a sequence at the key's own indentation.
      if index < lines.count,
        lines[index].indent > indent || (lines[index].indent == indent && isItem(lines[index]))
      {
        entries.append((key, try block(&index, indent: lines[index].indent, depth: depth + 1)))
      } else {
        entries.append(
          (key, .scalar("", range: valueStart..<valueStart, line: line.number, quoted: false)))
      }
    }
    return .mapping(entries)
  }

  /// Whether an anchor (`&name value`) is followed by a value on its line.
  private func keyColonFree(_ range: Range<Int>) -> Bool {
    bytes[range].contains(0x20)
  }

  private func skipMultiline(_ index: inout Int, deeperThan indent: Int, of range: Range<Int>) {
    guard let last = range.last, bytes[last] == 0x7C || bytes[last] == 0x3E else { return }
    while index < lines.count, lines[index].indent > indent { index += 1 }
  }

  /// A value on one line: a flow sequence, a flow mapping, or a scalar.
  private func value(_ range: Range<Int>, line: Int) throws(Malformed) -> Node {
    var range = range
    // An anchor (`&name`) or a tag (`!!str`) before the value: left out.
    while range.lowerBound < range.upperBound,
      bytes[range.lowerBound] == 0x26 || bytes[range.lowerBound] == 0x21
    {
      var skip = range.lowerBound
      while skip < range.upperBound, bytes[skip] != 0x20 { skip += 1 }
      while skip < range.upperBound, bytes[skip] == 0x20 { skip += 1 }
      range = skip..<range.upperBound
    }
    guard let first = range.first.map({ bytes[$0] }) else {
      return .scalar("", range: range, line: line, quoted: false)
    }
    if first == 0x5B || first == 0x7B {
      let close: UInt8 = first == 0x5B ? 0x5D : 0x7D
      guard bytes[range.upperBound - 1] == close else {
        throw Malformed(line: line, message: "an unterminated \(first == 0x5B ? "[" : "{")")
      }
      var parts: [Range<Int>] = []
      var start = range.lowerBound + 1
      var quote: UInt8?
      var position = start
      while position < range.upperBound - 1 {
        let byte = bytes[position]
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == 0x22 || byte == 0x27 {
          quote = byte
        } else if byte == 0x2C {
          parts.append(start..<position)
          start = position + 1
        }
        position += 1
      }
      parts.append(start..<(range.upperBound - 1))
      let trimmed = parts.map(trim).filter { !$0.isEmpty }
      if first == 0x5B {
        return .sequence(trimmed.map { scalar($0, line: line) })
      }
      var entries: [(key: String, value: Node)] = []
      for part in trimmed {
        guard let colon = bytes[part].firstIndex(of: 0x3A) else {
          throw Malformed(line: line, message: "expected 'key: value' in { }")
        }
        entries.append(
          (
            unquoted(trim(part.lowerBound..<colon)),
            scalar(trim((colon + 1)..<part.upperBound), line: line)
          ))
      }
      return .mapping(entries)
    }
    return scalar(range, line: line)
  }

  private func trim(_ range: Range<Int>) -> Range<Int> {
    var (lower, upper) = (range.lowerBound, range.upperBound)
    while lower < upper, bytes[lower] == 0x20 { lower += 1 }
    while upper > lower, bytes[upper - 1] == 0x20 { upper -= 1 }
    return lower..<upper
  }

  private func scalar(_ range: Range<Int>, line: Int) -> Node {
    let quoted =
      range.count >= 2 && (bytes[range.lowerBound] == 0x22 || bytes[range.lowerBound] == 0x27)
      && bytes[range.upperBound - 1] == bytes[range.lowerBound]
    return .scalar(unquoted(range), range: range, line: line, quoted: quoted)
  }

  /// The text of a scalar: quotes removed, `''` and `\"` `\\` unescaped.
  private func unquoted(_ range: Range<Int>) -> String {
    let text = String(decoding: bytes[range], as: UTF8.self)
    guard text.count >= 2, let first = text.first, first == "\"" || first == "'",
      text.last == first
    else { return text }
    let inner = text.dropFirst().dropLast()
    if first == "'" { return inner.replacingOccurrences(of: "''", with: "'") }
    var result = ""
    var escaped = false
    for character in inner {
      if escaped {
        switch character {
        case "n": result.append("\n")
        case "t": result.append("\t")
        default: result.append(character)
        }
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}
