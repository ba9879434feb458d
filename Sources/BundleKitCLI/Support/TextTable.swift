/// Aligned columns for people.
enum TextTable {
  /// Rows padded to the widest cell of each column, the first row as the header.
  static func render(_ rows: [[String]]) -> String {
    guard let columns = rows.map(\.count).max() else { return "" }
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return rows.map { row in
      row.enumerated().map { index, cell in
        index == row.count - 1
          ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}
