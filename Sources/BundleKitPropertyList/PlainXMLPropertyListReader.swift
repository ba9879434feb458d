import BundleKitPropertyListCore
import Foundation

/// Reads the XML property lists that tools write (Xcode, plutil, CoreFoundation, plistlib,
/// BundleKit) straight from their bytes, several times faster than libxml2's SAX callbacks.
///
/// It takes only a plain subset of XML: UTF-8, an optional XML declaration, comments and a
/// `DOCTYPE` without an internal subset around the document, elements of the plist DTD with
/// no attribute but `<plist version=...>`, and the five predefined entities and character
/// references in text. Anything else (another encoding, CDATA, a comment inside a value, a
/// carriage return, a character XML forbids) and every error returns nil: the caller then
/// reads the document with libxml2, which accepts the rest of XML and reports each error at
/// its line and column. So this reader never decides what is valid; it only takes the fast
/// road where the answer is the same.
enum PlainXMLPropertyListReader {
  /// The value, or nil when the document is not plain (or not valid): read it with libxml2.
  static func read(_ bytes: UnsafeRawBufferPointer) -> PropertyListValue? {
    guard let base = bytes.baseAddress, bytes.count > 0, isPlainText(bytes) else { return nil }
    var parser = Parser(
      base: base.assumingMemoryBound(to: UInt8.self), end: bytes.count, sink: TreeSink())
    return parser.document()
  }

  /// The document as a binary property list, built without a tree of values (the bytes
  /// equal those of reading it and writing the value); nil when it is not plain (or not
  /// valid): read it with libxml2.
  static func binary(_ bytes: UnsafeRawBufferPointer, compactReals: Bool = false) -> [UInt8]? {
    guard let base = bytes.baseAddress, bytes.count > 0, isPlainText(bytes) else { return nil }
    // About one value per 64 bytes of XML (the table grows past that); text without an
    // entity is kept in place, so little is copied.
    var parser = Parser(
      base: base.assumingMemoryBound(to: UInt8.self), end: bytes.count,
      sink: BuilderSink(
        builder: BinaryPropertyListBuilder(
          capacity: bytes.count / 64, byteCapacity: bytes.count / 64, source: bytes)))
    guard let root = parser.document() else { return nil }
    return parser.sink.builder.serialized(root: root, compactReals: compactReals)
  }

