/// Text for XML element content, escaped as Apple's tools escape it: `&`, `<` and `>`.
public enum XMLEscaping {
  /// `text` with `&`, `<` and `>` replaced by their entities. Escaped per byte of its UTF-8,
  /// not per character: `&` followed by a combining mark (U+0301), or `<` after a prepended
  /// concatenation mark (U+0600), is one `Character` but still a markup byte.
  public static func escape(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else {
      return text
    }
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
      switch byte {
      case 0x26: result.append(contentsOf: "&amp;".utf8)
      case 0x3C: result.append(contentsOf: "&lt;".utf8)
      case 0x3E: result.append(contentsOf: "&gt;".utf8)
      default: result.append(byte)
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// `text` for an attribute value in double quotes: also `"`, and line breaks and tabs as
  /// character references (`&#10;`), which an XML reader would otherwise turn into spaces;
  /// Xcode writes XLIFF ids so.
  public static func attribute(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\n": result += "&#10;"
      case "\r": result += "&#13;"
      case "\t": result += "&#9;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
