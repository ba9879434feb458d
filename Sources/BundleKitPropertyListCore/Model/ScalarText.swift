import BundleKitDiagnostics
import Foundation

/// The scalar types that can be written as text on a command line.
public enum PropertyListScalarType: String, Sendable, CaseIterable {
  /// Text as given.
  case string
  /// Decimal or `0x` hexadecimal, in `Int64.min ... UInt64.max`.
  case integer
  /// A floating-point number, `nan` or `[+-]inf[inity]`.
  case real
  /// `true`/`false`, `yes`/`no` or `1`/`0`.
  case bool
  /// ISO 8601 in UTC: `2024-05-01T12:00:00Z`.
  case date
  /// Base64.
  case data
}

extension PropertyListValue {
  /// Reads `text` as a value of `type`; nil with a reason when it is not one.
  public static func parse(_ text: String, as type: PropertyListScalarType) -> Result<
    PropertyListValue, ScalarParseError
  > {
    let bytes = Array(text.utf8)
    switch type {
    case .string:
      return .success(.string(text))
    case .integer:
      guard let integer = PropertyListInteger(text: bytes) else {
        return .failure(
          ScalarParseError(reason: "expected a whole number from \(Int64.min) to \(UInt64.max)"))
      }
      return .success(.integer(integer))
    case .real:
      guard let real = parseReal(bytes) else {
        return .failure(ScalarParseError(reason: "expected a number such as 1.5 or 2e10"))
      }
      return .success(.real(real))
    case .bool:
      switch text.lowercased() {
      case "true", "yes", "1": return .success(.bool(true))
      case "false", "no", "0": return .success(.bool(false))
      default: return .failure(ScalarParseError(reason: "expected true or false"))
      }
    case .date:
      guard let date = ISO8601.parse(bytes) else {
        return .failure(
          ScalarParseError(reason: "expected an ISO 8601 date such as 2024-05-01T12:00:00Z"))
      }
      return .success(.date(date))
    case .data:
      switch Base64.decode(bytes) {
      case .success(let decoded): return .success(.data(Data(decoded)))
      case .failure(let error):
        return .failure(ScalarParseError(reason: "invalid base64 at character \(error.offset + 1)"))
      }
    }
  }

  /// A scalar as plain text: strings as they are, numbers in decimal, dates in ISO 8601 UTC,
  /// data in base64. Nil for arrays and dictionaries.
  public var scalarText: String? {
    switch self {
    case .string(let string): string
    case .integer(let integer): integer.description
    case .real(let real): XMLPropertyListWriter.format(real)
    case .bool(let bool): bool ? "true" : "false"
    case .date(let date): ISO8601.string(from: date)
    case .data(let data): Base64.encode(data)
    case .uid(let uid): String(uid)
    case .array, .dictionary: nil
    }
  }
}

/// Why a command-line value could not be read as the type asked for.
public struct ScalarParseError: DiagnosticConvertible, Sendable {
  /// What was expected.
  public var reason: String
  /// One error: the reason.
  public var diagnostics: [Diagnostic] { [.error(nil, reason)] }
}

/// ``parseReal(_:)`` specialised for other modules' trimmed text (the XML reader's).
package func parseReal(_ bytes: ArraySlice<UInt8>) -> Double? { parseReal(bytes.lazy) }

/// Parses a real as CoreFoundation writes them: decimal or exponent notation, `nan`,
/// `inf`/`infinity` with an optional sign.
package func parseReal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Double? {
  guard !bytes.isEmpty, bytes.count < 400 else { return nil }
  let lowered = String(decoding: bytes, as: UTF8.self).lowercased()
  switch lowered {
  case "nan", "+nan", "-nan": return .nan
  case "inf", "+inf", "infinity", "+infinity": return .infinity
  case "-inf", "-infinity": return -.infinity
  default: break
  }
  // Reject hex floats and other forms strtod would take but CoreFoundation would not.
  for byte in bytes {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"),
      UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
      continue
    default:
      return nil
    }
  }
  return Double(lowered)
}
