import Foundation
import OrderedCollections

/// A property-list dictionary: string keys in the order they were read or inserted.
public typealias PropertyListDictionary = OrderedDictionary<String, PropertyListValue>

/// One property-list value of any type Apple's formats can hold.
///
/// Dictionaries keep their key order, so a file read and written back keeps its layout.
/// Integers cover the whole signed and unsigned 64-bit range (see ``PropertyListInteger``).
public enum PropertyListValue: Sendable, Hashable {
  /// A Unicode string.
  case string(String)
  /// An integer in `Int64.min ... UInt64.max`.
  case integer(PropertyListInteger)
  /// A 64-bit floating-point number.
  case real(Double)
  /// A Boolean.
  case bool(Bool)
  /// A point in time; property lists store seconds since 2001-01-01 00:00:00 UTC.
  case date(Date)
  /// Raw bytes.
  case data(Data)
  /// An ordered list of values. Binary sets are read as arrays.
  case array([PropertyListValue])
  /// A dictionary with string keys, in order.
  case dictionary(PropertyListDictionary)
  /// A keyed-archiver object reference (`CF$UID`), binary format only.
  case uid(UInt64)
}

extension PropertyListValue {
  /// Values are equal when they have the same type and contents, dictionaries with the same
  /// keys in the same order. Unlike `Double`, every NaN equals every other NaN, so a value
  /// always equals itself.
  public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
    case (.bool(let a), .bool(let b)): a == b
    case (.date(let a), .date(let b)):
      a == b || (a.timeIntervalSinceReferenceDate.isNaN && b.timeIntervalSinceReferenceDate.isNaN)
    case (.data(let a), .data(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.uid(let a), .uid(let b)): a == b
    default: false
    }
  }

  /// Hashes consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let value):
      hasher.combine(0)
      hasher.combine(value)
    case .integer(let value):
      hasher.combine(1)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(2)
      hasher.combine(value.isNaN ? Double.nan.bitPattern : (value == 0 ? 0 : value.bitPattern))
    case .bool(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .date(let value):
      let seconds = value.timeIntervalSinceReferenceDate
      hasher.combine(4)
      hasher.combine(
        seconds.isNaN ? Double.nan.bitPattern : (seconds == 0 ? 0 : seconds.bitPattern))
    case .data(let value):
      hasher.combine(5)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(6)
      hasher.combine(value)
    case .dictionary(let value):
      hasher.combine(7)
      hasher.combine(value)
    case .uid(let value):
      hasher.combine(8)
      hasher.combine(value)
    }
  }

  /// The name of the value's type as the XML format spells it (`string`, `integer`, `dict` ...).
  public var typeName: String {
    switch self {
    case .string: "string"
    case .integer: "integer"
    case .real: "real"
    case .bool: "bool"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dict"
    case .uid: "uid"
    }
  }

  /// The string, when the value is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The dictionary, when the value is a dictionary.
  public var dictionaryValue: PropertyListDictionary? {
    if case .dictionary(let d) = self { return d }
    return nil
  }

  /// The array, when the value is an array.
  public var arrayValue: [PropertyListValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The integer as `Int64`, when the value is an integer that fits.
  public var int64Value: Int64? {
    if case .integer(let i) = self { return i.int64Value }
    return nil
  }

  /// The Boolean, when the value is a Boolean.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The value for `key`, when this is a dictionary that has it.
  public subscript(key: String) -> PropertyListValue? {
    dictionaryValue?[key]
  }

  /// Makes an integer value from any fixed-width integer that fits in `Int64.min ... UInt64.max`.
  public static func int<T: BinaryInteger>(_ value: T) -> PropertyListValue {
    if value < 0 {
      return .integer(PropertyListInteger(Int64(value)))
    }
    return .integer(PropertyListInteger(UInt64(value)))
  }
}

extension PropertyListValue: ExpressibleByStringLiteral {
  /// A string value.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
  /// An integer value.
  public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
  /// A real value.
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
  /// A Boolean value.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
  /// An array value.
  public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
  /// A dictionary value, keys in the order written.
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self = .dictionary(PropertyListDictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

/// How deep containers may nest in a property list read from bytes, in every format. Values
/// are freed, compared and written recursively, so a deeper file would overflow the stack;
/// CoreFoundation and libplist draw similar lines.
package enum Nesting {
  package static let maximumDepth = 512
}
