import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitPropertyList

/// The plain-XML road against libxml2's: wherever the plain reader answers, libxml2 reads the
/// same document to the same bytes; wherever it hesitates, it answers nil and libxml2 decides.
/// Each check also runs the plain road that converts to binary without a tree.
struct PlainXMLReaderTests {
  /// The value read by each road, as binary bytes (exact strings, not canonical equality):
  /// nil for a road that does not read it.
  static func roads(_ text: [UInt8]) -> (plain: [UInt8]?, libxml2: [UInt8]?) {
    text.withUnsafeBytes { bytes in
      let tree = PlainXMLPropertyListReader.read(bytes)
      let plain = tree.flatMap { try? $0.encoded(as: .binary1) }
      // The road that builds no tree writes the same bytes, and takes the same documents.
      #expect(PlainXMLPropertyListReader.binary(bytes) == plain)
      let compact = tree.flatMap {
        try? $0.encoded(as: .binary1, options: PropertyListWriteOptions(compactBinaryReals: true))
      }
      #expect(PlainXMLPropertyListReader.binary(bytes, compactReals: true) == compact)
      let libxml2 = (try? XMLPropertyListReader.read(bytes, plainFirst: false)).flatMap {
        try? $0.encoded(as: .binary1)
      }
      return (plain, libxml2)
    }
  }

  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

