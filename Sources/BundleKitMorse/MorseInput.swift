import BundleKitDiagnostics
import Foundation

/// Morse input as users give it to `bundlekit morse decode`: signed durations (milliseconds,
/// positive while the key is down, negative while it is up) or dots and dashes, checked with
/// a line and column for anything else.
public enum MorseInput {
  /// Decodes `text`: durations when it holds digits, dots and dashes otherwise.
  ///
  /// - Parameters:
  ///   - text: The input.
  ///   - file: The name diagnostics give the input (`<stdin>` for standard input).
  ///   - replacement: Written for a sequence that is no character.
  /// - Returns: The decoded text.
  /// - Throws: ``MorseInputError/unexpected(file:line:column:found:expected:)`` at the first
  ///   token that is no duration, dot, dash or separator.
  public static func decode(_ text: String, file: String, replacement: String = "\u{FFFD}")
    throws(MorseInputError) -> String
  {
    // Durations always hold digits; dots and dashes never do.
    if !text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      try checkSymbols(text, file: file)
      return MorseTextDecoder.decode(text, replacement: replacement)
    }
    var decoder = MorseDecoder()
    decoder.replacement = replacement
    for duration in try durations(text, file: file) { decoder.feed(duration) }
    decoder.finish()
    return decoder.text
  }

  /// Checks that every character of `text` has a Morse code (white space aside).
  ///
  /// - Throws: ``MorseInputError/noCode(character:)`` for the first that has none.
  public static func checkEncodable(_ text: String) throws(MorseInputError) {
    for character in text where !character.isWhitespace && MorseCode.code(for: character) == nil {
      throw .noCode(character: character)
    }
  }

  /// Dots-and-dashes input may hold only dots, dashes, slashes and white space.
  static func checkSymbols(_ text: String, file: String) throws(MorseInputError) {
    for (line, content) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      for (column, character) in content.enumerated() where !".-/ \t\r".contains(character) {
        throw .unexpected(
          file: file, line: line + 1, column: column + 1, found: String(character),
          expected: "a dot, dash, '/' or space")
      }
    }
  }

  /// Signed numbers split by white space or commas.
  static func durations(_ text: String, file: String) throws(MorseInputError) -> [Double] {
    var result: [Double] = []
    for (line, content) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      var column = 1
      for token in content.split(separator: " ", omittingEmptySubsequences: false) {
        defer { column += token.count + 1 }
        for piece in token.split(separator: ",") {
          let trimmed = piece.trimmingCharacters(in: .whitespaces)
          if trimmed.isEmpty { continue }
          guard let value = Double(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed),
            value.isFinite, value != 0
          else {
            throw .unexpected(
              file: file, line: line + 1, column: column, found: trimmed,
              expected: "a duration (signed milliseconds, not 0)")
          }
          result.append(value)
        }
      }
    }
    return result
  }
}

/// Bad Morse input, in compiler style.
public enum MorseInputError: DiagnosticConvertible, Sendable, Equatable {
  /// The input is not UTF-8 text.
  case notUTF8(file: String)
  /// Something that is no duration, dot, dash or separator.
  case unexpected(file: String, line: Int, column: Int, found: String, expected: String)
  /// Text that has no Morse code.
  case noCode(character: Character)

  /// One error, at the line and column of the token for bad keying.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .notUTF8(let file):
      [.error(file, "the input is not UTF-8 text")]
    case .unexpected(let file, let line, let column, let found, let expected):
      [.error(file, line: line, column: column, "expected \(expected), found '\(found)'")]
    case .noCode(let character):
      [
        .error(
          nil,
          "'\(character)' (U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true))) has no Morse code"
        )
      ]
    }
  }
}
