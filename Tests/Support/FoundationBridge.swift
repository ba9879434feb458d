import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// Converts between Foundation's property-list objects and `PropertyListValue`.
public enum FoundationBridge {
  /// Foundation objects to values. Foundation's dictionaries have no order.
  public static func value(_ object: Any) throws -> PropertyListValue {
    switch object {
    case let bool as Bool where !(object is NSNumber) || "\(type(of: object))" == "Bool":
      return .bool(bool)
    case let number as NSNumber:
      let type = String(cString: number.objCType)
      if type == "d" || type == "f" { return .real(number.doubleValue) }
      if type == "c" || type == "B" { return .bool(number.boolValue) }
      if type == "Q" { return .integer(PropertyListInteger(number.uint64Value)) }
      return .integer(PropertyListInteger(number.int64Value))
    case let string as String: return .string(string)
    case let date as Date: return .date(date)
    case let data as Data: return .data(data)
    case let array as [Any]: return .array(try array.map(value))
    case let dictionary as [AnyHashable: Any]:
      var result = PropertyListDictionary()
      for (key, item) in dictionary {
        guard let key = key.base as? String else { throw CocoaError(.propertyListReadCorrupt) }
        result[key] = try value(item)
      }
      return .dictionary(result)
    default:
      throw CocoaError(.propertyListReadCorrupt)
    }
  }

  /// Values to Foundation objects.
  public static func object(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let s): return s
    case .integer(let i):
      if let signed = i.int64Value { return NSNumber(value: signed) }
      return NSNumber(value: i.uint64Value ?? 0)
    case .real(let r): return NSNumber(value: r)
    case .bool(let b): return b
    case .date(let d): return d
    case .data(let d): return d
    case .uid(let u): return NSNumber(value: u)
    case .array(let a): return a.map(object)
    case .dictionary(let d):
      var result: [String: Any] = [:]
      for (key, item) in d { result[key] = object(item) }
      return result
    }
  }
}
