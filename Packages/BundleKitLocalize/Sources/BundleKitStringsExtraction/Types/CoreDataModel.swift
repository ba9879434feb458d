/// The attributes of a Core Data model (`*.xcdatamodel/contents`) as the Swift properties
/// Xcode generates for them: `Integer 16` is an `Int16` (an interpolation of it is `%d`, not
/// `%lld`), `String` a `String`, a number without a scalar type an `NSNumber`.
public enum CoreDataModel {
  /// The largest model file read: real models are a few hundred KiB.
  public static let maximumSize = 4 << 20

  /// Each attribute's class (its entity's `representedClassName`, else its name), property
  /// name and Swift type, from a model's `contents` XML; an attribute of an unknown type is
  /// left out.
  public static func attributes(in contents: [UInt8]) -> [(
    entity: String, name: String, type: String
  )] {
    guard contents.count <= maximumSize else { return [] }
    var found: [(entity: String, name: String, type: String)] = []
    let open = Array("<attribute ".utf8)
    let entityOpen = Array("<entity ".utf8)
    var entities: [(offset: Int, name: String)] = []
    var cursor = 0
    while let start = firstIndex(of: entityOpen, in: contents, from: cursor) {
      guard let end = contents[start...].firstIndex(of: UInt8(ascii: ">")) else { break }
      let tag = contents[start..<end]
      if let name = value(of: "representedClassName", in: tag) ?? value(of: "name", in: tag) {
        entities.append((start, name))
      }
      cursor = end
    }
    var index = 0
    while let start = firstIndex(of: open, in: contents, from: index) {
      guard let end = contents[start...].firstIndex(of: UInt8(ascii: ">")) else { break }
      let tag = contents[start..<end]
      index = end
      let entity = entities.last(where: { $0.offset < start })?.name ?? ""
      guard let name = value(of: "name", in: tag),
        let attributeType = value(of: "attributeType", in: tag)
      else { continue }
      let scalar = value(of: "usesScalarValueType", in: tag) != "NO"
      let type: String?
      switch attributeType {
      case "Integer 16": type = scalar ? "Int16" : "NSNumber"
      case "Integer 32": type = scalar ? "Int32" : "NSNumber"
      case "Integer 64": type = scalar ? "Int64" : "NSNumber"
      case "Double": type = scalar ? "Double" : "NSNumber"
      case "Float": type = scalar ? "Float" : "NSNumber"
      case "Boolean": type = scalar ? "Bool" : "NSNumber"
      case "String": type = "String"
      case "Date": type = "Date"
      case "Decimal": type = "NSDecimalNumber"
      case "UUID": type = "UUID"
      case "URI": type = "URL"
      case "Binary": type = "Data"
      default: type = nil
      }
      if let type { found.append((entity, name, type)) }
    }
    return found
  }

  /// The value of `name="..."` in a tag's bytes.
  static func value(of name: String, in tag: ArraySlice<UInt8>) -> String? {
    let key = Array(" \(name)=\"".utf8)
    guard let start = firstIndex(of: key, in: Array(tag), from: 0) else { return nil }
    let bytes = Array(tag)
    let from = start + key.count
    guard let close = bytes[from...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
    return String(decoding: bytes[from..<close], as: UTF8.self)
  }

  static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    var index = max(from, 0)
    while index + needle.count <= haystack.count {
      if haystack[index] == needle[0],
        haystack[index..<(index + needle.count)].elementsEqual(needle)
      {
        return index
      }
      index += 1
    }
    return nil
  }
}
