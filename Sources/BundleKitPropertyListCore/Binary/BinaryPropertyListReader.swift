import Foundation
import OrderedCollections

/// Limits that keep a hostile binary plist from exhausting the stack, memory or time.
public struct BinaryReadingLimits: Sendable {
  /// The deepest nesting of arrays and dictionaries accepted.
  public var maximumDepth: Int = Nesting.maximumDepth
  /// The most values the object graph may expand to. Objects may be referenced more than
  /// once, so a small file can describe an enormous tree ("billion laughs"); this caps it.
  public var maximumExpandedValues: Int = 50_000_000

  /// The default limits.
  public init() {}
}

/// Reads `bplist00` files.
///
/// Works on the raw bytes: every offset, count and reference is checked against the file's
/// bounds before it is followed, references that form a cycle are refused, and each object is
/// decoded once and shared (copy-on-write) wherever it is referenced again.
struct BinaryPropertyListReader {
  private let bytes: UnsafeRawBufferPointer
  private let limits: BinaryReadingLimits
  private var offsetSize = 0
  private var referenceSize = 0
  private var objectCount = 0
  private var offsetTableStart = 0
  /// Objects live in `8 ..< objectAreaEnd`.
  private var objectAreaEnd = 0
  /// Arrays and dictionaries already decoded, with the number of values each expands to.
  /// A collection referenced again is shared (copy-on-write), not decoded again. Scalars are
  /// cheap to decode and are not cached.
  private var collections: [Int: (value: PropertyListValue, size: Int)] = [:]
  /// Collections being decoded, to refuse reference cycles.
  private var inProgress: [Bool] = []

  static func read(
    _ bytes: UnsafeRawBufferPointer, limits: BinaryReadingLimits = BinaryReadingLimits()
  ) throws(PropertyListError) -> PropertyListValue {
    var reader = BinaryPropertyListReader(bytes: bytes, limits: limits)
    let top = try reader.readTrailer()
    return try reader.object(top, depth: 0).0
  }

  private init(bytes: UnsafeRawBufferPointer, limits: BinaryReadingLimits) {
    self.bytes = bytes
    self.limits = limits
  }

  private func fail(_ offset: Int, _ message: String) -> PropertyListError {
    .corruptBinary(path: nil, offset: offset, message: message)
  }

  // MARK: Trailer

