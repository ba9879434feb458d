/// JSON string literals as BundleKit's JSON writer and Foundation's `JSONSerialization` write
/// them, for code that builds JSON text or looks for a key in it.
public enum JSONEscaping {
  /// `text` as a JSON string literal, quotes included: `"`, `\` and control characters
  /// escaped, `/` and non-ASCII left as they are.
  public static func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 2)
    JSONPropertyListWriter.appendString(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
