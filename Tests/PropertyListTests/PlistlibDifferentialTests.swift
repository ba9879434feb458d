import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Python's plistlib as an independent implementation: random values written by one side
/// and read by the other, in XML and binary, both ways.
@Suite(.enabled(if: Tool.path("python3") != nil, "python3 is not installed"))
struct PlistlibDifferentialTests {
  static let script = Corpus.packageRoot.appendingPathComponent(
    "Tests/PropertyListTests/Fixtures/plist_oracle.py"
  ).path

  func oracle(_ arguments: [String]) throws -> PropertyListValue {
    let result = try Tool.run(Tool.path("python3") ?? "python3", [Self.script] + arguments)
    #expect(result.status == 0, "plistlib: \(result.stderr)")
    return try PropertyListValue(bytes: Array(result.stdout), format: .json)
  }

  @Test("values we write, plistlib reads identically (XML and binary)")
  func weWritePlistlibReads() throws {
    let seed = SeededGenerator.seed("weWritePlistlibReads")
    let folder = try TemporaryFolder()
    for round in 0..<25 {
      var random = RandomValues(seed: seed &+ UInt64(round))
      random.includeUIDs = round % 2 == 1
      let value = random.document()
      for format in [PropertyListFormat.xml1, .binary1]
      where !(format == .xml1 && random.includeUIDs) {
        let path = folder.file("round-\(round).\(format)")
        try FileIO.writeAtomically(try value.encoded(as: format), to: path)
        let seen = try oracle(["dump", path])
        #expect(seen == value.tagged, "seed \(seed) round \(round) \(format)")
      }
    }
  }

  @Test("values plistlib writes, we read identically (XML and binary, with UIDs)")
  func plistlibWritesWeRead() throws {
    let seed = SeededGenerator.seed("plistlibWritesWeRead")
    let folder = try TemporaryFolder()
    for round in 0..<25 {
      let expected = try oracle(["generate", String(seed &+ UInt64(round)), folder.path])
      guard case .array(let pair) = expected, pair.count == 2 else {
        Issue.record("unexpected oracle output")
        return
      }
      let xml = try PropertyListDocument(contentsOfFile: folder.file("value.xml"))
      let binary = try PropertyListDocument(contentsOfFile: folder.file("value.bin"))
      let withUIDs = try PropertyListDocument(contentsOfFile: folder.file("value-uid.bin"))
      #expect(xml.format == .xml1)
      #expect(binary.format == .binary1)
      #expect(xml.value.tagged == pair[0], "seed \(seed) round \(round) xml")
      #expect(binary.value.tagged == pair[0], "seed \(seed) round \(round) binary")
      #expect(withUIDs.value.tagged == pair[1], "seed \(seed) round \(round) uid")
      // Our binary of plistlib's value is byte-identical to plistlib's own when no size
      // boundary is crossed (plistlib rounds reference sizes up; we do not).
      let ours = try binary.value.encoded(as: .binary1)
      let theirs = try FileIO.read(folder.file("value.bin"))
      #expect(ours.count <= theirs.count)
    }
  }

  @Test("a value large enough for the two-thread binary writer: plistlib and Foundation agree")
  func largeValue() throws {
    let seed = SeededGenerator.seed("largeValue")
    var generator = SeededGenerator(seed: seed)
    var dictionary = PropertyListDictionary()
    let words = ["Cancel", "Réglages", "設定", "Value", "😀 emoji", ""]
    for index in 0..<70_000 {
      let pick = Int(generator.next() % 6)
      let value: PropertyListValue
      switch index % 4 {
      case 0: value = .string(words[pick] + (pick % 2 == 0 ? "" : " \(index)"))
      case 1: value = .integer(PropertyListInteger(Int64(generator.next() % 1000)))
      case 2:
        value = .array([.string(words[pick]), .bool(pick % 2 == 0), .real(Double(index) / 4)])
      default: value = .string(words[pick])
      }
      dictionary["key.\(index)"] = value
    }
    let value = PropertyListValue.dictionary(dictionary)
    let folder = try TemporaryFolder()
    let path = folder.file("large.bplist")
    let bytes = try value.encoded(as: .binary1)
    try FileIO.writeAtomically(bytes, to: path)
    #expect(try oracle(["dump", path]) == value.tagged, "seed \(seed)")
    let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
    #expect(try FoundationBridge.value(foundation).sortedKeys == value.sortedKeys, "seed \(seed)")
    #expect(try PropertyListValue(bytes: bytes) == value)
  }
}
