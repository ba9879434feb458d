import BundleKitPropertyListCore
import Foundation

/// Reads a table file as the runtime needs it, with no libxml2: compiled tables (binary
/// property lists) and text `.strings` (OpenStep) by the pure-Swift codec, an uncompiled XML
/// `.stringsdict` by Foundation, as Apple's runtime reads it.
enum TableFileReader {
  /// The file's value, or nil when it is missing or unreadable.
  static func value(atPath path: String) -> PropertyListValue? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return data.withUnsafeBytes { raw -> PropertyListValue? in
      let format = PropertyListFormat.detect(raw)
      guard format == .xml1 else { return try? PropertyListValue.decode(raw, format: format) }
      guard
        let object = try? PropertyListSerialization.propertyList(from: data, format: nil)
      else { return nil }
      return value(of: object)
    }
  }

  /// A Foundation property-list object as a value (strings, numbers, dictionaries and arrays
  /// are what tables hold).
  static func value(of object: Any) -> PropertyListValue? {
    switch object {
    case let text as String:
      return .string(text)
    case let dictionary as [String: Any]:
      var result = PropertyListDictionary()
      for key in dictionary.keys.sorted() {
        if let value = dictionary[key].flatMap(value(of:)) { result[key] = value }
      }
      return .dictionary(result)
    case let array as [Any]:
      return .array(array.compactMap(value(of:)))
    case let data as Data:
      return .data(data)
    case let date as Date:
      return .date(date)
    case let number as NSNumber:
      if let integer = Int64(exactly: number.doubleValue), !"\(number)".contains(".") {
        return .int(integer)
      }
      return .real(number.doubleValue)
    default:
      return nil
    }
  }
}
