import Foundation

/// Finds reads of the shared corpus that no gate guards, in the text of a test file.
///
/// A fresh clone has no `../shared/corpus` beside it, so every test that reads
/// `Corpus.path(...)` must skip, with its reason, when the corpus is absent: the test (or a suite
/// around it) carries `.enabled(if: Corpus.has(...))` or `.enabled(if: Corpus.isPresent)`, or the
/// read itself is filtered by `Corpus.has` on its line. A member that reads the corpus (a
/// `static let` path, a helper function) is gated when every use of it is.
public enum CorpusGate {
  /// One read that nothing gates.
  public struct Finding: CustomStringConvertible, Equatable, Sendable {
    /// The line, from 1.
    public var line: Int
    /// The line's text, trimmed.
    public var text: String

    /// `line N: text`.
    public var description: String { "line \(line): \(text)" }
  }

  /// The ungated corpus reads in `source`, in order.
  public static func ungatedReads(in source: String) -> [Finding] {
    let file = ScannedFile(source)
    var findings: [Finding] = []
    for offset in file.usesOf("Corpus.path") where !file.isGated(offset, depth: 0) {
      let line = file.line(of: offset)
      findings.append(Finding(line: line, text: file.lineText(line)))
    }
    return findings
  }

  /// A Swift source with its code told apart from comments and string literals, and its
  /// braces matched.
  struct ScannedFile {
    let bytes: [UInt8]
    /// Whether each byte is code (not a comment, not inside a string literal).
    var isCode: [Bool]
    /// Each brace scope: the offsets of `{` and its `}`.
    var scopes: [(open: Int, close: Int)] = []
    var lineStarts: [Int] = [0]

    init(_ source: String) {
      bytes = Array(source.utf8)
      isCode = Array(repeating: true, count: bytes.count)
      for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        lineStarts.append(index + 1)
      }
      markLiteralsAndComments()
      var stack: [Int] = []
      for index in bytes.indices where isCode[index] {
        if bytes[index] == UInt8(ascii: "{") {
          stack.append(index)
        } else if bytes[index] == UInt8(ascii: "}"), let open = stack.popLast() {
          scopes.append((open, index))
        }
      }
    }

