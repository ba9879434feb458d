import Foundation

/// Writes `bplist00` files the way CoreFoundation does.
///
/// Objects are numbered depth-first (a dictionary's keys before its values), equal scalars
/// (strings, numbers, dates, data, UIDs) are stored once, and integer, reference and offset
/// sizes are the smallest that fit. For the same value the bytes equal those of Apple's
/// writer and of Python's plistlib.
struct BinaryPropertyListWriter {
  /// One object to write: a scalar, or a collection whose references sit in `references`.
  private enum Entry {
    case scalar(PropertyListValue)
    case array(start: Int, count: Int)
    case dictionary(start: Int, count: Int)
  }

  private var entries: [Entry] = []
  private var references: [Int] = []
  /// Open-addressing table of scalar entries for uniquing: entry index + 1, 0 when empty.
  /// Hand-rolled because `Dictionary` re-hashes with a seeded SipHash and compares strings
  /// by canonical equivalence, which would merge differently normalised strings.
  /// Slots hold the entry index + 1 in the low 32 bits and the top of the hash above it, so
  /// most probes are settled without touching the entries.
  private var table: [UInt64] = Array(repeating: 0, count: 1024)
  private var hashes: [UInt64] = []
  private var scalarCount = 0
  private var output: [UInt8] = []
  private var compactReals = false
  /// An upper bound of the object bytes, so the output is allocated once.
  private var estimatedSize = 64

  static func write(_ value: PropertyListValue, compactReals: Bool = false) -> [UInt8] {
    var writer = BinaryPropertyListWriter()
    writer.compactReals = compactReals
    // Size the tables once for the number of values, instead of growing them step by step.
    let count = Self.valueCount(value)
    writer.entries.reserveCapacity(count)
    writer.hashes.reserveCapacity(count)
    var tableSize = 1024
    while tableSize < 2 * count { tableSize *= 2 }
    writer.table = Array(repeating: 0, count: tableSize)
    _ = writer.flatten(value)
    return writer.serialize()
  }

  // MARK: Numbering

  /// The number of values in the tree, keys included: an upper bound of the object count.
  private static func valueCount(_ value: PropertyListValue) -> Int {
    switch value {
    case .array(let items): 1 + items.reduce(0) { $0 + valueCount($1) }
    case .dictionary(let dictionary):
      1 + dictionary.count + dictionary.values.reduce(0) { $0 + valueCount($1) }
    default: 1
    }
  }

  private mutating func flatten(_ value: PropertyListValue) -> Int {
    switch value {
    case .array(let items):
      let index = entries.count
      let start = references.count
      entries.append(.array(start: start, count: items.count))
      estimatedSize += 10 + 8 * items.count
      references.append(contentsOf: repeatElement(0, count: items.count))
      for (offset, item) in items.enumerated() {
        references[start + offset] = flatten(item)
      }
      return index
    case .dictionary(let dictionary):
      let index = entries.count
      let start = references.count
      let count = dictionary.count
      entries.append(.dictionary(start: start, count: count))
      estimatedSize += 10 + 16 * count
      references.append(contentsOf: repeatElement(0, count: 2 * count))
      for (offset, key) in dictionary.keys.enumerated() {
        references[start + offset] = flatten(.string(key))
      }
      for (offset, item) in dictionary.values.enumerated() {
        references[start + count + offset] = flatten(item)
      }
      return index
    default:
      return uniqueIndex(of: value)
    }
  }

