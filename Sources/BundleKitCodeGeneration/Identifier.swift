/// Swift identifiers and literals for generated code: names from keys and file names, as
/// SwiftGen forms them.
public enum Identifier {
  /// Swift's keywords, which a generated name must not be without backticks.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init",
    "inout", "internal", "let", "open", "operator", "private", "protocol", "public", "static",
    "struct",
    "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
    "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as",
    "catch", "false", "is", "nil", "rethrows", "super", "self", "Self", "throw", "throws", "true",
    "try",
    "Type", "Protocol", "any", "some", "Any", "await", "precedencegroup", "nonisolated",
    "borrowing", "consuming", "actor", "async", "_",
  ]

  /// Words of a key segment: split at anything not a letter or digit.
  static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    for character in text {
      if character.isLetter || character.isNumber {
        current.append(character)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// An upper-camel-case type name: `welcome.title` → `WelcomeTitle`; `_` before a leading
  /// digit, `Key` for text without a letter or digit.
  public static func typeName(_ text: String) -> String {
    let name = words(text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return prefixed(name.isEmpty ? "Key" : name)
  }

  /// A lower-camel-case member name: `welcome.title` → `welcomeTitle`, `URL path` →
  /// `urlPath`; `_` before a leading digit.
  public static func memberName(_ text: String) -> String {
    let parts = words(text)
    guard let first = parts.first else { return "key" }
    let head =
      first == first.uppercased()
      ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
    return prefixed(
      head + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
  }

  private static func prefixed(_ name: String) -> String {
    name.first?.isNumber == true ? "_" + name : name
  }

  /// The name in backticks when it is a Swift keyword.
  public static func escapeKeyword(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// Why `name` cannot name a generated type as it is, or nil when it can: a letter or `_`,
  /// then letters, digits and `_`, and not a keyword.
  public static func typeNameProblem(_ name: String) -> String? {
    if let first = name.first, first.isLetter || first == "_",
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !keywords.contains(name)
    {
      return nil
    }
    return "'\(name)' is not a Swift type name: letters, digits and _, not a digit first, "
      + "not a keyword"
  }

  /// Text as the lines of a `///` comment: split where Swift would end a line (`\n`, `\r`,
  /// `\r\n`), other control characters shown escaped, so no text can end the comment and
  /// become code.
  public static func commentLines(_ text: String) -> [String] {
    text.replacingOccurrences(of: "\r\n", with: "\n").split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }
    ).map { commentText(String($0)) }
  }

  /// Text for one line of a `///` comment: line breaks and other control characters shown
  /// escaped (`\n`, `\u{7}`), everything else as it is.
  public static func commentText(_ text: String) -> String {
    escaped(text, forLiteral: false)
  }

  /// A Swift string literal: quotes, backslashes and control characters escaped.
  public static func stringLiteral(_ text: String) -> String {
    "\"" + escaped(text, forLiteral: true) + "\""
  }

  /// Line breaks and control characters (C0, C1, the Unicode line and paragraph separators)
  /// escaped; for a literal, quotes, backslashes and tabs too.
  private static func escaped(_ text: String, forLiteral: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"" where forLiteral: result += "\\\""
      case "\\" where forLiteral: result += "\\\\"
      case "\t" where forLiteral: result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
          || scalar == "\u{2028}" || scalar == "\u{2029}"
        {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
