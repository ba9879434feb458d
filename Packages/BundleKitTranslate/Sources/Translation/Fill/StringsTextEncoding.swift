import Foundation
import StringsTable

/// Text in a `.strings` file's own encoding, and the escapes its syntax needs.
enum StringsText {
  /// A comment's text made safe to sit between `/*` and `*/`.
  static func comment(_ text: String) -> String {
    text.replacingOccurrences(of: "*/", with: "* /")
  }

  /// `text` encoded as the file is (without a byte order mark: only appended text).
  static func encode(_ text: String, as encoding: StringsFileEncoding) -> [UInt8] {
    switch encoding {
    case .utf8, .utf8WithBOM: return Array(text.utf8)
    case .utf16LittleEndian: return text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    case .utf16BigEndian: return text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
  }

  /// Whether the file's text ends with a line break.
  static func endsWithNewline(_ bytes: [UInt8], encoding: StringsFileEncoding) -> Bool {
    switch encoding {
    case .utf8, .utf8WithBOM: return bytes.last == 0x0A
    case .utf16LittleEndian: return bytes.suffix(2) == [0x0A, 0x00]
    case .utf16BigEndian: return bytes.suffix(2) == [0x00, 0x0A]
    }
  }
}
