import Foundation

/// `printf`-style formatting that picks each argument by its position, so translations may
/// reorder arguments (`%2$@ %1$@`) and plural forms may drop one, without the undefined
/// behaviour of `String(format:)` with skipped positions.
///
/// Arguments may be anything: `%@` prints any value's description, numeric placeholders
/// convert integers, floating-point numbers and numeric strings ("3", "1.5") as they need.
public enum LocalizedFormatter {
  /// `format` with its placeholders replaced by `arguments`.
  public static func format(_ format: String, arguments: [Any]) -> String {
    var output = ""
    let scalars = Array(format.unicodeScalars)
    var literalStart = 0
    var nextPosition = 1
    func appendLiteral(_ range: Range<Int>) {
      // `%%` in the text between placeholders is a percent sign.
      var index = range.lowerBound
      while index < range.upperBound {
        output.unicodeScalars.append(scalars[index])
        index +=
          scalars[index] == "%" && index + 1 < range.upperBound && scalars[index + 1] == "%" ? 2 : 1
      }
    }
    for specifier in FormatSpecifier.parse(format) {
      appendLiteral(literalStart..<specifier.offset)
      let length = specifier.text.unicodeScalars.count
      literalStart = specifier.offset + length
      let position = specifier.isPositional ? specifier.position : nextPosition
      if !specifier.isPositional { nextPosition += 1 }
      guard position >= 1, position <= arguments.count else {
        output += specifier.text
        continue
      }
      output += render(specifier, arguments[position - 1])
    }
    appendLiteral(literalStart..<scalars.count)
    return output
  }

  /// One placeholder with its argument, through `String(format:)` for a single value so
  /// flags, width and precision behave exactly as in C.
  static func render(_ specifier: FormatSpecifier, _ argument: Any) -> String {
    let spec = cFormat(specifier)
    switch specifier.kind {
    case .object, .variable, .cString:
      return description(of: argument)
    case .signedInteger:
      return String(format: spec + "lld", integer(argument))
    case .unsignedInteger:
      let conversion = specifier.text.unicodeScalars.last.map { Character($0) } ?? "u"
      let value = UInt64(bitPattern: integer(argument))
      return String(
        format: spec + "ll"
          + String(conversion == "U" ? "u" : conversion == "O" ? "o" : conversion), value)
    case .double:
      let conversion = specifier.text.unicodeScalars.last.map { String(Character($0)) } ?? "f"
      return String(format: spec + conversion, double(argument))
    case .character:
      return Unicode.Scalar(UInt32(truncatingIfNeeded: integer(argument))).map {
        String(Character($0))
      } ?? ""
    case .pointer:
      return description(of: argument)
    }
  }

  /// The flags, width and precision of a placeholder, without position, length or conversion.
  private static func cFormat(_ specifier: FormatSpecifier) -> String {
    var scalars = Array(specifier.text.unicodeScalars.dropFirst())
    if let dollar = scalars.firstIndex(of: "$"),
      scalars[..<dollar].allSatisfy({ ("0"..."9").contains($0) })
    {
      scalars = Array(scalars[(dollar + 1)...])
    }
    var spec = "%"
    for scalar in scalars {
      guard "-+ #0'123456789.*".unicodeScalars.contains(scalar) else { break }
      if scalar != "'" && scalar != "*" { spec.unicodeScalars.append(scalar) }
    }
    return spec
  }

  static func description(of argument: Any) -> String {
    switch argument {
    case let string as String: string
    case let convertible as CustomStringConvertible: convertible.description
    default: String(describing: argument)
    }
  }

  static func integer(_ argument: Any) -> Int64 {
    switch argument {
    case let value as Int: Int64(value)
    case let value as Int64: value
    case let value as Int32: Int64(value)
    case let value as Int16: Int64(value)
    case let value as Int8: Int64(value)
    case let value as UInt: Int64(truncatingIfNeeded: value)
    case let value as UInt64: Int64(truncatingIfNeeded: value)
    case let value as UInt32: Int64(value)
    case let value as UInt16: Int64(value)
    case let value as UInt8: Int64(value)
    case let value as Bool: value ? 1 : 0
    case let value as Double: clamped(value)
    case let value as Float: clamped(Double(value))
    case let value as String:
      Int64(value.trimmingCharacters(in: .whitespaces))
        ?? Double(value.trimmingCharacters(in: .whitespaces)).map(clamped) ?? 0
    default: 0
    }
  }

  /// A floating-point number as an integer toward zero, held to Int64's range (1e400 or
  /// "99999999999999999999" as `%d` must print something, not stop the program); NaN is 0.
  static func clamped(_ value: Double) -> Int64 {
    if value.isNaN { return 0 }
    if value >= 0x1p63 { return .max }
    if value < -0x1p63 { return .min }
    return Int64(value.rounded(.towardZero))
  }

  static func double(_ argument: Any) -> Double {
    switch argument {
    case let value as Double: value
    case let value as Float: Double(value)
    case let value as String: Double(value.trimmingCharacters(in: .whitespaces)) ?? 0
    default: Double(integer(argument))
    }
  }

  /// The plural operands of an argument: integers exactly, numeric strings as written
  /// ("1.50" has two visible fraction digits), other floating-point values by their shortest
  /// form.
  public static func pluralOperands(of argument: Any) -> PluralOperands {
    switch argument {
    case let value as String: PluralOperands(decimal: value.trimmingCharacters(in: .whitespaces))
    case let value as Double: PluralOperands(value)
    case let value as Float: PluralOperands(Double(value))
    default: PluralOperands(integer(argument))
    }
  }
}
