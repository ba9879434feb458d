import Foundation
import PropertyList
import Testing

/// Foundation's PropertyListSerialization as an independent implementation, in process.
struct FoundationDifferentialTests {
  /// Foundation objects to values. Foundation's dictionaries have no order.
  static func value(_ object: Any) throws -> PropertyListValue {
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
  static func object(_ value: PropertyListValue) -> Any {
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

  @Test(
    "values we write, Foundation reads identically", arguments: [PropertyListFormat.xml1, .binary1])
  func weWriteFoundationReads(format: PropertyListFormat) throws {
    let seed = SeededGenerator.seed("weWriteFoundationReads \(format)")
    var random = RandomValues(seed: seed)
    random.includeInfinity = false
    for round in 0..<60 {
      let value = random.document()
      let bytes = try value.encoded(as: format)
      let object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
      let seen = try Self.value(object)
      #expect(seen.sortedKeys == value.sortedKeys, "seed \(seed) round \(round)")
    }
  }

  @Test(
    "values Foundation writes, we read identically", arguments: [PropertyListFormat.xml1, .binary1])
  func foundationWritesWeRead(format: PropertyListFormat) throws {
    let seed = SeededGenerator.seed("foundationWritesWeRead \(format)")
    var random = RandomValues(seed: seed)
    random.includeInfinity = false
    for round in 0..<60 {
      let value = random.document()
      let data = try PropertyListSerialization.data(
        fromPropertyList: Self.object(value), format: format == .xml1 ? .xml : .binary, options: 0)
      let document = try PropertyListDocument(data: data)
      #expect(document.format == format)
      #expect(document.value.sortedKeys == value.sortedKeys, "seed \(seed) round \(round)")
    }
  }
}

/// Reference and offset sizes at their boundaries, where writers most often go wrong.
struct BinarySizeBoundaryTests {
  @Test(
    "Foundation reads our files at every size boundary",
    arguments: [14, 15, 254, 255, 256, 257, 65_534, 65_535, 65_536])
  func boundaries(count: Int) throws {
    let value = PropertyListValue.array((0..<count).map { .string("s\($0)") })
    for options in [PropertyListWriteOptions(), .init(compactBinaryReals: true)] {
      let bytes = try value.encoded(as: .binary1, options: options)
      let object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
      #expect(try FoundationDifferentialTests.value(object) == value)
      #expect(try PropertyListValue(bytes: bytes) == value)
    }
  }
}
