import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Binary plists crafted by hand: every size the format allows, and hostile files that must
/// give an error naming a byte offset, never a crash, a hang or a huge allocation.
struct BinaryFormatTests {
  /// Assembles a bplist00 file from encoded objects.
  static func bplist(
    _ objects: [[UInt8]], top: UInt64 = 0, offsetSize: Int = 1, referenceSize: Int = 1,
    count: UInt64? = nil, tableOffset: UInt64? = nil
  ) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += bigEndian(UInt64(offset), offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    bytes += bigEndian(count ?? UInt64(objects.count), 8)
    bytes += bigEndian(top, 8)
    bytes += bigEndian(tableOffset ?? UInt64(table), 8)
    return bytes
  }

  static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
  }

  func read(_ bytes: [UInt8]) throws -> PropertyListValue {
    try PropertyListValue(bytes: bytes, format: .binary1)
  }

  func expectError(
    _ bytes: [UInt8], containing text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try read(bytes)
      Issue.record(
        "expected an error containing '\(text)', read \(value)", sourceLocation: sourceLocation)
    } catch {
      #expect("\(error)".contains(text), "\(error)", sourceLocation: sourceLocation)
      #expect("\(error)".contains("byte offset"), sourceLocation: sourceLocation)
    }
  }

  @Test("integers of 1, 2, 4, 8 and 16 bytes, reals of 4 and 8, ASCII and UTF-16 strings, sets")
  func everyEncoding() throws {
    #expect(try read(Self.bplist([[0x10, 0xFF]])) == .int(255))
    #expect(try read(Self.bplist([[0x11, 0x01, 0x00]])) == .int(256))
    #expect(try read(Self.bplist([[0x12, 0xFF, 0xFF, 0xFF, 0xFF]])) == .int(UInt32.max))
    #expect(try read(Self.bplist([[0x13] + Self.bigEndian(UInt64(bitPattern: -2), 8)])) == .int(-2))
    #expect(
      try read(Self.bplist([[0x14] + Self.bigEndian(0, 8) + Self.bigEndian(UInt64.max, 8)]))
        == .integer(PropertyListInteger(UInt64.max)))
    #expect(
      try read(
        Self.bplist([
          [0x14] + Self.bigEndian(UInt64.max, 8) + Self.bigEndian(UInt64(bitPattern: -5), 8)
        ]))
        == .int(-5))
    #expect(
      try read(Self.bplist([[0x22] + Self.bigEndian(UInt64(Float(1.5).bitPattern), 4)]))
        == .real(1.5))
    #expect(try read(Self.bplist([[0x23] + Self.bigEndian((-0.5).bitPattern, 8)])) == .real(-0.5))
    #expect(try read(Self.bplist([[0x53] + Array("abc".utf8)])) == "abc")
    #expect(try read(Self.bplist([[0x62, 0xD8, 0x3D, 0xDE, 0x00]])) == "😀")
    #expect(try read(Self.bplist([[0x61, 0xD8, 0x3D]])) == "\u{FFFD}")  // lone surrogate
    #expect(try read(Self.bplist([[0xC2, 1, 2], [0x08], [0x09]])) == [false, true])
    #expect(try read(Self.bplist([[0x81, 0x01, 0x00]])) == .uid(256))
    let long = String(repeating: "x", count: 300)
    #expect(try read(Self.bplist([[0x5F, 0x11, 0x01, 0x2C] + Array(long.utf8)])) == .string(long))
  }

  @Test("offset and reference sizes 1 to 8 bytes")
  func sizes() throws {
    for offsetSize in 1...8 {
      for referenceSize in 1...8 {
        let file = Self.bplist(
          [
            [0xA2] + Self.bigEndian(1, referenceSize) + Self.bigEndian(2, referenceSize),
            [0x51, 0x61], [0x10, 7],
          ],
          offsetSize: offsetSize, referenceSize: referenceSize)
        #expect(try read(file) == ["a", 7], "offset \(offsetSize) reference \(referenceSize)")
      }
    }
  }

  @Test("hostile files: errors with byte offsets")
  func hostile() {
    expectError(Array("bplist00".utf8) + [0x08], containing: "too short")
    expectError(Self.bplist([[0x08]], offsetSize: 0), containing: "offset size 0")
    expectError(Self.bplist([[0x08]], referenceSize: 9), containing: "reference size 9")
    expectError(Self.bplist([[0x08]], top: 1), containing: "top object 1")
    expectError(Self.bplist([[0x08]], count: UInt64.max), containing: "object count")
    expectError(Self.bplist([[0x08]], count: 1_000_000), containing: "object count")
    expectError(Self.bplist([[0x08]], tableOffset: 3), containing: "offset table offset 3")
    expectError(Self.bplist([[0x08]], tableOffset: UInt64.max), containing: "offset table offset")
    // A reference past the object count, and an object that refers to itself.
    expectError(Self.bplist([[0xA1, 5]]), containing: "reference 5")
    expectError(Self.bplist([[0xA1, 0]]), containing: "reference cycle")
    expectError(
      Self.bplist([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]]), containing: "reference cycle")
    // Counts and lengths beyond the file.
    expectError(Self.bplist([[0x5F, 0x13] + Self.bigEndian(UInt64.max, 8)]), containing: "length")
    expectError(
      Self.bplist([[0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]]),
      containing: "length 2147483647 is larger than the file")
    expectError(
      Self.bplist([[0x4F, 0x10, 0xFF, 0x00]]), containing: "length 255 is larger than the file")
    expectError(Self.bplist([[0x13, 0x00]]), containing: "integer runs past")
    expectError(
      Self.bplist([[0x14] + Self.bigEndian(1, 8) + Self.bigEndian(0, 8)]), containing: "128-bit")
    expectError(
      Self.bplist([[0x55, 0x41, 0xFF, 0x41, 0x41, 0x41]]), containing: "non-ASCII byte 0xff")
    expectError(
      Self.bplist([[0xD1, 1, 2], [0x10, 1], [0x10, 2]]), containing: "keys must be strings")
    expectError(Self.bplist([[0x00]]), containing: "unsupported object marker 0x00")
    expectError(Self.bplist([[0x75, 0x41]]) + [], containing: "UTF-8 string of 5 items")
    // An offset that points into the header.
    var bad = Self.bplist([[0x08]])
    bad[9] = 2
    expectError(bad, containing: "outside the object area")
  }

  @Test("deep nesting is refused before the stack runs out")
  func depth() {
    var objects: [[UInt8]] = []
    let depth = 2_000
    for index in 0..<depth {
      objects.append([0xA1] + Self.bigEndian(UInt64(index + 1), 2))
    }
    objects.append([0x08])
    expectError(
      Self.bplist(objects, offsetSize: 2, referenceSize: 2), containing: "nesting deeper than 512")
  }

  @Test("shared references that expand enormously (billion laughs) are refused quickly")
  func billionLaughs() {
    // Object i is an array holding object i+1 twice: 2^60 values from 61 objects.
    var objects: [[UInt8]] = []
    for index in 0..<60 {
      objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)])
    }
    objects.append([0x08])
    expectError(Self.bplist(objects), containing: "expand to more than")
  }

  @Test("random corruption of valid files never crashes or hangs")
  func mutations() throws {
    let seed = SeededGenerator.seed("binary mutations")
    var generator = SeededGenerator(seed: seed)
    var random = RandomValues(seed: seed)
    random.includeUIDs = true
    var errors = 0
    for _ in 0..<300 {
      let original = try random.document().encoded(as: .binary1)
      for _ in 0..<10 {
        var mutated = original
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          let index = Int.random(in: 0..<mutated.count, using: &generator)
          mutated[index] = UInt8.random(in: 0...255, using: &generator)
        }
        if Bool.random(using: &generator) {
          mutated.removeLast(Int.random(in: 0..<min(40, mutated.count), using: &generator))
        }
        do {
          let value = try read(mutated)
          // Whatever reads must write back and read again to the same value.
          #expect(try read(value.encoded(as: .binary1)) == value, "seed \(seed)")
        } catch {
          errors += 1
          #expect("\(error)".contains("error: "))
        }
      }
    }
    #expect(errors > 0)
  }

  @Test("writer: uniquing, smallest sizes, strings by exact code units")
  func writer() throws {
    // "é" precomposed and decomposed are canonically equal in Swift, distinct in a plist.
    let value: PropertyListValue = [
      "\u{E9}", "e\u{301}", "\u{E9}", .int(1), .int(1), .bool(true), .int(1),
    ]
    let bytes = try value.encoded(as: .binary1)
    let back = try read(bytes)
    guard case .array(let items) = back else {
      Issue.record("not an array")
      return
    }
    #expect(items[0].stringValue.map { Array($0.unicodeScalars) } == ["\u{E9}"])
    #expect(items[1].stringValue.map { Array($0.unicodeScalars) } == ["e", "\u{301}"])
    // array, "é", "é" decomposed, 1, true: five objects.
    let trailer = bytes.suffix(32)
    #expect(trailer[trailer.startIndex + 15] == 5)
    // 4-byte reals on request, read back exactly.
    let reals: PropertyListValue = [.real(0.5), .real(0.1), .real(-2.25)]
    let compact = try reals.encoded(as: .binary1, options: .init(compactBinaryReals: true))
    #expect(compact.count < (try reals.encoded(as: .binary1)).count)
    #expect(try read(compact) == reals)
  }
}
