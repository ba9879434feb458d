/// An integer as property lists store it: anything from `Int64.min` to `UInt64.max`.
///
/// Binary plists keep values above `Int64.max` as 16-byte integers and XML keeps them as
/// decimal text, so one signed 64-bit type is not enough to read every file back unchanged.
public struct PropertyListInteger: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The two's-complement bits for negative values, the magnitude otherwise.
  public let bitPattern: UInt64
  /// Whether the value is below zero.
  public let isNegative: Bool

  /// A signed value.
  public init(_ value: Int64) {
    bitPattern = UInt64(bitPattern: value)
    isNegative = value < 0
  }

  /// An unsigned value.
  public init(_ value: UInt64) {
    bitPattern = value
    isNegative = false
  }

  /// The value as `Int64`, or nil above `Int64.max`.
  public var int64Value: Int64? {
    if isNegative || bitPattern <= UInt64(Int64.max) { return Int64(bitPattern: bitPattern) }
    return nil
  }

  /// The value as `UInt64`, or nil when negative.
  public var uint64Value: UInt64? { isNegative ? nil : bitPattern }

  /// The value as `Int`, or nil when it does not fit.
  public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

  /// Decimal digits with a leading `-` for negative values.
  public var description: String {
    isNegative ? String(Int64(bitPattern: bitPattern)) : String(bitPattern)
  }

  /// ``init(text:)`` specialised for other modules' trimmed text (the XML reader's).
  public init?(text: ArraySlice<UInt8>) { self.init(text: text.lazy) }

  /// Parses decimal or `0x` hexadecimal text with an optional sign, as CoreFoundation and
  /// plistlib accept it in XML `<integer>` elements. Returns nil when out of range or malformed.
  public init?<Bytes: Collection<UInt8>>(text: Bytes) {
    var bytes = text[...]
    var negative = false
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    var radix: UInt64 = 10
    if bytes.count > 2, bytes.first == UInt8(ascii: "0"),
      let x = bytes.dropFirst().first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X")
    {
      radix = 16
      bytes = bytes.dropFirst(2)
    }
    if bytes.isEmpty { return nil }
    var magnitude: UInt64 = 0
    for byte in bytes {
      let digit: UInt64
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
        digit = UInt64(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
        digit = UInt64(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
      let (sum, o2) = shifted.addingReportingOverflow(digit)
      if o1 || o2 { return nil }
      magnitude = sum
    }
    if negative {
      if magnitude == 0 {
        self.init(UInt64(0))
      } else if magnitude <= UInt64(Int64.max) + 1 {
        self.init(Int64(bitPattern: 0 &- magnitude))
      } else {
        return nil
      }
    } else {
      self.init(magnitude)
    }
  }

  /// Orders by numeric value.
  public static func < (lhs: PropertyListInteger, rhs: PropertyListInteger) -> Bool {
    switch (lhs.isNegative, rhs.isNegative) {
    case (true, false): return true
    case (false, true): return false
    case (true, true): return Int64(bitPattern: lhs.bitPattern) < Int64(bitPattern: rhs.bitPattern)
    case (false, false): return lhs.bitPattern < rhs.bitPattern
    }
  }
}
