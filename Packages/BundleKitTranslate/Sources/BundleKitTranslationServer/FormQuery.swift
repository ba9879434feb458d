import Hummingbird
import HummingbirdCore

/// A request's query as browsers send it (`application/x-www-form-urlencoded`, what
/// `URLSearchParams` writes): `+` is a space, `%XX` a byte. Hummingbird's own
/// `queryParameters` reads RFC 3986 queries, where `+` stays `+`, so the translators' page
/// could open no key with a space in it.
struct FormQuery: Sendable {
  private var values: [String: String] = [:]
  /// A field whose name or value holds a NUL byte, or bytes that are not UTF-8: the request
  /// is refused (400) before any of it reaches the memory.
  private(set) var problem: String?

  /// The query of `uri`.
  init(_ uri: URI) {
    guard let query = uri.query, !query.isEmpty else { return }
    for field in query.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = Self.decode(parts[0]) else {
        problem = "Invalid request: a query field is not UTF-8 text"
        continue
      }
      guard let value = parts.count > 1 ? Self.decode(parts[1]) : "" else {
        problem = "Invalid request: \(name) is not UTF-8 text"
        continue
      }
      if name.utf8.contains(0) || value.utf8.contains(0) {
        problem =
          "Invalid request: \(name.utf8.contains(0) ? "a field name" : name) holds a NUL byte"
      }
      // The first of repeated fields, as `queryParameters` gives it.
      if values[name] == nil { values[name] = value }
    }
  }

  /// The field `name`; empty counts as missing.
  subscript(name: String) -> String? {
    values[name].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// `+` as a space and `%XX` as its byte; nil when the bytes are not UTF-8 or a `%` is not
  /// followed by two hex digits.
  static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(0x20)
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue),
          let low = iterator.next().flatMap(hexValue)
        else { return nil }
        bytes.append(high << 4 | low)
      default: bytes.append(byte)
      }
    }
    let decoded = String(decoding: bytes, as: UTF8.self)
    return decoded.utf8.elementsEqual(bytes) ? decoded : nil
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
