/// Aligned columns for people.
enum TextTable {
  /// Rows padded to the widest cell of each column, the first row as the header. Control
  /// characters in cells are shown escaped (`\n`, `\x1B`), so a name cannot pose as a row
  /// or move the cursor; a backslash is doubled, as bsdtar shows names.
  /// `styles`, when given, holds an SGR code per cell (`"33"` for yellow, nil for none),
  /// added around the escaped text after the padding is worked out.
  static func render(_ rows: [[String]], styles: [[String?]]? = nil) -> String {
    let rows = rows.map { $0.map(escaped) }
    guard let columns = rows.map(\.count).max() else { return "" }
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return rows.enumerated().map { rowIndex, row in
      row.enumerated().map { index, cell in
        let padding =
          index == row.count - 1 ? "" : String(repeating: " ", count: widths[index] - cell.count)
        guard let code = styles?[safe: rowIndex]?[safe: index] ?? nil else {
          return cell + padding
        }
        return "\u{1B}[\(code)m\(cell)\u{1B}[0m" + padding
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// `text` with control characters (C0, DEL, C1) escaped and backslashes doubled.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where needsEscape(scalar):
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar == "\\" || (0x7F...0x9F).contains(scalar.value)
      || scalar.value == 0x2028 || scalar.value == 0x2029
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
