import BundleKitFileSystem
import BundleKitPropertyList

/// JSON text built by hand: the server's answers are a few fixed shapes, and writing them
/// directly is several times faster than going through `JSONSerialization` per request.
enum JSONText {
  /// `text` as a JSON string literal, quotes included.
  static func string(_ text: String) -> String { JSONEscaping.quoted(text) }

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
