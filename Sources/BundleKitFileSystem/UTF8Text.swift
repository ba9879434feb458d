/// Strict UTF-8 decoding on every platform BundleKit declares (`String(validating:as:)`
/// needs macOS 15 and iOS 18).
public enum UTF8Text {
  /// The text of `bytes`, or nil when they are not valid UTF-8.
  public static func validated<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    // ASCII (nearly every file name) is valid as it is: one pass, no round trip.
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    let text = String(decoding: bytes, as: UTF8.self)
    // Decoding replaces each bad sequence with U+FFFD: the round trip shows it.
    return text.utf8.elementsEqual(bytes) ? text : nil
  }
}