  /// Valid UTF-8 with no byte XML forbids or normalises: control characters but tab and line
  /// feed (a carriage return is normalised by XML, so it is libxml2's to read), and
  /// U+FFFE/U+FFFF.
  static func isPlainText(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard UTF8Validation.firstInvalidByte(in: bytes) == nil else { return false }
    let count = bytes.count
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
    var index = 0
    while index < count {
      // Eight printable ASCII bytes at a time: no high bit, and no byte below 0x20 (the
      // borrow of a byte below 0x20 sets its high bit; a false alarm only checks bytes).
      if index + 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let low = (word &- 0x2020_2020_2020_2020) & ~word
        if (word | low) & 0x8080_8080_8080_8080 == 0 {
          index += 8
          continue
        }
      }
      let byte = base[index]
      if byte < 0x20 {
        if byte != 0x09 && byte != 0x0A { return false }
      } else if byte == 0xEF, index + 2 < count, base[index + 1] == 0xBF,
        base[index + 2] == 0xBE || base[index + 2] == 0xBF
      {
        return false
      }
      index += 1
    }
    return true
  }

  /// The element names of the plist DTD.
  fileprivate enum Tag: UInt8 {
    case plist, dict, array, key, string, integer, real, `true`, `false`, date, data
  }

  /// One open container.
  private struct Frame {
    var tag: Tag
    /// Where its values start in `values`.
    var valueStart: Int
    /// Where its keys start in `keys` (dictionaries).
    var keyStart: Int
  }

  private struct Parser<Sink: PlainXMLSink> {
    let base: UnsafePointer<UInt8>
    let end: Int
    var index = 0
    var frames: [Frame] = []
    /// What the values are made into.
    var sink: Sink
    /// The values of every open container, innermost last.
    var values: [Sink.Value] = []
    /// The keys of every open dictionary, innermost last.
    var keys: [Sink.Key] = []
    /// Text with entities decoded.
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, end: Int, sink: Sink) {
      self.base = base
      self.end = end
      self.sink = sink
    }

    // MARK: Document

    mutating func document() -> Sink.Value? {
      // A UTF-8 byte order mark.
      if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { index = 3 }
      // The declaration, only at the very start; then comments and a DOCTYPE without a subset.
      if starts(with: "<?xml"), index + 5 < end, isSpace(base[index + 5]) {
        guard declaration() else { return nil }
      }
      while true {
        skipSpace()
        if starts(with: "<!--") {
          guard comment() else { return nil }
        } else if starts(with: "<!DOCTYPE") {
          guard doctype() else { return nil }
        } else {
          break
        }
      }
      guard let result = body() else { return nil }
      // After the document element: space and comments only.
      while true {
        skipSpace()
        if index == end { return result }
        guard starts(with: "<!--"), comment() else { return nil }
      }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="no"?>` exactly as XML spells it:
    /// version 1.x, then optionally a UTF-8 encoding (any other is libxml2's) and standalone.
    mutating func declaration() -> Bool {
      index += 5
      guard let version = pseudoAttribute("version"), version.count >= 3,
        version.starts(with: "1.".utf8),
        version.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
      else { return false }
      let save = index
      if let encoding = pseudoAttribute("encoding") {
        let lowered = encoding.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered.elementsEqual("utf-8".utf8) || lowered.elementsEqual("utf8".utf8) else {
          return false
        }
      } else {
        index = save
      }
      let beforeStandalone = index
      if let standalone = pseudoAttribute("standalone") {
        guard standalone.elementsEqual("yes".utf8) || standalone.elementsEqual("no".utf8) else {
          return false
        }
      } else {
        index = beforeStandalone
      }
      skipSpace()
      guard starts(with: "?>") else { return false }
      index += 2
      return true
    }

    /// ` name="value"` (or single quotes) in the XML declaration: space first, then the
    /// name; the value, or nil (the position is then undefined).
    mutating func pseudoAttribute(_ name: StaticString) -> [UInt8]? {
      guard index < end, isSpace(base[index]) else { return nil }
      skipSpace()
      guard starts(with: name) else { return nil }
      index += name.utf8CodeUnitCount
      skipSpace()
      guard index < end, base[index] == 0x3D else { return nil }
      index += 1
      skipSpace()
      guard index < end, base[index] == 0x22 || base[index] == 0x27 else { return nil }
      let quote = base[index]
      index += 1
      let start = index
      while index < end, base[index] != quote {
        let byte = base[index]
        guard
          (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
            || byte == 0x2E || byte == 0x2D || byte == 0x5F
        else { return nil }
        index += 1
      }
      guard index < end, index > start else { return nil }
      index += 1
      return Array(UnsafeBufferPointer(start: base + start, count: index - 1 - start))
    }

    /// `<!-- ... -->`, with no `--` inside (an error in XML).
    mutating func comment() -> Bool {
      guard let close = find("--", from: index + 4), close + 2 < end, base[close + 2] == 0x3E
      else { return false }
      index = close + 3
      return true
    }

    /// `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://...">`, or `SYSTEM`,
    /// or the name alone, as XML spells it and without an internal subset.
    mutating func doctype() -> Bool {
      index += 9
      guard index < end, isSpace(base[index]) else { return false }
      skipSpace()
      let nameStart = index
      while index < end {
        let byte = base[index]
        let letter = byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A
        let digit = byte >= 0x30 && byte <= 0x39
        guard
          letter || byte == 0x5F || (index > nameStart && (digit || byte == 0x2E || byte == 0x2D))
        else { break }
        index += 1
      }
      guard index > nameStart else { return false }
      skipSpace()
      if starts(with: "PUBLIC") {
        index += 6
        guard index < end, isSpace(base[index]) else { return false }
        skipSpace()
        guard literal(publicID: true), index < end, isSpace(base[index]) else { return false }
        skipSpace()
        guard literal(publicID: false) else { return false }
      } else if starts(with: "SYSTEM") {
        index += 6
        guard index < end, isSpace(base[index]) else { return false }
        skipSpace()
        guard literal(publicID: false) else { return false }
      }
      skipSpace()
      guard index < end, base[index] == 0x3E else { return false }
      index += 1
      return true
    }

    /// A quoted literal of a DOCTYPE: a public identifier takes only the characters XML
    /// allows there.
    mutating func literal(publicID: Bool) -> Bool {
      quoted { byte in
        guard publicID else { return true }
        let letter = byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A
        let digit = byte >= 0x30 && byte <= 0x39
        return letter || digit || byte == 0x20 || byte == 0x0A
          || "-'()+,./:=?;!*#@$_%".utf8.contains(byte)
      }
    }

    /// A text in single or double quotes whose every byte `accepts` takes, read past.
    mutating func quoted(_ accepts: (UInt8) -> Bool) -> Bool {
      guard index < end, base[index] == 0x22 || base[index] == 0x27 else { return false }
      let quote = base[index]
      index += 1
      while index < end, base[index] != quote {
        guard accepts(base[index]) else { return false }
        index += 1
      }
      guard index < end else { return false }
      index += 1
      return true
    }

    // MARK: Elements

    /// The document element and everything in it.
    mutating func body() -> Sink.Value? {
      var result: Sink.Value?
      elements: while true {
        // Between elements: space only.
        skipSpace()
        guard index < end, base[index] == 0x3C else { return nil }
        if index + 1 < end, base[index + 1] == 0x2F {
          // A closing tag of a container.
          index += 2
          guard let tag = name(), closeTag(), let frame = frames.popLast(), frame.tag == tag
          else { return nil }
          guard let value = finish(frame) else { return nil }
          if frames.isEmpty {
            result = value
            break elements
          }
          // Its place in the container was checked when it began.
          values.append(value)
          continue
        }
        if starts(with: "<!--") {
          guard comment() else { return nil }
          continue
        }
        index += 1
        guard let tag = name() else { return nil }
        var selfClosing = false
        if tag == .plist {
          guard frames.isEmpty, result == nil, attributes(), let closed = endOfStartTag() else {
            return nil
          }
          guard !closed else { return nil }  // an empty <plist/> holds no value
          frames.append(Frame(tag: .plist, valueStart: values.count, keyStart: keys.count))
          continue
        }
        guard let closed = endOfStartTag() else { return nil }
        selfClosing = closed
        switch tag {
        case .plist:
          return nil
        case .key:
          guard let frame = frames.last, frame.tag == .dict,
            keys.count - frame.keyStart == values.count - frame.valueStart,
            let text = selfClosing ? .input(index, 0) : content(of: tag)
          else { return nil }
          keys.append(withBytes(text) { $1.key($0) })
          continue
        case .dict, .array:
          guard canTakeValue(), frames.count <= Nesting.maximumDepth else { return nil }
          if selfClosing {
            let value =
              tag == .dict ? sink.dictionary(keys: [][...], values: [][...]) : sink.array([][...])
            if frames.isEmpty {
              result = value
              break elements
            }
            values.append(value)
            continue
          }
          frames.append(Frame(tag: tag, valueStart: values.count, keyStart: keys.count))
          continue
        default:
          guard canTakeValue(), let text = selfClosing ? .input(index, 0) : content(of: tag),
            let value = withBytes(
              text,
              { text, sink in
                tag == .string
                  ? sink.string(text)
                  : PlainXMLPropertyListReader.scalar(tag, text).map { sink.scalar($0) }
              })
          else { return nil }
          if frames.isEmpty {
            result = value
            break elements
          }
          // Its place in the container was checked when it began.
          values.append(value)
          continue
        }
      }
      return frames.isEmpty ? result : nil
    }

    /// Whether a value may come next: not in a dictionary without its key, not a second
    /// value in `<plist>`.
    func canTakeValue() -> Bool {
      guard let frame = frames.last else { return true }
      switch frame.tag {
      case .dict: return keys.count - frame.keyStart == values.count - frame.valueStart + 1
      case .plist: return values.count == frame.valueStart
      default: return true
      }
    }

    /// The value of a container whose closing tag was read, its items taken off the stacks.
    mutating func finish(_ frame: Frame) -> Sink.Value? {
      defer {
        values.removeSubrange(frame.valueStart...)
        keys.removeSubrange(frame.keyStart...)
      }
      switch frame.tag {
      case .plist:
        guard values.count - frame.valueStart == 1 else { return nil }
        return values[frame.valueStart]
      case .array:
        return sink.array(values[frame.valueStart...])
      case .dict:
        guard keys.count - frame.keyStart == values.count - frame.valueStart else { return nil }
        return sink.dictionary(keys: keys[frame.keyStart...], values: values[frame.valueStart...])
      default:
        return nil
      }
    }

    /// Where a scalar's text is: in the input as it stands, or decoded into `scratch`.
    enum Text {
      case input(Int, Int)
      case decoded
    }

    /// `body` on the bytes of `text`, with the sink to fill. The sink is passed in, not
    /// reached through `self` from the closure: that would copy the parser, and with it the
    /// sink's storage, for every value.
    mutating func withBytes<Result>(
      _ text: Text, _ body: (UnsafeBufferPointer<UInt8>, inout Sink) -> Result
    ) -> Result {
      switch text {
      case .input(let start, let count):
        return body(UnsafeBufferPointer(start: base + start, count: count), &sink)
      case .decoded:
        return scratch.withUnsafeBufferPointer { body($0, &sink) }
      }
    }

    /// The text of a scalar element up to its closing tag, entities decoded (into `scratch`,
    /// read before the next call); nil for markup inside (a comment, CDATA, an element) or a
    /// bad reference. Text without a reference is read in place, not copied.
    mutating func content(of tag: Tag) -> Text? {
      var start = index
      var decoded = false
      while index < end {
        let byte = base[index]
        if byte == 0x3C {
          let text: Text
          if decoded {
            scratch.append(
              contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
            text = .decoded
          } else {
            text = .input(start, index - start)
          }
          guard index + 1 < end, base[index + 1] == 0x2F else { return nil }
          index += 2
          guard name() == tag, closeTag() else { return nil }
          return text
        }
        if byte == 0x26 {
          if !decoded { scratch.removeAll(keepingCapacity: true) }
          decoded = true
          scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
          guard reference() else { return nil }
          start = index
          continue
        }
        // "]]>" is not allowed in text.
        if byte == 0x5D, index + 2 < end, base[index + 1] == 0x5D, base[index + 2] == 0x3E {
          return nil
        }
        index += 1
      }
      return nil
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#N;` `&#xH;` appended to `scratch`.
    mutating func reference() -> Bool {
      // The longest reference is `&#x10FFFF;`: look no further (a stray `&` must not make the
      // read quadratic).
      var semicolon = index + 1
      while semicolon < min(end, index + 12), base[semicolon] != 0x3B { semicolon += 1 }
      guard semicolon < end, base[semicolon] == 0x3B else { return false }
      let name = UnsafeBufferPointer(start: base + index + 1, count: semicolon - index - 1)
      index = semicolon + 1
      if name.elementsEqual("amp".utf8) {
        scratch.append(0x26)
      } else if name.elementsEqual("lt".utf8) {
        scratch.append(0x3C)
      } else if name.elementsEqual("gt".utf8) {
        scratch.append(0x3E)
      } else if name.elementsEqual("quot".utf8) {
        scratch.append(0x22)
      } else if name.elementsEqual("apos".utf8) {
        scratch.append(0x27)
      } else if name.first == 0x23 {
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == 0x78 {
          radix = 16
          digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return false }
        var value: UInt32 = 0
        for digit in digits {
          let number: UInt32
          switch digit {
          case 0x30...0x39: number = UInt32(digit - 0x30)
          case 0x61...0x66 where radix == 16: number = UInt32(digit - 0x61 + 10)
          case 0x41...0x46 where radix == 16: number = UInt32(digit - 0x41 + 10)
          default: return false
          }
          value = value * radix + number
          guard value <= 0x10FFFF else { return false }
        }
        // A character XML allows.
        guard
          value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value),
          let scalar = Unicode.Scalar(value)
        else { return false }
        scratch.append(contentsOf: String(Character(scalar)).utf8)
      } else {
        return false
      }
      return true
    }

    /// An element name of the plist DTD, after `<` or `</`.
    mutating func name() -> Tag? {
      let start = index
      while index < end {
        let byte = base[index]
        guard (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) else { break }
        index += 1
      }
      // A name goes on with a character we do not read (`x:key`, `key2`): libxml2's.
      guard index > start else { return nil }
      if index < end, !isSpace(base[index]), base[index] != 0x3E, base[index] != 0x2F {
        return nil
      }
      // Compared in place: this runs for every element.
      let name = base + start
      func equals(_ literal: StaticString) -> Bool {
        memcmp(name, literal.utf8Start, literal.utf8CodeUnitCount) == 0
      }
      switch (index - start, name[0]) {
      case (3, 0x6B) where equals("key"): return .key
      case (6, 0x73) where equals("string"): return .string
      case (7, 0x69) where equals("integer"): return .integer
      case (4, 0x72) where equals("real"): return .real
      case (4, 0x74) where equals("true"): return .true
      case (5, 0x66) where equals("false"): return .false
      case (4, 0x64) where equals("dict"): return .dict
      case (4, 0x64) where equals("date"): return .date
      case (4, 0x64) where equals("data"): return .data
      case (5, 0x61) where equals("array"): return .array
      case (5, 0x70) where equals("plist"): return .plist
      default: return nil
      }
    }

    /// The attributes of `<plist`: at most one, `name="value"` with no markup or entity.
    mutating func attributes() -> Bool {
      skipSpace()
      guard index < end, base[index] != 0x3E, base[index] != 0x2F else { return true }
      // A name first: `<plist ="1.0">` is no attribute.
      let nameStart = index
      while index < end, base[index] >= 0x61 && base[index] <= 0x7A { index += 1 }
      guard index > nameStart else { return false }
      skipSpace()
      guard index < end, base[index] == 0x3D else { return false }
      index += 1
      skipSpace()
      return quoted { $0 != 0x3C && $0 != 0x26 }
    }

    /// `>` or `/>` after a start tag's name (space before it allowed): whether it closed
    /// itself; nil for anything else (an attribute).
    mutating func endOfStartTag() -> Bool? {
      skipSpace()
      guard index < end else { return nil }
      if base[index] == 0x3E {
        index += 1
        return false
      }
      if base[index] == 0x2F, index + 1 < end, base[index + 1] == 0x3E {
        index += 2
        return true
      }
      return nil
    }

    /// `>` after a closing tag's name, space before it allowed.
    mutating func closeTag() -> Bool {
      skipSpace()
      guard index < end, base[index] == 0x3E else { return false }
      index += 1
      return true
    }

    // MARK: Bytes

    mutating func skipSpace() {
      while index < end, isSpace(base[index]) { index += 1 }
    }

    func starts(with literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      return end - index >= count && memcmp(base + index, literal.utf8Start, count) == 0
    }

    /// The offset of the next `literal` at or after `from`.
    func find(_ literal: StaticString, from: Int) -> Int? {
      let count = literal.utf8CodeUnitCount
      var cursor = from
      while cursor + count <= end {
        if base[cursor] == literal.utf8Start[0],
          memcmp(base + cursor, literal.utf8Start, count) == 0
        {
          return cursor
        }
        cursor += 1
      }
      return nil
    }

  }
}