  private mutating func uniqueIndex(of value: PropertyListValue) -> Int {
    if (scalarCount + 1) * 2 > table.count { growTable() }
    let hash = Self.hash(value)
    let tag = hash >> 32
    let mask = table.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let occupant = table[slot]
      if occupant == 0 { break }
      if occupant >> 32 == tag {
        let index = Int(occupant & 0xFFFF_FFFF) - 1
        if hashes[index] == hash, case .scalar(let existing) = entries[index],
          Self.identical(existing, value)
        {
          return index
        }
      }
      slot = (slot + 1) & mask
    }
    let index = entries.count
    entries.append(.scalar(value))
    switch value {
    case .string(let string): estimatedSize += 18 + 2 * string.utf8.count
    case .data(let data): estimatedSize += 18 + data.count
    default: estimatedSize += 18
    }
    while hashes.count < index { hashes.append(0) }
    hashes.append(hash)
    table[slot] = tag << 32 | UInt64(index + 1)
    scalarCount += 1
    return index
  }

  private mutating func growTable() {
    var grown = [UInt64](repeating: 0, count: table.count * 2)
    let mask = grown.count - 1
    for occupant in table where occupant != 0 {
      var slot = Int(truncatingIfNeeded: hashes[Int(occupant & 0xFFFF_FFFF) - 1]) & mask
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = occupant
    }
    table = grown
  }

  // MARK: Serialising

  /// Objects past this count are written in two halves on two threads.
  private static let parallelThreshold = 100_000

  private mutating func serialize() -> [UInt8] {
    // CoreFoundation requires the reference size to hold the object count itself.
    let referenceSize = Self.minimalByteCount(for: UInt64(entries.count))
    output.reserveCapacity(estimatedSize + entries.count * 8)
    output.append(contentsOf: "bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(entries.count)
    if entries.count >= Self.parallelThreshold {
      // The second half goes to its own buffer on another thread, then is appended: its
      // offsets move by where it lands. Entries and references are only read.
      let middle = entries.count / 2
      let second = SecondHalf()
      let group = DispatchGroup()
      let writer = self
      group.enter()
      DispatchQueue.global().async {
        var half = writer.chunkWriter()
        second.offsets = half.writeObjects(
          middle..<writer.entries.count, referenceSize: referenceSize)
        second.bytes = half.output
        group.leave()
      }
      offsets = writeObjects(0..<middle, referenceSize: referenceSize)
      group.wait()
      let shift = output.count
      output.append(contentsOf: second.bytes)
      offsets.append(contentsOf: second.offsets.lazy.map { $0 + shift })
    } else {
      offsets = writeObjects(0..<entries.count, referenceSize: referenceSize)
    }
    let tableOffset = output.count
    // ... and the offset size to hold the offset of the offset table, not just the last object.
    let offsetSize = Self.minimalByteCount(for: UInt64(tableOffset))
    for offset in offsets {
      writeBigEndian(UInt64(offset), size: offsetSize)
    }
    output.append(contentsOf: repeatElement(0, count: 6))
    output.append(UInt8(offsetSize))
    output.append(UInt8(referenceSize))
    writeBigEndian(UInt64(entries.count), size: 8)
    writeBigEndian(0, size: 8)
    writeBigEndian(UInt64(tableOffset), size: 8)
    return output
  }

  /// A writer sharing this one's objects, with an empty output of its own.
  private func chunkWriter() -> BinaryPropertyListWriter {
    var writer = BinaryPropertyListWriter()
    writer.entries = entries
    writer.references = references
    writer.compactReals = compactReals
    writer.table = []
    writer.output.reserveCapacity(estimatedSize / 2 + 1024)
    return writer
  }

  /// Writes the objects `range` to the output; their offsets in it.
  private mutating func writeObjects(_ range: Range<Int>, referenceSize: Int) -> [Int] {
    var offsets: [Int] = []
    offsets.reserveCapacity(range.count)
    for index in range {
      offsets.append(output.count)
      switch entries[index] {
      case .scalar(let value):
        writeScalar(value)
      case .array(let start, let count):
        writeMarker(0xA, count: count)
        writeReferences(start..<start + count, size: referenceSize)
      case .dictionary(let start, let count):
        writeMarker(0xD, count: count)
        writeReferences(start..<start + 2 * count, size: referenceSize)
      }
    }
    return offsets
  }

  private mutating func writeScalar(_ value: PropertyListValue) {
    switch value {
    case .bool(let bool):
      output.append(bool ? 0x09 : 0x08)
    case .integer(let integer):
      if integer.isNegative {
        output.append(0x13)
        writeBigEndian(integer.bitPattern, size: 8)
      } else if integer.bitPattern <= UInt64(Int64.max) {
        let size = Self.byteCount(for: integer.bitPattern)
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        writeBigEndian(integer.bitPattern, size: size)
      } else {
        output.append(0x14)
        writeBigEndian(0, size: 8)
        writeBigEndian(integer.bitPattern, size: 8)
      }
    case .real(let real):
      if compactReals, !real.isNaN, Double(Float(real)) == real {
        output.append(0x22)
        writeBigEndian(UInt64(Float(real).bitPattern), size: 4)
      } else {
        output.append(0x23)
        writeBigEndian(real.bitPattern, size: 8)
      }
    case .date(let date):
      output.append(0x33)
      writeBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
    case .data(let data):
      writeMarker(0x4, count: data.count)
      output.append(contentsOf: data)
    case .string(var string):
      // `utf16.count` is O(1) for ASCII strings and equals the UTF-8 length exactly then.
      let units = string.utf16.count
      if units == string.utf8.count {
        writeMarker(0x5, count: units)
        string.withUTF8 { output.append(contentsOf: $0) }
      } else {
        string.withUTF8 { writeUTF16BigEndian($0, units: units) }
      }
    case .uid(let uid):
      let size = Self.byteCount(for: uid)
      output.append(0x80 | UInt8(size - 1))
      writeBigEndian(uid, size: size)
    case .array, .dictionary:
      break  // written by serialize()
    }
  }

  /// Transcodes valid UTF-8 (a Swift string's storage) to a big-endian UTF-16 string object.
  private mutating func writeUTF16BigEndian(_ utf8: UnsafeBufferPointer<UInt8>, units: Int) {
    writeMarker(0x6, count: units)
    // Encode straight into the output's storage.
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: 2 * units))
    output.withUnsafeMutableBufferPointer { buffer in
      var out = start
      var index = 0
      @inline(__always) func put(_ unit: UInt32) {
        buffer[out] = UInt8(truncatingIfNeeded: unit >> 8)
        buffer[out + 1] = UInt8(truncatingIfNeeded: unit)
        out += 2
      }
      while index < utf8.count {
        let lead = UInt32(utf8[index])
        if lead < 0x80 {
          put(lead)
          index += 1
        } else if lead < 0xE0 {
          put((lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F))
          index += 2
        } else if lead < 0xF0 {
          put(
            (lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6
              | UInt32(utf8[index + 2] & 0x3F))
          index += 3
        } else {
          let scalar =
            ((lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
              | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)) - 0x10000
          put(0xD800 + (scalar >> 10))
          put(0xDC00 + (scalar & 0x3FF))
          index += 4
        }
      }
    }
  }

  /// Object references, big-endian, written straight into the output's storage.
  private mutating func writeReferences(_ range: Range<Int>, size: Int) {
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: range.count * size))
    references.withUnsafeBufferPointer { references in
      output.withUnsafeMutableBufferPointer { buffer in
        var out = start
        for index in range {
          let reference = UInt64(references[index])
          var shift = (size - 1) * 8
          while shift >= 0 {
            buffer[out] = UInt8(truncatingIfNeeded: reference >> UInt64(shift))
            out += 1
            shift -= 8
          }
        }
      }
    }
  }

  /// A type nibble with the count inline, or 0xF followed by an integer object.
  private mutating func writeMarker(_ type: UInt8, count: Int) {
    if count < 15 {
      output.append(type << 4 | UInt8(count))
    } else {
      output.append(type << 4 | 0x0F)
      let size = Self.byteCount(for: UInt64(count))
      output.append(0x10 | UInt8(size.trailingZeroBitCount))
      writeBigEndian(UInt64(count), size: size)
    }
  }

  @inline(__always)
  private mutating func writeBigEndian(_ value: UInt64, size: Int) {
    var shift = (size - 1) * 8
    while shift >= 0 {
      output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  /// The fewest bytes, 1 to 8, that hold `value`. References and offsets may take any of
  /// these sizes (CoreFoundation rounds up to a power of two; libplist and we do not, which
  /// saves a byte per reference in files with more than 65,536 objects).
  private static func minimalByteCount(for value: UInt64) -> Int {
    max(1, (64 - value.leadingZeroBitCount + 7) / 8)
  }

  /// 1, 2, 4 or 8: the fewest bytes (a power of two) that hold `value`.
  private static func byteCount(for value: UInt64) -> Int {
    if value < 1 << 8 { return 1 }
    if value < 1 << 16 { return 2 }
    if value < 1 << 32 { return 4 }
    return 8
  }
}

/// What the second half's thread hands back.
private final class SecondHalf: @unchecked Sendable {
  var bytes: [UInt8] = []
  var offsets: [Int] = []
}
