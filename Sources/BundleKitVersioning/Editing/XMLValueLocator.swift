/// Finds where a top-level string value of an XML property list sits in the file's bytes, so
/// it can be replaced without touching any other byte: comments, indentation, key order and
/// the rest stay exactly as they were.
enum XMLValueLocator {
  /// Where a top-level key's value is.
  enum Location: Sendable, Hashable {
    /// The text between `<string>` and `</string>` (still escaped).
    case content(Range<Int>)
    /// A `<string/>` element, to be replaced whole.
    case emptyElement(Range<Int>)
    /// Some other element (not a string).
    case other(Range<Int>)
  }

  /// The 1-based line of a top-level key's value, when the file is XML and holds it.
  public static func line(of key: String, in bytes: [UInt8]) -> Int? {
    guard let location = locate(key, in: bytes) else { return nil }
    let offset: Int
    switch location {
    case .content(let range), .emptyElement(let range), .other(let range): offset = range.lowerBound
    }
    var line = 1
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
    return line
  }

  /// The location of `key`'s value in the top-level dictionary, or nil when absent.
  ///
  /// On the bytes: names and keys are compared where they lie, and a key is decoded into a
  /// string only when it holds an entity (`bump` locates a value in every file it edits).
  static func locate(_ key: String, in bytes: [UInt8]) -> Location? {
    let wanted = Array(key.utf8)
    let wantedIsASCII = wanted.allSatisfy { $0 < 0x80 }
    var scanner = Scanner(bytes: bytes)
    // The names of the open elements, as ranges of `bytes`.
    var stack: [Range<Int>] = []
    // Whether the last top-level `<key>` read is `key`; nil when none is pending.
    var pendingKeyMatches: Bool?
    while let token = scanner.next() {
      switch token {
      case .start(let name, let range, let selfClosing):
        let atTop =
          stack.count == 2
          ? scanner.isName(stack[0], Scanner.plistName)
            && scanner.isName(stack[1], Scanner.dictName)
          : stack.count == 1 && scanner.isName(stack[0], Scanner.dictName)
        if atTop, scanner.isName(name, Scanner.keyName), !selfClosing {
          guard let (text, _) = scanner.text(until: Scanner.keyClosing) else { return nil }
          // Plain ASCII compares as bytes; an entity or other text as strings do (canonical
          // equivalence), as before.
          pendingKeyMatches =
            wantedIsASCII && text.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "&") }
            ? text.elementsEqual(wanted) : decodeEntities(text) == key
          continue
        }
        if atTop, let matches = pendingKeyMatches {
          pendingKeyMatches = nil
          if matches {
            if scanner.isName(name, Scanner.stringName) {
              if selfClosing { return .emptyElement(range) }
              guard let (_, contentRange) = scanner.text(until: Scanner.stringClosing) else {
                return nil
              }
              return .content(contentRange)
            }
            return .other(range)
          }
        }
        if !selfClosing { stack.append(name) }
      case .end:
        if !stack.isEmpty { stack.removeLast() }
      }
    }
    return nil
  }

  static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    // On the bytes: `String.contains` of a string goes through Foundation's NSString search.
    guard bytes.contains(UInt8(ascii: "&")) else { return text }
    var result = ""
    var rest = text[...]
    while let amp = rest.firstIndex(of: "&") {
      result += rest[..<amp]
      guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
      let entity = rest[rest.index(after: amp)..<semicolon]
      switch entity {
      case "amp": result += "&"
      case "lt": result += "<"
      case "gt": result += ">"
      case "quot": result += "\""
      case "apos": result += "'"
      default:
        let number =
          entity.hasPrefix("#x")
          ? UInt32(entity.dropFirst(2), radix: 16)
          : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
        if let number, let scalar = Unicode.Scalar(number) {
          result.unicodeScalars.append(scalar)
        } else {
          result += "&\(entity);"
        }
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return result + rest
  }

  /// Just enough of XML for plists: tags, with comments, declarations and CDATA skipped.
  struct Scanner {
    let bytes: [UInt8]
    var position = 0

    /// A tag; its name is a range of `bytes`.
    enum Token {
      case start(name: Range<Int>, range: Range<Int>, selfClosing: Bool)
      case end(name: Range<Int>)
    }

    // The markup it looks for, as bytes once (not a new array at every tag).
    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let cdataClose = Array("]]>".utf8)
    static let declarationOpen = Array("<?".utf8)
    static let declarationClose = Array("?>".utf8)
    static let doctypeOpen = Array("<!".utf8)
    static let tagClose = Array(">".utf8)
    static let plistName = Array("plist".utf8)
    static let dictName = Array("dict".utf8)
    static let keyName = Array("key".utf8)
    static let stringName = Array("string".utf8)
    static let keyClosing = Array("</key".utf8)
    static let stringClosing = Array("</string".utf8)

    /// Whether the name at `range` is `name`.
    func isName(_ range: Range<Int>, _ name: [UInt8]) -> Bool {
      range.count == name.count && bytes[range].elementsEqual(name)
    }

    func starts(with pattern: [UInt8], at index: Int) -> Bool {
      index + pattern.count <= bytes.count
        && bytes[index..<index + pattern.count].elementsEqual(pattern)
    }

    mutating func skip(past pattern: [UInt8]) {
      while position + pattern.count <= bytes.count {
        if bytes[position..<position + pattern.count].elementsEqual(pattern) {
          position += pattern.count
          return
        }
        position += 1
      }
      position = bytes.count
    }

    mutating func next() -> Token? {
      while position < bytes.count {
        guard bytes[position] == UInt8(ascii: "<") else {
          position += 1
          continue
        }
        let start = position
        if starts(with: Self.commentOpen, at: position) {
          skip(past: Self.commentClose)
        } else if starts(with: Self.cdataOpen, at: position) {
          skip(past: Self.cdataClose)
        } else if starts(with: Self.declarationOpen, at: position) {
          skip(past: Self.declarationClose)
        } else if starts(with: Self.doctypeOpen, at: position) {
          // DOCTYPE, possibly with an internal subset in brackets.
          var depth = 0
          while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ">"), depth <= 0 { break }
          }
        } else {
          var end = position + 1
          var quote: UInt8?
          while end < bytes.count {
            let byte = bytes[end]
            if let open = quote {
              if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
              quote = byte
            } else if byte == UInt8(ascii: ">") {
              break
            }
            end += 1
          }
          guard end < bytes.count else { return nil }
          position = end + 1
          let isEnd = bytes[start + 1] == UInt8(ascii: "/")
          let selfClosing = bytes[end - 1] == UInt8(ascii: "/")
          var nameStart = start + (isEnd ? 2 : 1)
          while nameStart < end, bytes[nameStart] == 0x20 { nameStart += 1 }
          var nameEnd = nameStart
          scan: while nameEnd < end {
            switch bytes[nameEnd] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">"): break scan
            default: nameEnd += 1
            }
          }
          let name = nameStart..<nameEnd
          return isEnd
            ? .end(name: name)
            : .start(name: name, range: start..<position, selfClosing: selfClosing)
        }
      }
      return nil
    }

    /// The raw text up to `closing` (`</key`, the start of the closing tag; comments inside
    /// are kept in the range), and its range; the scanner moves past the closing tag.
    mutating func text(until closing: [UInt8]) -> (ArraySlice<UInt8>, Range<Int>)? {
      let start = position
      var index = position
      while index + closing.count <= bytes.count {
        if bytes[index] == UInt8(ascii: "<"), starts(with: Self.commentOpen, at: index) {
          position = index
          skip(past: Self.commentClose)
          index = position
          continue
        }
        if bytes[index..<index + closing.count].elementsEqual(closing) {
          position = index
          skip(past: Self.tagClose)
          return (bytes[start..<index], start..<index)
        }
        index += 1
      }
      return nil
    }
  }
}
