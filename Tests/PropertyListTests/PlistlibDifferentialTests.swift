import BundleKitTestSupport
import Foundation
import PropertyList
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
}