extension PlainXMLPropertyListReader {
  /// The value of a scalar element other than `<string>`, from its text.
  fileprivate enum Scalar {
    case integer(PropertyListInteger)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data([UInt8])
  }

  /// A scalar element's value from its text; nil when the text is not one.
  fileprivate static func scalar(_ tag: Tag, _ text: UnsafeBufferPointer<UInt8>) -> Scalar? {
    // The scalars are short: copied, they take the helpers' concrete (specialised) overloads,
    // not their generic ones across the module boundary.
    let bytes = Array(text)
    switch tag {
    case .integer:
      return PropertyListInteger(text: trimmed(bytes)).map { .integer($0) }
    case .real:
      return parseReal(trimmed(bytes)).map { .real($0) }
    case .true, .false:
      return bytes.allSatisfy(isSpace) ? .bool(tag == .true) : nil
    case .date:
      return ISO8601.parse(bytes).map { .date($0) }
    case .data:
      guard case .success(let decoded) = Base64.decode(bytes) else { return nil }
      return .data(decoded)
    default:
      return nil
    }
  }

  private static func trimmed(_ text: [UInt8]) -> ArraySlice<UInt8> {
    var slice = text[...]
    while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    return slice
  }
}

/// What the plain reader makes of the values it reads: a tree, or a binary property list.
private protocol PlainXMLSink {
  associatedtype Value
  associatedtype Key
  mutating func key(_ text: UnsafeBufferPointer<UInt8>) -> Key
  mutating func string(_ text: UnsafeBufferPointer<UInt8>) -> Value
  mutating func scalar(_ scalar: PlainXMLPropertyListReader.Scalar) -> Value
  mutating func array(_ items: ArraySlice<Value>) -> Value
  /// A dictionary; a key may repeat (the last value wins, in the first key's place, as in
  /// CoreFoundation).
  mutating func dictionary(keys: ArraySlice<Key>, values: ArraySlice<Value>) -> Value
}

