import BundleKitPropertyListCore
import BundleKitTestSupport
import Foundation
import Testing

/// The base64 of `<data>` elements, against Foundation's decoder: the same bytes for every
/// length and padding, white space anywhere, and the offset of the first bad character.
struct Base64Tests {
  @Test("base64: decodes what Foundation decodes, white space anywhere; a bad byte fails at it")
  func againstFoundation() throws {
    let seed = SeededGenerator.seed("Base64Tests.againstFoundation")
    var generator = SeededGenerator(seed: seed)
    let spaces: [UInt8] = Array(" \t\n\r".utf8)
    for round in 0..<2_000 {
      let length = Int(generator.next() % (round < 100 ? 8 : 300))
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      let encoded = Data(bytes).base64EncodedString(
        options: round % 3 == 0 ? [.lineLength64Characters, .endLineWithLineFeed] : [])
      var text = Array(encoded.utf8)
      // Foundation reads line breaks only; property lists take any white space anywhere.
      #expect(
        Array(Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) ?? Data()) == bytes)
      for _ in 0..<Int(generator.next() % 4) {
        let at = Int(generator.next() % UInt64(text.count + 1))
        text.insert(spaces[Int(generator.next() % 4)], at: at)
      }
      let decoded = Base64.decode(text)
      #expect(try decoded.get() == bytes, "round \(round) (seed \(seed)): \(encoded)")
      // The same through the generic road (a collection without contiguous storage).
      #expect(try Base64.decode(text.lazy.map { $0 }).get() == bytes, "round \(round)")
      // A character outside the alphabet fails at its offset.
      guard !text.isEmpty else { continue }
      let at = Int(generator.next() % UInt64(text.count))
      var damaged = text
      damaged[at] = [UInt8(ascii: "*"), UInt8(ascii: "-"), 0xC3, 0][Int(generator.next() % 4)]
      let firstBad = damaged.firstIndex { byte in
        !(spaces.contains(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+")
          || byte == UInt8(ascii: "/") || (0x30...0x39).contains(byte)
          || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte))
      }
      switch Base64.decode(damaged) {
      case .success: Issue.record("round \(round) (seed \(seed)): damaged text decoded")
      case .failure(let error):
        // An earlier stray `=` (none here: damage puts no `=`) would fail first.
        #expect(error.offset <= (firstBad ?? damaged.count), "round \(round) (seed \(seed))")
      }
    }
  }

  @Test(
    "base64: padding and group edges",
    arguments: [
      ("", [UInt8]()), ("QQ==", [0x41]), ("QUI=", [0x41, 0x42]), ("QUJD", [0x41, 0x42, 0x43]),
      ("QQ", [0x41]), ("QUI", [0x41, 0x42]), (" Q U J D ", [0x41, 0x42, 0x43]),
    ])
  func edges(text: String, bytes: [UInt8]) throws {
    #expect(try Base64.decode(Array(text.utf8)).get() == bytes, "\(text)")
  }

  @Test(
    "base64: a lone character, three pads or text after a pad is refused where it is",
    arguments: [("Q", 1), ("QQ===", 4), ("QQ==QQ==", 4), ("QU*D", 2)])
  func refused(text: String, offset: Int) {
    switch Base64.decode(Array(text.utf8)) {
    case .success(let bytes): Issue.record("\(text) decoded to \(bytes)")
    case .failure(let error): #expect(error.offset == offset, "\(text)")
    }
  }
}