    """

  @Test(
    "plain documents: read on the fast road, to libxml2's value",
    arguments: [
      header
        + "<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleVersion</key>\n\t<string>42</string>\n\t<key>n</key><integer> -7 </integer>\n\t<key>r</key><real>2.5</real>\n\t<key>t</key><true/>\n\t<key>f</key><false></false>\n\t<key>d</key><date>2024-01-02T03:04:05Z</date>\n\t<key>b</key><data>\n\tAAEC\n\t</data>\n\t<key>a</key><array><string/><dict/><array/></array>\n</dict>\n</plist>\n",
      "<plist><string>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233; &#x1F600; ]] ></string></plist>",
      "\u{FEFF}<?xml version='1.0' encoding='utf-8' ?><!-- a --><plist version=\"1.0\"><!-- b --><array><!-- c --><integer>0x1F</integer></array></plist><!-- d -->\n",
      "<plist><dict><key>CF$UID</key><integer>7</integer></dict></plist>",
      "<plist><dict><key>k</key><string>1</string><key>k</key><string>2</string></dict></plist>",
      "<dict><key>Grüße</key><string>日本語 🙂</string></dict>",
      "<plist ><string >x</string ></plist >",
      "<plist><string>a\nb\tc&#13;</string></plist>",
      // Objects stored once, keys shared with values, repeated keys around containers.
      "<plist><dict><key>a</key><string>a</string><key>b</key><array><string>a</string><integer>1</integer><real>1</real><integer>1</integer><true/><true/></array><key>a</key><dict><key>b</key><string>é</string></dict><key>c</key><string>é</string></dict></plist>",
      "<plist><dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict></plist>",
      "<plist><array><dict><key>CF$UID</key><integer>-1</integer></dict><dict><key>CF$UID</key><integer>3</integer><key>x</key><true/></dict><dict><key>CF$UID</key><string>3</string></dict></array></plist>",
      "<plist><array><integer>18446744073709551615</integer><integer>-9223372036854775808</integer><integer>65536</integer><real>0.1</real><real>0.5</real><real>nan</real><date>2001-01-01T00:00:00Z</date><data></data><data>AAEC</data><string></string><string>𝄞 a</string></array></plist>",
      "<plist><array>" + String(repeating: "<integer>7</integer><string>s</string>", count: 20)
        + "</array></plist>",
    ])
  func plain(text: String) {
    let (plain, libxml2) = Self.roads(Array(text.utf8))
    #expect(plain != nil, "not read on the plain road: \(text)")
    #expect(libxml2 != nil, "libxml2 refused: \(text)")
    #expect(plain == libxml2, "\(text)")
  }

  @Test(
    "anything else goes to libxml2: other encodings, CDATA, carriage returns, markup in values, every error",
    arguments: [
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>a</string></plist>",
      "<plist><string><![CDATA[a]]></string></plist>",
      "<plist><string>a\r\nb</string></plist>",
      "<plist><string>a<!-- c -->b</string></plist>",
      "<plist><string>a &nbsp; b</string></plist>",
      "<plist><string>&#0;</string></plist>",
      "<plist><key id=\"1\">k</key></plist>",
      "<!DOCTYPE plist [<!ENTITY x \"y\">]><plist><string>&x;</string></plist>",
      "<plist><string>a ]]> b</string></plist>",
      "<!-- a -- b --><plist><true/></plist>",
      "<plist><true/><true/></plist>",
      "<plist><dict><key>k</key></dict></plist>",
      "<plist><dict><string>v</string></dict></plist>",
      "<plist><integer>1.5</integer></plist>",
      "<plist><string>a</plist>",
      "<plist><string>a</string></plist><plist/>",
      "<plist><x:string xmlns:x=\"u\">a</x:string></plist>",
      " <?xml version=\"1.0\"?><plist><true/></plist>",
      "<plist><string>\u{1}</string></plist>",
      "<plist/>",
      "<plist =\"1.0\"><true/></plist>",
    ])
  func notPlain(text: String) {
    let (plain, _) = Self.roads(Array(text.utf8))
    #expect(plain == nil, "\(text)")
  }

  /// Every XML property list of the corpus and of our fixtures.
  static func documents() -> [(String, [UInt8])] {
    var paths: [String] = []
    if Corpus.has("libplist-data") {
      paths += Corpus.files(in: "libplist-data").filter { $0.hasSuffix(".plist") }
    }
    if Corpus.has("cpython-plistlib") {
      paths.append(Corpus.path("cpython-plistlib/apple-generated.plist"))
    }
    let fixtures = Corpus.packageRoot.appendingPathComponent("Tests/PropertyListTests/Fixtures")
    for name in (try? FileManager.default.subpathsOfDirectory(atPath: fixtures.path)) ?? []
    where name.hasSuffix(".plist") || name.hasSuffix(".xml") {
      paths.append(fixtures.appendingPathComponent(name).path)
    }
    return paths.compactMap { path in
      guard let bytes = try? FileIO.read(path), bytes.starts(with: Array("<?xml".utf8)) else {
        return nil
      }
      return (path, bytes)
    }
  }

  @Test("real files: the plain road reads what libxml2 reads, to the same bytes")
  func realFiles() {
    let documents = Self.documents()
    var plainCount = 0
    for (path, bytes) in documents {
      let (plain, libxml2) = Self.roads(bytes)
      if let plain {
        plainCount += 1
        #expect(plain == libxml2, "\(path)")
      }
    }
    // Files written by tools are plain.
    #expect(plainCount * 10 >= documents.count * 7, "\(plainCount) of \(documents.count)")
  }

  @Test("seeded mutations: the plain road never takes a document libxml2 reads otherwise")
  func mutations() throws {
    let seed = SeededGenerator.seed("PlainXMLReaderTests.mutations")
    var generator = SeededGenerator(seed: seed)
    let sample = try PropertyListValue.dictionary([
      "CFBundleName": "App & <Co>", "CFBundleVersion": "42", "n": .int(-3), "r": .real(0.5),
      "t": true, "d": .date(Date(timeIntervalSinceReferenceDate: 12)),
      "b": .data(Data([0, 1, 2, 250])), "a": ["x", ["y": "z"], .array([])],
      "u": "Grüße 日本", "e": "",
    ]).encoded(as: .xml1)
    let bases = [sample] + Self.documents().prefix(20).map(\.1)
    let pieces: [[UInt8]] = [
      "<", ">", "/", "&", ";", "&amp;", "&#", "]]>", "<!--", "-->", "<![CDATA[", "\r", "\u{0}",
      "<key>", "</key>", "<string>", "</string>", "<dict>", "</dict>", "<array/>", "<true/>",
      "\"", "'", "=", " ", "\u{FEFF}", "<?xml version=\"1.0\"?>", "é",
    ].map { Array($0.utf8) }
    var plainReads = 0
    for round in 0..<3000 {
      var bytes = bases[Int(generator.next() % UInt64(bases.count))]
      for _ in 0..<(1 + Int(generator.next() % 3)) where !bytes.isEmpty {
        let at = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 4 {
        case 0: bytes.remove(at: at)
        case 1: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
        case 2:
          bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: at)
        default:
          let end = min(bytes.count, at + Int(generator.next() % 16))
          bytes.removeSubrange(at..<end)
        }
      }
      let (plain, libxml2) = Self.roads(bytes)
      guard let plain else { continue }
      plainReads += 1
      #expect(
        plain == libxml2,
        "round \(round) (seed \(seed)): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
    #expect(plainReads > 100)
  }
}

/// `PropertyListDocument.edit(file:_:)`: the one edit transaction `plist set` and `plist
/// remove` share.
struct DocumentEditTests {
  @Test("an edit lands in the file's own format; a failed edit or a read-only file changes nothing")
  func edit() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("Info.plist")
    try FileIO.writeAtomically(
      try PropertyListValue.dictionary(["CFBundleVersion": "1"]).encoded(as: .binary1), to: path)
    let key = PropertyListKeyPath("CFBundleVersion")
    try PropertyListDocument.edit(file: path) { try $0.value.setValue("2", at: key) }
    let edited = try PropertyListDocument(contentsOfFile: path)
    #expect(edited.format == .binary1)
    #expect(edited.value["CFBundleVersion"] == "2")
    let before = try FileIO.read(path)
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try PropertyListDocument.edit(file: path) { document in
        try document.value.setValue("3", at: key)
        throw Refused()
      }
    }
    #expect(try FileIO.read(path) == before)
    chmod(path, 0o444)
    defer { chmod(path, 0o644) }
    #expect(throws: (any Error).self) {
      try PropertyListDocument.edit(file: path) { try $0.value.setValue("4", at: key) }
    }
    #expect(try FileIO.read(path) == before)
  }
}