    /// Marks comments and string literals (single-line, multi-line and raw) as not code.
    private mutating func markLiteralsAndComments() {
      var index = 0
      let count = bytes.count
      func at(_ offset: Int) -> UInt8 { offset < count ? bytes[offset] : 0 }
      while index < count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "/") {
          let start = index
          while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
          for offset in start..<index { isCode[offset] = false }
          continue
        }
        if byte == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "*") {
          let start = index
          var depth = 0
          repeat {
            if at(index) == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "*") {
              depth += 1
              index += 2
            } else if at(index) == UInt8(ascii: "*") && at(index + 1) == UInt8(ascii: "/") {
              depth -= 1
              index += 2
            } else {
              index += 1
            }
          } while depth > 0 && index < count
          for offset in start..<min(index, count) { isCode[offset] = false }
          continue
        }
        if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") {
          var hashes = 0
          var cursor = index
          while at(cursor) == UInt8(ascii: "#") {
            hashes += 1
            cursor += 1
          }
          guard at(cursor) == UInt8(ascii: "\"") else {
            index += 1
            continue
          }
          let multiline =
            at(cursor + 1) == UInt8(ascii: "\"") && at(cursor + 2) == UInt8(ascii: "\"")
          let quotes = multiline ? 3 : 1
          let start = index
          cursor += quotes
          while cursor < count {
            if bytes[cursor] == UInt8(ascii: "\\") && hashes == 0 {
              cursor += 2
              continue
            }
            if bytes[cursor] == UInt8(ascii: "\"") {
              var closes = true
              for extra in 0..<quotes where at(cursor + extra) != UInt8(ascii: "\"") {
                closes = false
              }
              for extra in 0..<hashes where at(cursor + quotes + extra) != UInt8(ascii: "#") {
                closes = false
              }
              if closes {
                cursor += quotes + hashes
                break
              }
            }
            if !multiline && bytes[cursor] == UInt8(ascii: "\n") { break }
            cursor += 1
          }
          for offset in start..<min(cursor, count) { isCode[offset] = false }
          index = cursor
          continue
        }
        index += 1
      }
    }

    /// Every offset where `needle` starts in the raw text.
    func occurrences(of needle: String) -> [Int] {
      let pattern = Array(needle.utf8)
      guard !pattern.isEmpty, bytes.count >= pattern.count else { return [] }
      var found: [Int] = []
      for start in 0...(bytes.count - pattern.count)
      where bytes[start] == pattern[0] && Array(bytes[start..<start + pattern.count]) == pattern {
        found.append(start)
      }
      return found
    }

    func line(of offset: Int) -> Int {
      var low = 0
      var high = lineStarts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
      }
      return low + 1
    }

    func lineText(_ line: Int) -> String {
      let start = lineStarts[line - 1]
      let end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
      return String(decoding: bytes[start..<end], as: UTF8.self)
        .trimmingCharacters(in: .whitespaces)
    }

    /// The code (comments and literals left out) before the `{` at `open`, back to the last
    /// brace or semicolon: a declaration's attributes and signature.
    func header(before open: Int) -> String {
      var start = open
      while start > 0 {
        let byte = bytes[start - 1]
        if isCode[start - 1]
          && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ";"))
        {
          break
        }
        start -= 1
      }
      return code(start..<open)
    }

    /// The code in `range`, with literals and comments left out.
    func code(_ range: Range<Int>) -> String {
      String(decoding: range.filter { isCode[$0] }.map { bytes[$0] }, as: UTF8.self)
    }

    /// The scopes around `offset`, innermost first.
    func enclosingScopes(of offset: Int) -> [(open: Int, close: Int)] {
      scopes.filter { $0.open < offset && offset < $0.close }.sorted { $0.open > $1.open }
    }

    static func gates(_ text: String) -> Bool {
      text.contains("Corpus.has") || text.contains("Corpus.isPresent")
    }

    /// Whether the read at `offset` is gated: by its line, by a scope around it, or (in a
    /// member that is no test) by every use of that member.
    func isGated(_ offset: Int, depth: Int) -> Bool {
      guard depth < 8 else { return false }
      if lineText(line(of: offset)).contains("Corpus.has") { return true }
      let scopes = enclosingScopes(of: offset)
      if scopes.contains(where: { Self.gates(header(before: $0.open)) }) { return true }
      // The innermost declaration around the read: a scope's header, or the statement the
      // read sits in when no brace opens it (`static let path = Corpus.path(...)`).
      var statementStart = offset
      while statementStart > 0 {
        let byte = bytes[statementStart - 1]
        if isCode[statementStart - 1]
          && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ";"))
        {
          break
        }
        statementStart -= 1
      }
      // Each declaration around the read, innermost first, with the header of the scope it
      // sits in (nil at the top of the file).
      var declarations: [(text: String, container: String?)] = []
      var containers: [String?] = scopes.map { header(before: $0.open) }
      containers.append(nil)
      declarations.append((code(statementStart..<offset), containers[0]))
      for (index, scope) in scopes.enumerated() {
        declarations.append((header(before: scope.open), containers[index + 1]))
      }
      for declaration in declarations {
        if declaration.text.contains("@Test") { return false }
        let isMember = declaration.container.map(Self.isTypeHeader) ?? true
        if isMember, let name = Self.declaredName(in: declaration.text) {
          let uses = usesOf(name)
          return !uses.isEmpty && uses.allSatisfy { isGated($0, depth: depth + 1) }
        }
      }
      return false
    }

    /// Whether `header` opens a type (so what is declared in it is a member).
    static func isTypeHeader(_ header: String) -> Bool {
      let words = Set(
        header.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(
          String.init))
      return !words.isDisjoint(with: ["struct", "enum", "class", "extension", "actor"])
        && !words.contains("func")
    }

    /// The name a `let`, `var` or `func` declaration introduces, if `header` is one.
    static func declaredName(in header: String) -> String? {
      let words = header.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
      for (index, word) in words.enumerated()
      where ["let", "var", "func"].contains(word) && index + 1 < words.count {
        return String(words[index + 1])
      }
      return nil
    }

    /// Offsets where `name` is used as a whole word in code, its declarations left out.
    func usesOf(_ name: String) -> [Int] {
      occurrences(of: name).filter { start in
        let end = start + name.utf8.count
        func isWord(_ byte: UInt8) -> Bool {
          byte == UInt8(ascii: "_") || (byte >= 48 && byte <= 57)
            || (byte | 0x20 >= 97 && byte | 0x20 <= 122)
        }
        guard isCode[start], start == 0 || !isWord(bytes[start - 1]),
          end >= bytes.count || !isWord(bytes[end])
        else { return false }
        let before = code(max(0, start - 12)..<start)
          .trimmingCharacters(in: .whitespaces)
        return !(before.hasSuffix("let") || before.hasSuffix("var") || before.hasSuffix("func"))
      }
    }
  }
}
