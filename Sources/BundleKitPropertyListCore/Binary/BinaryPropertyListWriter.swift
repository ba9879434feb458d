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
  private var compactReals = false

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
      references.append(contentsOf: repeatElement(0, count: 2 * count))
      // Through the storage of keys and values: no iterator, no copy of each value.
      dictionary.keys.elements.withUnsafeBufferPointer { keys in
        for offset in keys.indices {
          references[start + offset] = flatten(.string(keys[offset]))
        }
      }
      dictionary.values.elements.withUnsafeBufferPointer { values in
        for offset in values.indices {
          references[start + count + offset] = flatten(values[offset])
        }
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

  /// The file: every object's size is known before it is written, so the output is
  /// allocated once at its exact length and each half of the objects is written in place,
  /// the second on another thread; nothing is copied or zero-filled first.
  private func serialize() -> [UInt8] {
    let count = entries.count
    // CoreFoundation requires the reference size to hold the object count itself.
    let referenceSize = Self.minimalByteCount(for: UInt64(count))
    var offsets = [Int](repeating: 0, count: count)
    var position = 8
    for index in 0..<count {
      offsets[index] = position
      position += size(of: entries[index], referenceSize: referenceSize)
    }
    let tableOffset = position
    // ... and the offset size to hold the offset of the offset table, not just the last object.
    let offsetSize = Self.minimalByteCount(for: UInt64(tableOffset))
    let total = tableOffset + offsetSize * count + 32
    return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      var cursor = base
      for byte in "bplist00".utf8 { Self.put(byte, at: &cursor) }
      if count >= Self.parallelThreshold {
        let middle = count / 2
        let second = SendablePointer(pointer: base + offsets[middle])
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { [self] in
          var at = second.pointer
          writeObjects(middle..<count, at: &at, referenceSize: referenceSize)
          group.leave()
        }
        writeObjects(0..<middle, at: &cursor, referenceSize: referenceSize)
        group.wait()
      } else {
        writeObjects(0..<count, at: &cursor, referenceSize: referenceSize)
      }
      cursor = base + tableOffset
      for offset in offsets { Self.putBigEndian(UInt64(offset), size: offsetSize, at: &cursor) }
      for _ in 0..<6 { Self.put(0, at: &cursor) }
      Self.put(UInt8(offsetSize), at: &cursor)
      Self.put(UInt8(referenceSize), at: &cursor)
      Self.putBigEndian(UInt64(count), size: 8, at: &cursor)
      Self.putBigEndian(0, size: 8, at: &cursor)
      Self.putBigEndian(UInt64(tableOffset), size: 8, at: &cursor)
      initialized = total
    }
  }

  /// The bytes `entry` takes in the file.
  private func size(of entry: Entry, referenceSize: Int) -> Int {
    switch entry {
    case .array(_, let count): return Self.markerSize(count) + count * referenceSize
    case .dictionary(_, let count): return Self.markerSize(count) + 2 * count * referenceSize
    case .scalar(let value):
      switch value {
      case .bool: return 1
      case .integer(let integer):
        if integer.isNegative { return 9 }
        if integer.bitPattern <= UInt64(Int64.max) {
          return 1 + Self.byteCount(for: integer.bitPattern)
        }
        return 17
      case .real(let real):
        return compactReals && !real.isNaN && Double(Float(real)) == real ? 5 : 9
      case .date: return 9
      case .data(let data): return Self.markerSize(data.count) + data.count
      case .string(let string):
        // `utf16.count` is O(1) for ASCII strings and equals the UTF-8 length exactly then.
        let bytes = string.utf8.count
        let units = string.utf16.count
        return units == bytes ? Self.markerSize(bytes) + bytes : Self.markerSize(units) + 2 * units
      case .uid(let uid): return 1 + Self.byteCount(for: uid)
      case .array, .dictionary: return 0
      }
    }
  }

  /// The bytes of a type nibble with `count`: inline below 15, else an integer object.
  private static func markerSize(_ count: Int) -> Int {
    count < 15 ? 1 : 2 + byteCount(for: UInt64(count))
  }

  /// Writes the objects `range` at `cursor`, moving it past them.
  private func writeObjects(
    _ range: Range<Int>, at cursor: inout UnsafeMutablePointer<UInt8>, referenceSize: Int
  ) {
    references.withUnsafeBufferPointer { references in
      for index in range {
        switch entries[index] {
        case .scalar(let value):
          writeScalar(value, at: &cursor)
        case .array(let start, let count):
          Self.writeMarker(0xA, count: count, at: &cursor)
          Self.writeReferences(
            references[start..<(start + count)], size: referenceSize, at: &cursor)
        case .dictionary(let start, let count):
          Self.writeMarker(0xD, count: count, at: &cursor)
          Self.writeReferences(
            references[start..<(start + 2 * count)], size: referenceSize, at: &cursor)
        }
      }
    }
  }

  private func writeScalar(_ value: PropertyListValue, at cursor: inout UnsafeMutablePointer<UInt8>)
  {
    switch value {
    case .bool(let bool):
      Self.put(bool ? 0x09 : 0x08, at: &cursor)
    case .integer(let integer):
      if integer.isNegative {
        Self.put(0x13, at: &cursor)
        Self.putBigEndian(integer.bitPattern, size: 8, at: &cursor)
      } else if integer.bitPattern <= UInt64(Int64.max) {
        let size = Self.byteCount(for: integer.bitPattern)
        Self.put(0x10 | UInt8(size.trailingZeroBitCount), at: &cursor)
        Self.putBigEndian(integer.bitPattern, size: size, at: &cursor)
      } else {
        Self.put(0x14, at: &cursor)
        Self.putBigEndian(0, size: 8, at: &cursor)
        Self.putBigEndian(integer.bitPattern, size: 8, at: &cursor)
      }
    case .real(let real):
      if compactReals, !real.isNaN, Double(Float(real)) == real {
        Self.put(0x22, at: &cursor)
        Self.putBigEndian(UInt64(Float(real).bitPattern), size: 4, at: &cursor)
      } else {
        Self.put(0x23, at: &cursor)
        Self.putBigEndian(real.bitPattern, size: 8, at: &cursor)
      }
    case .date(let date):
      Self.put(0x33, at: &cursor)
      Self.putBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, at: &cursor)
    case .data(let data):
      Self.writeMarker(0x4, count: data.count, at: &cursor)
      data.withUnsafeBytes { bytes in
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        cursor.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        cursor += bytes.count
      }
    case .string(var string):
      let units = string.utf16.count
      string.withUTF8 { utf8 in
        if units == utf8.count {
          Self.writeMarker(0x5, count: units, at: &cursor)
          if let source = utf8.baseAddress, !utf8.isEmpty {
            cursor.update(from: source, count: utf8.count)
            cursor += utf8.count
          }
        } else {
          Self.writeMarker(0x6, count: units, at: &cursor)
          Self.writeUTF16BigEndian(utf8, at: &cursor)
        }
      }
    case .uid(let uid):
      let size = Self.byteCount(for: uid)
      Self.put(0x80 | UInt8(size - 1), at: &cursor)
      Self.putBigEndian(uid, size: size, at: &cursor)
    case .array, .dictionary:
      break  // written by writeObjects
    }
  }

  /// Transcodes valid UTF-8 (a Swift string's storage) to big-endian UTF-16 at `cursor`.
  private static func writeUTF16BigEndian(
    _ utf8: UnsafeBufferPointer<UInt8>, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    var out = cursor
    var index = 0
    @inline(__always) func put(_ unit: UInt32) {
      out[0] = UInt8(truncatingIfNeeded: unit >> 8)
      out[1] = UInt8(truncatingIfNeeded: unit)
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
    cursor = out
  }

  /// Object references, big-endian, `size` bytes each.
  private static func writeReferences(
    _ references: Slice<UnsafeBufferPointer<Int>>, size: Int,
    at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    for reference in references { putBigEndian(UInt64(reference), size: size, at: &cursor) }
  }

  /// A type nibble with the count inline, or 0xF followed by an integer object.
  private static func writeMarker(
    _ type: UInt8, count: Int, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    if count < 15 {
      put(type << 4 | UInt8(count), at: &cursor)
    } else {
      put(type << 4 | 0x0F, at: &cursor)
      let size = byteCount(for: UInt64(count))
      put(0x10 | UInt8(size.trailingZeroBitCount), at: &cursor)
      putBigEndian(UInt64(count), size: size, at: &cursor)
    }
  }

  @inline(__always)
  private static func put(_ byte: UInt8, at cursor: inout UnsafeMutablePointer<UInt8>) {
    cursor.pointee = byte
    cursor += 1
  }

  @inline(__always)
  private static func putBigEndian(
    _ value: UInt64, size: Int, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    var shift = (size - 1) * 8
    while shift >= 0 {
      cursor.pointee = UInt8(truncatingIfNeeded: value >> UInt64(shift))
      cursor += 1
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

/// The second half's place in the output, for its thread: the halves never overlap.
private struct SendablePointer: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<UInt8>
}
