import ArgumentParser
import FileSystem
import Foundation
import Morse
import PropertyListXML

/// `bundlekit morse decode [FILE|-]`: keying to text.
struct MorseDecode: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "decode",
    abstract: "Decode signed durations or dots and dashes into text.",
    discussion: """
      Durations are milliseconds, positive while the key is down and negative while it is \
      up, separated by spaces, commas or new lines; the speed is learned from the keying. \
      Dots and dashes ('.-' text) split letters by spaces and words by ' / '.
      """
  )

  @Argument(help: "The input file, or - for standard input (the default).")
  var input = "-"

  @Option(help: "Written for a sequence that is no character.")
  var replacement = "\u{FFFD}"

  func run() throws {
    let name = input == "-" ? "<stdin>" : input
    let bytes =
      input == "-"
      ? [UInt8](FileHandle.standardInput.readDataToEndOfFile()) : try FileIO.read(input)
    guard let text = UTF8Text.validated(bytes) else {
      throw MorseInputError.notUTF8(file: name)
    }
    // Durations always hold digits; dots and dashes never do.
    if !text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      try Self.checkSymbols(text, file: name)
      Diagnostics.printLine(MorseTextDecoder.decode(text, replacement: replacement))
      return
    }
    var decoder = MorseDecoder()
    decoder.replacement = replacement
    for duration in try Self.durations(text, file: name) { decoder.feed(duration) }
    decoder.finish()
    Diagnostics.printLine(decoder.text)
  }

  /// Dots-and-dashes input may hold only dots, dashes, slashes and white space.
  static func checkSymbols(_ text: String, file: String) throws {
    for (line, content) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      for (column, character) in content.enumerated() where !".-/ \t\r".contains(character) {
        throw MorseInputError.unexpected(
          file: file, line: line + 1, column: column + 1, found: String(character),
          expected: "a dot, dash, '/' or space")
      }
    }
  }

  /// Signed numbers split by white space or commas.
  static func durations(_ text: String, file: String) throws -> [Double] {
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
            throw MorseInputError.unexpected(
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
enum MorseInputError: Error, CustomStringConvertible {
  /// The input is not UTF-8 text.
  case notUTF8(file: String)
  /// Something that is no duration, dot, dash or separator.
  case unexpected(file: String, line: Int, column: Int, found: String, expected: String)
  /// Text that has no Morse code.
  case noCode(character: Character)

  var description: String {
    switch self {
    case .notUTF8(let file):
      "\(file): error: the input is not UTF-8 text"
    case .unexpected(let file, let line, let column, let found, let expected):
      "\(file):\(line):\(column): error: expected \(expected), found '\(found)'"
    case .noCode(let character):
      "error: '\(character)' (U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true))) has no Morse code"
    }
  }
}
