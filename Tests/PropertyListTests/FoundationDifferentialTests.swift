import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Foundation's PropertyListSerialization as an independent implementation, in process.
struct FoundationDifferentialTests {
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
      let seen = try FoundationBridge.value(object)
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
        fromPropertyList: FoundationBridge.object(value), format: format == .xml1 ? .xml : .binary,
        options: 0)
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
      #expect(try FoundationBridge.value(object) == value)
      #expect(try PropertyListValue(bytes: bytes) == value)
    }
  }
}