/// Builds a ``PropertyListValue``.
private struct TreeSink: PlainXMLSink {
  func key(_ text: UnsafeBufferPointer<UInt8>) -> String { String(decoding: text, as: UTF8.self) }

  func string(_ text: UnsafeBufferPointer<UInt8>) -> PropertyListValue {
    .string(String(decoding: text, as: UTF8.self))
  }

  func scalar(_ scalar: PlainXMLPropertyListReader.Scalar) -> PropertyListValue {
    switch scalar {
    case .integer(let integer): .integer(integer)
    case .real(let real): .real(real)
    case .bool(let bool): .bool(bool)
    case .date(let date): .date(date)
    case .data(let data): .data(Data(data))
    }
  }

  func array(_ items: ArraySlice<PropertyListValue>) -> PropertyListValue { .array(Array(items)) }

  func dictionary(keys: ArraySlice<String>, values: ArraySlice<PropertyListValue>)
    -> PropertyListValue
  {
    var dictionary = PropertyListDictionary(minimumCapacity: keys.count)
    for (key, value) in zip(keys, values) { dictionary[key] = value }
    // CoreFoundation writes UIDs as <dict><key>CF$UID</key><integer>N</integer></dict>.
    if dictionary.count == 1, case .integer(let uid)? = dictionary["CF$UID"],
      let value = uid.uint64Value
    {
      return .uid(value)
    }
    return .dictionary(dictionary)
  }
}