  private mutating func readTrailer() throws(PropertyListError) -> Int {
    let headerSize = 8
    let trailerSize = 32
    guard bytes.count >= headerSize + trailerSize + 1 else {
      throw fail(bytes.count, "file too short for a binary property list (\(bytes.count) bytes)")
    }
    guard bytes.starts(with: "bplist".utf8) else { throw fail(0, "missing bplist magic number") }
    guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
      let version = String(decoding: bytes[6..<8], as: UTF8.self)
      throw fail(6, "unsupported binary property list version '\(version)'")
    }
    let trailer = bytes.count - trailerSize
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize) else {
      throw fail(trailer + 6, "offset size \(offsetSize) is not between 1 and 8")
    }
    guard (1...8).contains(referenceSize) else {
      throw fail(trailer + 7, "object reference size \(referenceSize) is not between 1 and 8")
    }
    let count = readUInt(at: trailer + 8, size: 8)
    let top = readUInt(at: trailer + 16, size: 8)
    let tableOffset = readUInt(at: trailer + 24, size: 8)
    guard count >= 1, count <= UInt64(bytes.count) else {
      throw fail(trailer + 8, "object count \(count) does not fit in a \(bytes.count)-byte file")
    }
    guard top < count else {
      throw fail(trailer + 16, "top object \(top) is not below the object count \(count)")
    }
    guard tableOffset >= UInt64(headerSize + 1), tableOffset < UInt64(trailer) else {
      throw fail(trailer + 24, "offset table offset \(tableOffset) is outside the file")
    }
    objectCount = Int(count)
    offsetTableStart = Int(tableOffset)
    let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
    guard !overflow, offsetTableStart + tableSize <= trailer else {
      throw fail(
        offsetTableStart, "offset table of \(objectCount) entries runs past the trailer")
    }
    // Objects normally precede the offset table; some writers put them after it.
    objectAreaEnd = trailer
    inProgress = Array(repeating: false, count: objectCount)
    return Int(top)
  }

  // MARK: Primitive reads

  @inline(__always)
  private func readUInt(at offset: Int, size: Int) -> UInt64 {
    switch size {
    case 1: return UInt64(bytes[offset])
    case 2:
      return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    case 4:
      return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    default:
      var value: UInt64 = 0
      for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
      return value
    }
  }

  private func offsetOfObject(_ index: Int) throws(PropertyListError) -> Int {
    let entry = offsetTableStart + index * offsetSize
    let offset = readUInt(at: entry, size: offsetSize)
    guard offset >= 8, offset < UInt64(objectAreaEnd) else {
      throw fail(entry, "object \(index) has offset \(offset), outside the object area")
    }
    return Int(offset)
  }

  /// Checks that `count` items of `size` bytes starting at `start` lie inside the object area.
  private func checkSpan(_ start: Int, count: Int, size: Int, what: String)
    throws(PropertyListError)
  {
    let (length, overflow) = count.multipliedReportingOverflow(by: size)
    guard !overflow, start <= objectAreaEnd, length <= objectAreaEnd - start else {
      throw fail(start, "\(what) of \(count) items runs past the end of the object area")
    }
  }

  /// Reads the count in a marker's low nibble, or the integer object that follows it.
  /// Returns the count and the offset of the payload.
  private func count(at offset: Int, nibble: UInt8) throws(PropertyListError) -> (Int, Int) {
    if nibble != 0x0F { return (Int(nibble), offset + 1) }
    let intOffset = offset + 1
    guard intOffset < objectAreaEnd else { throw fail(intOffset, "missing length after marker") }
    let marker = bytes[intOffset]
    guard marker & 0xF0 == 0x10, marker & 0x0F <= 3 else {
      throw fail(intOffset, "length is not an integer (marker 0x\(hex(marker)))")
    }
    let size = 1 << Int(marker & 0x0F)
    guard intOffset + 1 + size <= objectAreaEnd else {
      throw fail(intOffset, "length runs past the end of the object area")
    }
    let value = readUInt(at: intOffset + 1, size: size)
    guard value <= UInt64(Int32.max) * 16, value <= UInt64(bytes.count) else {
      throw fail(intOffset, "length \(value) is larger than the file")
    }
    return (Int(value), intOffset + 1 + size)
  }

  // MARK: Objects

  /// The value of object `index`, and the number of values it expands to.
  private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> (
    PropertyListValue, Int
  ) {
    let offset = try offsetOfObject(index)
    let marker = bytes[offset]
    let nibble = marker & 0x0F
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return (.bool(false), 1)
      case 0x09: return (.bool(true), 1)
      default: throw fail(offset, "unsupported object marker 0x\(hex(marker))")
      }
    case 0x1:
      return (.integer(try integer(at: offset, nibble: nibble)), 1)
    case 0x2:
      return (.real(try real(at: offset, nibble: nibble)), 1)
    case 0x3:
      guard marker == 0x33 else {
        throw fail(offset, "date must be 8 bytes (marker 0x\(hex(marker)))")
      }
      guard offset + 9 <= objectAreaEnd else { throw fail(offset, "date runs past the end") }
      let seconds = Double(bitPattern: readUInt(at: offset + 1, size: 8))
      return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1)
    case 0x4:
      let (length, start) = try count(at: offset, nibble: nibble)
      try checkSpan(start, count: length, size: 1, what: "data")
      return (.data(Data(UnsafeRawBufferPointer(rebasing: bytes[start..<start + length]))), 1)
    case 0x5:
      let (length, start) = try count(at: offset, nibble: nibble)
      try checkSpan(start, count: length, size: 1, what: "ASCII string")
      return (.string(try asciiString(start, length)), 1)
    case 0x6:
      let (length, start) = try count(at: offset, nibble: nibble)
      try checkSpan(start, count: length, size: 2, what: "UTF-16 string")
      return (.string(utf16String(start, length)), 1)
    case 0x7:
      // UTF-8 strings appear in later revisions of the format; read them too.
      let (length, start) = try count(at: offset, nibble: nibble)
      try checkSpan(start, count: length, size: 1, what: "UTF-8 string")
      let utf8 = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
      return (.string(String(decoding: utf8, as: UTF8.self)), 1)
    case 0x8:
      let length = Int(nibble) + 1
      guard length <= 8 else { throw fail(offset, "UID of \(length) bytes is too large") }
      guard offset + 1 + length <= objectAreaEnd else {
        throw fail(offset, "UID runs past the end")
      }
      return (.uid(readUInt(at: offset + 1, size: length)), 1)
    case 0xA, 0xB, 0xC, 0xD:
      if let cached = collections[index] { return cached }
      guard !inProgress[index] else {
        throw fail(offset, "object \(index) contains itself (reference cycle)")
      }
      guard depth < limits.maximumDepth else {
        throw fail(offset, "nesting deeper than \(limits.maximumDepth) levels")
      }
      inProgress[index] = true
      let result =
        marker >> 4 == 0xD
        ? try dictionary(at: offset, nibble: nibble, depth: depth)
        : try array(at: offset, nibble: nibble, depth: depth)
      inProgress[index] = false
      collections[index] = result
      return result
    default:
      throw fail(offset, "unsupported object marker 0x\(hex(marker))")
    }
  }

  private mutating func array(at offset: Int, nibble: UInt8, depth: Int) throws(PropertyListError)
    -> (PropertyListValue, Int)
  {
    let (length, start) = try count(at: offset, nibble: nibble)
    try checkSpan(start, count: length, size: referenceSize, what: "array")
    var items: [PropertyListValue] = []
    items.reserveCapacity(length)
    var size = 1
    for item in 0..<length {
      let (value, childSize) = try object(
        try reference(at: start + item * referenceSize), depth: depth + 1)
      items.append(value)
      size = try grow(size, by: childSize, at: offset)
    }
    return (.array(items), size)
  }

  private mutating func dictionary(at offset: Int, nibble: UInt8, depth: Int)
    throws(PropertyListError) -> (PropertyListValue, Int)
  {
    let (length, start) = try count(at: offset, nibble: nibble)
    try checkSpan(start, count: length * 2, size: referenceSize, what: "dictionary")
    var dictionary = PropertyListDictionary(minimumCapacity: length)
    let valuesStart = start + length * referenceSize
    var size = 1
    for item in 0..<length {
      let keyIndex = try reference(at: start + item * referenceSize)
      let (key, _) = try object(keyIndex, depth: depth + 1)
      guard case .string(let keyString) = key else {
        throw fail(
          start + item * referenceSize,
          "dictionary key \(item) refers to a \(key.typeName) (object \(keyIndex)); keys must be strings"
        )
      }
      let (value, childSize) = try object(
        try reference(at: valuesStart + item * referenceSize), depth: depth + 1)
      dictionary[keyString] = value
      size = try grow(size, by: childSize + 1, at: offset)
    }
    return (.dictionary(dictionary), size)
  }

  @inline(__always)
  private func reference(at offset: Int) throws(PropertyListError) -> Int {
    let reference = readUInt(at: offset, size: referenceSize)
    guard reference < UInt64(objectCount) else {
      throw fail(offset, "reference \(reference) is not below the object count \(objectCount)")
    }
    return Int(reference)
  }

  private func grow(_ size: Int, by child: Int, at offset: Int) throws(PropertyListError) -> Int {
    let total = size + child
    guard total <= limits.maximumExpandedValues else {
      throw fail(
        offset,
        "shared references expand to more than \(limits.maximumExpandedValues) values")
    }
    return total
  }

  private func integer(at offset: Int, nibble: UInt8) throws(PropertyListError)
    -> PropertyListInteger
  {
    guard nibble <= 4 else { throw fail(offset, "integer of 2^\(nibble) bytes is not supported") }
    let size = 1 << Int(nibble)
    guard offset + 1 + size <= objectAreaEnd else {
      throw fail(offset, "integer runs past the end")
    }
    switch size {
    case 1, 2, 4:
      return PropertyListInteger(readUInt(at: offset + 1, size: size))
    case 8:
      return PropertyListInteger(Int64(bitPattern: readUInt(at: offset + 1, size: 8)))
    default:
      // 16 bytes: CoreFoundation writes values above Int64.max with a zero high half.
      let high = readUInt(at: offset + 1, size: 8)
      let low = readUInt(at: offset + 9, size: 8)
      if high == 0 { return PropertyListInteger(low) }
      if high == UInt64.max, low >> 63 == 1 { return PropertyListInteger(Int64(bitPattern: low)) }
      throw fail(offset, "128-bit integer does not fit in 64 bits")
    }
  }

  private func real(at offset: Int, nibble: UInt8) throws(PropertyListError) -> Double {
    switch nibble {
    case 2:
      guard offset + 5 <= objectAreaEnd else { throw fail(offset, "real runs past the end") }
      return Double(Float(bitPattern: UInt32(readUInt(at: offset + 1, size: 4))))
    case 3:
      guard offset + 9 <= objectAreaEnd else { throw fail(offset, "real runs past the end") }
      return Double(bitPattern: readUInt(at: offset + 1, size: 8))
    default:
      throw fail(offset, "real of 2^\(nibble) bytes is not supported")
    }
  }

  private func asciiString(_ start: Int, _ length: Int) throws(PropertyListError) -> String {
    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
    var high: UInt8 = 0
    for byte in slice { high |= byte }
    if high & 0x80 != 0 {
      let bad = slice.firstIndex { $0 & 0x80 != 0 } ?? 0
      throw fail(start + bad, "ASCII string contains the non-ASCII byte 0x\(hex(slice[bad]))")
    }
    return String(decoding: slice, as: UTF8.self)
  }

  /// Transcodes big-endian UTF-16 straight into a string's UTF-8 storage; lone surrogates
  /// become U+FFFD.
  private func utf16String(_ start: Int, _ length: Int) -> String {
    String(unsafeUninitializedCapacity: length * 3) { output in
      var written = 0
      var index = 0
      @inline(__always) func unit(_ index: Int) -> UInt32 {
        UInt32(
          UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: start + 2 * index, as: UInt16.self))
        )
      }
      while index < length {
        var scalar = unit(index)
        index += 1
        if scalar < 0x80 {
          output[written] = UInt8(truncatingIfNeeded: scalar)
          written += 1
          continue
        }
        if scalar < 0x800 {
          output[written] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
          output[written + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
          written += 2
          continue
        }
        if scalar & 0xF800 == 0xD800 {
          if scalar < 0xDC00, index < length, unit(index) & 0xFC00 == 0xDC00 {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(index) - 0xDC00)
            index += 1
            output[written] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            output[written + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            output[written + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[written + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            written += 4
            continue
          }
          scalar = 0xFFFD
        }
        output[written] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
        output[written + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
        output[written + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        written += 3
      }
      return written
    }
  }
}

func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789abcdef")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
