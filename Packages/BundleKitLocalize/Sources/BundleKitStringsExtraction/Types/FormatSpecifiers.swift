import Foundation

/// The format specifier each interpolated type gets in a localized string's key, as
/// `LocalizedStringKey.StringInterpolation` and `String.LocalizationValue` write them.
enum FormatSpecifiers {
  /// The specifier of a type spelled `type` (`Int`, `Swift.Double`, `CGFloat`); `%@` for
  /// strings, objects and values formatted by the framework (dates, measurements, text).
  static func specifier(forType type: String) -> String? {
    var name = type.trimmingCharacters(in: .whitespaces)
    if name.hasPrefix("Swift.") { name.removeFirst("Swift.".count) }
    if name.hasPrefix("CoreFoundation.") || name.hasPrefix("Foundation.") {
      name = String(name.drop { $0 != "." }.dropFirst())
    }
    // An optional cannot be interpolated into a localized string: no specifier.
    if name.hasSuffix("?") || name.hasSuffix("!") || name.hasPrefix("Optional<") { return nil }
    switch name {
    case "Int", "Int64": return "%lld"
    // The narrow integers are passed widened to 32 bits, and written so (SwiftUI's
    // `_FormatSpecifiable`; CubeTime's catalog has `Phase %d` for an `Int16` from its Core
    // Data model).
    case "Int32", "Int16", "Int8": return "%d"
    case "UInt", "UInt64": return "%llu"
    case "UInt32", "UInt16", "UInt8": return "%u"
    case "Double", "CGFloat", "TimeInterval", "CLLocationDistance", "CLLocationDegrees":
      return "%lf"
    case "Float", "Float32": return "%f"
    default: return "%@"
    }
  }
}