/// Fills a ``BinaryPropertyListBuilder``: no tree, no `String` per value.
private struct BuilderSink: PlainXMLSink {
  typealias Value = BinaryPropertyListBuilder.Value
  var builder: BinaryPropertyListBuilder

  mutating func key(_ text: UnsafeBufferPointer<UInt8>) -> Value {
    builder.string(UnsafeRawBufferPointer(text))
  }

  mutating func string(_ text: UnsafeBufferPointer<UInt8>) -> Value {
    builder.string(UnsafeRawBufferPointer(text))
  }

  mutating func scalar(_ scalar: PlainXMLPropertyListReader.Scalar) -> Value {
    switch scalar {
    case .integer(let integer): builder.integer(integer)
    case .real(let real): builder.real(real)
    case .bool(let bool): builder.bool(bool)
    case .date(let date): builder.date(date)
    case .data(let data): data.withUnsafeBytes { builder.data($0) }
    }
  }

  mutating func array(_ items: ArraySlice<Value>) -> Value { builder.array(items) }

  mutating func dictionary(keys: ArraySlice<Value>, values: ArraySlice<Value>) -> Value {
    let dictionary = builder.dictionary(keys: keys, values: values)
    // CoreFoundation writes UIDs as <dict><key>CF$UID</key><integer>N</integer></dict>.
    if let uid = builder.uid(in: dictionary) { return builder.uid(uid) }
    return dictionary
  }
}
