/// JSON text built by hand: the server's answers are a few fixed shapes, and writing them
/// directly is several times faster than going through `JSONSerialization` per request.
enum JSONText {
  /// `text` as a JSON string literal, quotes included.
  static func string(_ text: String) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    result += "\""
    return result
  }

  /// An optional string: the literal, or `null`.
  static func string(_ text: String?) -> String { text.map { string($0) } ?? "null" }

  /// An array of strings.
  static func array(_ texts: [String]) -> String {
    "[" + texts.map { string($0) }.joined(separator: ",") + "]"
  }

  /// An object from already encoded values, in the given order.
  static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
  }

  /// A number the way JSON writes it: integers without a fraction.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
