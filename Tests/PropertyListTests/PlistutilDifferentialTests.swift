import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// libplist's plistutil as an independent implementation; also the size bar for our binary
/// writer.
@Suite(.enabled(if: Tool.path("plistutil") != nil, "plistutil (libplist-utils) is not installed"))
struct PlistutilDifferentialTests {
  func plistutil(_ input: String, _ output: String, _ format: String) throws {
    let result = try Tool.run(
      Tool.path("plistutil") ?? "plistutil", ["-i", input, "-o", output, "-f", format])
    #expect(result.status == 0, "plistutil: \(result.stderr)")
  }

  @Test("plistutil converts what we write, and we read what it writes back")
  func bothWays() throws {
    let seed = SeededGenerator.seed("plistutil bothWays")
    var random = RandomValues(seed: seed)
    random.includeInfinity = false
    let folder = try TemporaryFolder()
    for round in 0..<30 {
      random.includeUIDs = round % 3 == 0
      let value = random.document()
      let ourBinary = folder.file("ours-\(round).bplist")
      let ourXML = folder.file("ours-\(round).plist")
      try FileIO.writeAtomically(try value.encoded(as: .binary1), to: ourBinary)
      let theirXML = folder.file("theirs-\(round).plist")
      try plistutil(ourBinary, theirXML, "xml")
      #expect(
        try PropertyListDocument(contentsOfFile: theirXML).value == value,
        "seed \(seed) round \(round) bin->xml")
      guard !random.includeUIDs else { continue }
      try FileIO.writeAtomically(try value.encoded(as: .xml1), to: ourXML)
      let theirBinary = folder.file("theirs-\(round).bplist")
      try plistutil(ourXML, theirBinary, "bin")
      #expect(
        try PropertyListDocument(contentsOfFile: theirBinary).value == value,
        "seed \(seed) round \(round) xml->bin")
      // Our binary output is never larger than libplist's for the same value (libplist
      // stores reals in 4 bytes when it can; so do we when asked).
      let ours = try value.encoded(as: .binary1, options: .init(compactBinaryReals: true)).count
      let theirs = try FileIO.read(theirBinary).count
      #expect(ours <= theirs, "seed \(seed) round \(round): \(ours) > \(theirs) bytes")
    }
  }

  @Test("a large dictionary (over 65,536 objects) is no larger than plistutil's")
  func largeSize() throws {
    var dictionary = PropertyListDictionary()
    for index in 0..<40_000 {
      dictionary["key-\(index)"] = index % 3 == 0 ? .int(index) : .string("value \(index)")
    }
    let value = PropertyListValue.dictionary(dictionary)
    let folder = try TemporaryFolder()
    try FileIO.writeAtomically(try value.encoded(as: .xml1), to: folder.file("in.plist"))
    try plistutil(folder.file("in.plist"), folder.file("theirs.bplist"), "bin")
    let ours = try value.encoded(as: .binary1)
    let theirs = try FileIO.read(folder.file("theirs.bplist"))
    #expect(ours.count <= theirs.count)
    #expect(try PropertyListValue(bytes: theirs) == value)
  }
}
