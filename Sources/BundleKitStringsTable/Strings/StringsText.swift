import Foundation

/// Text in a `.strings` file's own encoding, and the escapes its syntax needs.
public enum StringsText {
  /// A comment's text made safe to sit between `/*` and `*/`.
  public static func comment(_ text: String) -> String {
    text.replacingOccurrences(of: "*/", with: "* /")
  }

  /// `/* comment */` on its own line when there is one, then `"key" = "value";` and a line
  /// break: one entry as Xcode and genstrings lay it out.
  public static func entry(key: String, value: String, comment: String?) -> String {
    let pair = "\(StringsFile.literal(key)) = \(StringsFile.literal(value));\n"
    guard let comment else { return pair }
    return "/* \(Self.comment(comment)) */\n" + pair
  }

  /// `text` encoded as the file is (without a byte order mark: only appended text).
  public static func encode(_ text: String, as encoding: StringsFileEncoding) -> [UInt8] {
    switch encoding {
    case .utf8, .utf8WithBOM: return Array(text.utf8)
    case .utf16LittleEndian: return text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    case .utf16BigEndian: return text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
  }

  /// `blocks` (each ending in a line break) appended to a text table's `bytes` in its
  /// `encoding`, one blank line between the old text and the new.
  public static func appending(_ blocks: [String], to bytes: [UInt8], encoding: StringsFileEncoding)
    -> [UInt8]
  {
    var text = blocks.joined(separator: "\n")
    if !bytes.isEmpty { text = (endsWithNewline(bytes, encoding: encoding) ? "\n" : "\n\n") + text }
    return bytes + encode(text, as: encoding)
  }

  /// Whether the file's text ends with a line break.
  public static func endsWithNewline(_ bytes: [UInt8], encoding: StringsFileEncoding) -> Bool {
    switch encoding {
    case .utf8, .utf8WithBOM: return bytes.last == 0x0A
    case .utf16LittleEndian: return bytes.suffix(2) == [0x0A, 0x00]
    case .utf16BigEndian: return bytes.suffix(2) == [0x00, 0x0A]
    }
  }
}
