import Foundation

/// A property list held flat for the binary writer: each distinct scalar once, its bytes in
/// one buffer, and containers as ranges of one array of values. Readers build it straight from
/// their input (an XML property list converted to binary builds no tree of values), and
/// ``BinaryPropertyListWriter`` builds it from a ``PropertyListValue``. No value in it is
/// reference-counted, so filling and writing it retains and releases nothing per value.
package struct BinaryPropertyListBuilder {
  /// A value in the builder: a scalar (`index << 1`) or a container (`index << 1 | 1`).
  package struct Value: Equatable {
    fileprivate let raw: Int
    fileprivate var isContainer: Bool { raw & 1 == 1 }
    fileprivate var index: Int { raw >> 1 }
  }

  /// What a scalar is. Two scalars are the same object when kind and bits are equal: strings
  /// by their exact UTF-8 bytes (not by canonical equivalence), reals and dates by bit pattern.
  private enum Kind: UInt8 {
    case `false`, `true`, integer, negativeInteger, real, date, data, string, uid
  }

  private struct Scalar {
    var kind: Kind
    /// The bits of a number, date or UID; where the bytes of a string or data start (in
    /// `source` when ``inSource`` is set, else in `bytes`).
    var payload: UInt64
    /// The byte count of a string or data.
    var length: Int
    /// A string's UTF-16 length (equal to `length` when it is ASCII).
    var units: Int
  }

  /// Marks a payload that is an offset in `source`.
  private static let inSource: UInt64 = 1 << 63

  private struct Container {
    var isDictionary: Bool
    /// Where its values are in `children`: a dictionary's keys, then its values.
    var start: Int
    /// Items, or key-value pairs.
    var count: Int
  }

  private var scalars: [Scalar] = []
  /// The bytes of the string and data scalars that are not in `source`.
  private var bytes: [UInt8] = []
  /// The document being read, when its text is kept in place rather than copied.
  private let source: UnsafeRawBufferPointer?
  /// Open-addressing table of scalars for uniquing: the scalar's index + 1 in the low 32
  /// bits, the top of its hash above it (most probes are settled without reading the
  /// scalar); 0 when empty. Hand-rolled because `Dictionary` hashes with seeded SipHash.
  private var table: [UInt64]
  private var containers: [Container] = []
  private var children: [Value] = []
  /// For each scalar, the serial of the last dictionary that had it as a key.
  private var stamps: [Int] = []
  private var dictionarySerial = 0

  /// An empty builder, sized for about `capacity` values and `byteCapacity` bytes of text.
  ///
  /// - Parameter source: The document a reader fills the builder from. Text inside it is
  ///   referred to, not copied, so it must stay valid and unchanged until the builder is
  ///   written.
  package init(capacity: Int = 0, byteCapacity: Int = 0, source: UnsafeRawBufferPointer? = nil) {
    var tableSize = 1024
    while tableSize * 3 < 4 * capacity { tableSize *= 2 }
    table = Array(repeating: 0, count: tableSize)
    scalars.reserveCapacity(capacity)
    bytes.reserveCapacity(byteCapacity)
    self.source = source
  }

  // MARK: Scalars

  /// A string from valid UTF-8.
  package mutating func string(_ utf8: UnsafeRawBufferPointer) -> Value {
    let hash = Self.fastHash(utf8, seed: UInt64(Kind.string.rawValue))
    if let found = find(.string, hash: hash, utf8) { return found }
    return insert(
      Scalar(kind: .string, payload: 0, length: utf8.count, units: Self.utf16Count(utf8)),
      hash: hash, content: utf8)
  }

  /// A data object.
  package mutating func data(_ data: UnsafeRawBufferPointer) -> Value {
    let hash = Self.fastHash(data, seed: UInt64(Kind.data.rawValue))
    if let found = find(.data, hash: hash, data) { return found }
    return insert(
      Scalar(kind: .data, payload: 0, length: data.count, units: 0), hash: hash, content: data)
  }

  package mutating func integer(_ integer: PropertyListInteger) -> Value {
    fixed(integer.isNegative ? .negativeInteger : .integer, integer.bitPattern)
  }

  package mutating func real(_ real: Double) -> Value { fixed(.real, real.bitPattern) }

  package mutating func bool(_ bool: Bool) -> Value { fixed(bool ? .true : .false, 0) }

  /// A date, as seconds since 2001-01-01 (CoreFoundation's reference date).
  package mutating func date(_ date: Date) -> Value {
    fixed(.date, date.timeIntervalSinceReferenceDate.bitPattern)
  }

  package mutating func uid(_ uid: UInt64) -> Value { fixed(.uid, uid) }

  /// Whether `value` is an integer; its bits when it is one and not negative.
  private func unsignedInteger(_ value: Value) -> UInt64? {
    guard !value.isContainer, scalars[value.index].kind == .integer else { return nil }
    return scalars[value.index].payload
  }

  /// Whether `value` is the string `text`.
  private func isString(_ value: Value, _ text: StaticString) -> Bool {
    guard !value.isContainer else { return false }
    let scalar = scalars[value.index]
    guard scalar.kind == .string else { return false }
    return equal(
      UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), scalar)
  }

  private mutating func fixed(_ kind: Kind, _ bits: UInt64) -> Value {
    let hash = Self.fixedHash(kind, bits)
    if let found = find(kind, hash: hash, nil, bits: bits) { return found }
    return insert(Scalar(kind: kind, payload: bits, length: 0, units: 0), hash: hash, content: nil)
  }

  private static func fixedHash(_ kind: Kind, _ bits: UInt64) -> UInt64 {
    mix(bits ^ UInt64(kind.rawValue) &* 0x9E37_79B9)
  }

  /// The hash a scalar was filed under.
  private func hash(of scalar: Scalar) -> UInt64 {
    switch scalar.kind {
    case .string, .data:
      withContent(of: scalar) { Self.fastHash($0, seed: UInt64(scalar.kind.rawValue)) }
    default: Self.fixedHash(scalar.kind, scalar.payload)
    }
  }

  /// The scalar equal to the one described, if there is one.
  private func find(
    _ kind: Kind, hash: UInt64, _ content: UnsafeRawBufferPointer?, bits: UInt64 = 0
  ) -> Value? {
    let tag = hash >> 32
    let mask = table.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    return table.withUnsafeBufferPointer { table in
      while true {
        let occupant = table[slot]
        if occupant == 0 { return nil }
        if occupant >> 32 == tag {
          let index = Int(occupant & 0xFFFF_FFFF) - 1
          let scalar = scalars[index]
          if scalar.kind == kind {
            if let content {
              if equal(content, scalar) { return Value(raw: index << 1) }
            } else if scalar.payload == bits {
              return Value(raw: index << 1)
            }
          }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// `body` on the bytes of a string or data scalar.
  private func withContent<Result>(
    of scalar: Scalar, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    if scalar.payload & Self.inSource != 0, let source {
      let start = Int(scalar.payload & ~Self.inSource)
      return body(UnsafeRawBufferPointer(rebasing: source[start..<(start + scalar.length)]))
    }
    return bytes.withUnsafeBytes { arena in
      let start = Int(scalar.payload)
      return body(UnsafeRawBufferPointer(rebasing: arena[start..<(start + scalar.length)]))
    }
  }

  /// Whether a string or data scalar holds exactly `content`.
  private func equal(_ content: UnsafeRawBufferPointer, _ scalar: Scalar) -> Bool {
    guard scalar.length == content.count else { return false }
    guard let other = content.baseAddress, !content.isEmpty else { return true }
    return withContent(of: scalar) { mine in
      guard let base = mine.baseAddress else { return false }
      return memcmp(base, other, content.count) == 0
    }
  }

  private mutating func insert(
    _ scalar: Scalar, hash: UInt64, content: UnsafeRawBufferPointer?
  ) -> Value {
    if (scalars.count + 1) * 4 > table.count * 3 { growTable() }
    let index = scalars.count
    var scalar = scalar
    if let content {
      // Text inside the source stays there; anything else is copied.
      if let source, let start = content.baseAddress, let base = source.baseAddress,
        start >= base, start + content.count <= base + source.count
      {
        scalar.payload = UInt64(base.distance(to: start)) | Self.inSource
      } else {
        scalar.payload = UInt64(bytes.count)
        bytes.append(contentsOf: content.assumingMemoryBound(to: UInt8.self))
      }
    }
    scalars.append(scalar)
    let mask = table.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while table[slot] != 0 { slot = (slot + 1) & mask }
    table[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
    return Value(raw: index << 1)
  }

  /// Twice the slots; each scalar's hash is computed again (a probe needs only the slot's).
  private mutating func growTable() {
    var grown = [UInt64](repeating: 0, count: table.count * 2)
    let mask = grown.count - 1
    for occupant in table where occupant != 0 {
      let hash = hash(of: scalars[Int(occupant & 0xFFFF_FFFF) - 1])
      var slot = Int(truncatingIfNeeded: hash) & mask
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = occupant
    }
    table = grown
  }

  // MARK: Containers

  /// An array of `items`.
  package mutating func array(_ items: some Collection<Value>) -> Value {
    let index = containers.count
    containers.append(Container(isDictionary: false, start: children.count, count: items.count))
    children.append(contentsOf: items)
    return Value(raw: index << 1 | 1)
  }

  /// A dictionary of `keys` (strings) and their `values`, in that order. A key may repeat:
  /// the last value wins, in the first key's place, as in CoreFoundation.
  package mutating func dictionary(
    keys: some Collection<Value>, values: some Collection<Value>
  ) -> Value {
    // A repeated key is found by stamping each key's scalar with this dictionary's serial.
    dictionarySerial += 1
    if stamps.count < scalars.count {
      stamps.append(contentsOf: repeatElement(0, count: scalars.count - stamps.count))
    }
    var repeated = false
    for key in keys {
      if stamps[key.index] == dictionarySerial {
        repeated = true
        break
      }
      stamps[key.index] = dictionarySerial
    }
    let index = containers.count
    if !repeated {
      containers.append(Container(isDictionary: true, start: children.count, count: keys.count))
      children.append(contentsOf: keys)
      children.append(contentsOf: values)
      return Value(raw: index << 1 | 1)
    }
    var places: [Int: Int] = [:]
    var uniqueKeys: [Value] = []
    var lastValues: [Value] = []
    for (key, value) in zip(keys, values) {
      if let place = places[key.raw] {
        lastValues[place] = value
      } else {
        places[key.raw] = uniqueKeys.count
        uniqueKeys.append(key)
        lastValues.append(value)
      }
    }
    containers.append(
      Container(isDictionary: true, start: children.count, count: uniqueKeys.count))
    children.append(contentsOf: uniqueKeys)
    children.append(contentsOf: lastValues)
    return Value(raw: index << 1 | 1)
  }

  /// The items of an array, or the distinct keys of a dictionary (fewer than the keys it was
  /// given when a key repeats); 0 for a scalar.
  package func count(of container: Value) -> Int {
    container.isContainer ? containers[container.index].count : 0
  }

  /// The UID a dictionary stands for: CoreFoundation writes UIDs in XML as
  /// `<dict><key>CF$UID</key><integer>N</integer></dict>`.
  package func uid(in dictionary: Value) -> UInt64? {
    guard dictionary.isContainer else { return nil }
    let container = containers[dictionary.index]
    guard container.isDictionary, container.count == 1,
      isString(children[container.start], "CF$UID")
    else { return nil }
    return unsignedInteger(children[container.start + 1])
  }

  /// Adds a value tree.
  package mutating func add(_ value: PropertyListValue) -> Value {
    switch value {
    case .string(var string): return string.withUTF8 { self.string(UnsafeRawBufferPointer($0)) }
    case .integer(let integer): return self.integer(integer)
    case .real(let real): return self.real(real)
    case .bool(let bool): return self.bool(bool)
    case .date(let date): return self.date(date)
    case .data(let data): return data.withUnsafeBytes { self.data($0) }
    case .uid(let uid): return self.uid(uid)
    case .array(let items):
      // The range is taken first and filled after: nested containers append behind it.
      let index = containers.count
      let start = children.count
      containers.append(Container(isDictionary: false, start: start, count: items.count))
      children.append(contentsOf: repeatElement(Value(raw: 0), count: items.count))
      items.withUnsafeBufferPointer { items in
        for offset in items.indices { children[start + offset] = add(items[offset]) }
      }
      return Value(raw: index << 1 | 1)
    case .dictionary(let dictionary):
      let index = containers.count
      let start = children.count
      let count = dictionary.count
      containers.append(Container(isDictionary: true, start: start, count: count))
      children.append(contentsOf: repeatElement(Value(raw: 0), count: 2 * count))
      // Through the storage of keys and values: no iterator, no copy of each value.
      dictionary.keys.elements.withUnsafeBufferPointer { keys in
        for offset in keys.indices {
          var key = keys[offset]
          children[start + offset] = key.withUTF8 { string(UnsafeRawBufferPointer($0)) }
        }
      }
      dictionary.values.elements.withUnsafeBufferPointer { values in
        for offset in values.indices { children[start + count + offset] = add(values[offset]) }
      }
      return Value(raw: index << 1 | 1)
    }
  }

  /// The number of values in a tree, keys included (an upper bound of its object count),
  /// and the bytes of its strings and data (UTF-8 counts are O(1) for native strings).
  package static func size(of value: PropertyListValue) -> (values: Int, bytes: Int) {
    switch value {
    case .array(let items):
      return items.reduce((1, 0)) {
        let item = size(of: $1)
        return ($0.0 + item.values, $0.1 + item.bytes)
      }
    case .dictionary(let dictionary):
      var total = (values: 1 + dictionary.count, bytes: 0)
      for key in dictionary.keys { total.bytes += key.utf8.count }
      for item in dictionary.values {
        let inner = size(of: item)
        total = (total.values + inner.values, total.bytes + inner.bytes)
      }
      return total
    case .string(let string): return (1, string.utf8.count)
    case .data(let data): return (1, data.count)
    default: return (1, 0)
    }
  }

  // MARK: Numbering

  /// The objects in the order CoreFoundation numbers them: depth-first from `root`, a
  /// dictionary's keys before its values, each scalar where it is first reached; and each
  /// container's references, at `referenceStart` of its object.
  private struct Numbering {
    var objects: [Value] = []
    var numbers: [Int32]
    var references: [Int] = []
    var referenceStart: [Int]
  }

  private func number(from root: Value) -> Numbering {
    var numbering = Numbering(
      numbers: Array(repeating: -1, count: scalars.count),
      referenceStart: Array(repeating: 0, count: containers.count))
    numbering.objects.reserveCapacity(scalars.count + containers.count)
    numbering.references.reserveCapacity(children.count)
    children.withUnsafeBufferPointer { children in
      _ = visit(root, &numbering, children)
    }
    return numbering
  }

  private func visit(
    _ value: Value, _ numbering: inout Numbering, _ children: UnsafeBufferPointer<Value>
  ) -> Int {
    guard value.isContainer else {
      let known = numbering.numbers[value.index]
      if known >= 0 { return Int(known) }
      let number = numbering.objects.count
      numbering.numbers[value.index] = Int32(number)
      numbering.objects.append(value)
      return number
    }
    let number = numbering.objects.count
    numbering.objects.append(value)
    let container = containers[value.index]
    let width = container.isDictionary ? 2 * container.count : container.count
    let start = numbering.references.count
    numbering.referenceStart[value.index] = start
    numbering.references.append(contentsOf: repeatElement(0, count: width))
    for offset in 0..<width {
      numbering.references[start + offset] = visit(
        children[container.start + offset], &numbering, children)
    }
    return number
  }

  // MARK: Writing

  /// Objects past this count are written in two halves on two threads.
  private static let parallelThreshold = 100_000

  /// The `bplist00` file of `root`: every object's size is known before it is written, so
  /// the output is allocated once at its exact length and each half of the objects is written
  /// in place, the second on another thread; nothing is copied or zero-filled first.
  ///
  /// - Parameter compactReals: store a real in 4 bytes when a 32-bit float holds it exactly.
  package func serialized(root: Value, compactReals: Bool = false) -> [UInt8] {
    let numbering = number(from: root)
    let count = numbering.objects.count
    // CoreFoundation requires the reference size to hold the object count itself.
    let referenceSize = Self.minimalByteCount(for: UInt64(count))
    var offsets = [Int](repeating: 0, count: count)
    var position = 8
    for index in 0..<count {
      offsets[index] = position
      position += size(
        of: numbering.objects[index], referenceSize: referenceSize, compactReals: compactReals)
    }
    let tableOffset = position
    // ... and the offset size to hold the offset of the offset table, not just the last object.
    let offsetSize = Self.minimalByteCount(for: UInt64(tableOffset))
    let total = tableOffset + offsetSize * count + 32
    return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      var cursor = base
      for byte in "bplist00".utf8 { Self.put(byte, at: &cursor) }
      let writer = ObjectWriter(
        builder: self, numbering: numbering, referenceSize: referenceSize,
        compactReals: compactReals)
      if count >= Self.parallelThreshold {
        let middle = count / 2
        let second = SendablePointer(pointer: base + offsets[middle])
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
          writer.write(middle..<count, at: second.pointer)
          group.leave()
        }
        writer.write(0..<middle, at: cursor)
        group.wait()
      } else {
        writer.write(0..<count, at: cursor)
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

  /// The bytes `value` takes in the file.
  private func size(of value: Value, referenceSize: Int, compactReals: Bool) -> Int {
    if value.isContainer {
      let container = containers[value.index]
      let width = container.isDictionary ? 2 * container.count : container.count
      return Self.markerSize(container.count) + width * referenceSize
    }
    let scalar = scalars[value.index]
    switch scalar.kind {
    case .false, .true: return 1
    case .negativeInteger: return 9
    case .integer:
      return scalar.payload <= UInt64(Int64.max) ? 1 + Self.byteCount(for: scalar.payload) : 17
    case .real:
      let real = Double(bitPattern: scalar.payload)
      return compactReals && !real.isNaN && Double(Float(real)) == real ? 5 : 9
    case .date: return 9
    case .data: return Self.markerSize(scalar.length) + scalar.length
    case .string:
      let (length, units) = (scalar.length, scalar.units)
      return units == length ? Self.markerSize(length) + length : Self.markerSize(units) + 2 * units
    case .uid: return 1 + Self.byteCount(for: scalar.payload)
    }
  }

  /// Writes a range of objects; shared read-only by the two threads.
  private struct ObjectWriter: @unchecked Sendable {
    let builder: BinaryPropertyListBuilder
    let numbering: Numbering
    let referenceSize: Int
    let compactReals: Bool

    func write(_ range: Range<Int>, at start: UnsafeMutablePointer<UInt8>) {
      var cursor = start
      numbering.references.withUnsafeBufferPointer { references in
        for index in range {
          let value = numbering.objects[index]
          if value.isContainer {
            let container = builder.containers[value.index]
            let width = container.isDictionary ? 2 * container.count : container.count
            BinaryPropertyListBuilder.writeMarker(
              container.isDictionary ? 0xD : 0xA, count: container.count, at: &cursor)
            let first = numbering.referenceStart[value.index]
            for reference in references[first..<(first + width)] {
              BinaryPropertyListBuilder.putBigEndian(
                UInt64(reference), size: referenceSize, at: &cursor)
            }
          } else {
            write(builder.scalars[value.index], at: &cursor)
          }
        }
      }
    }

    private func write(_ scalar: Scalar, at cursor: inout UnsafeMutablePointer<UInt8>) {
      typealias B = BinaryPropertyListBuilder
      let bits = scalar.payload
      switch scalar.kind {
      case .false: B.put(0x08, at: &cursor)
      case .true: B.put(0x09, at: &cursor)
      case .negativeInteger:
        B.put(0x13, at: &cursor)
        B.putBigEndian(bits, size: 8, at: &cursor)
      case .integer:
        if bits <= UInt64(Int64.max) {
          let size = B.byteCount(for: bits)
          B.put(0x10 | UInt8(size.trailingZeroBitCount), at: &cursor)
          B.putBigEndian(bits, size: size, at: &cursor)
        } else {
          B.put(0x14, at: &cursor)
          B.putBigEndian(0, size: 8, at: &cursor)
          B.putBigEndian(bits, size: 8, at: &cursor)
        }
      case .real:
        let real = Double(bitPattern: bits)
        if compactReals, !real.isNaN, Double(Float(real)) == real {
          B.put(0x22, at: &cursor)
          B.putBigEndian(UInt64(Float(real).bitPattern), size: 4, at: &cursor)
        } else {
          B.put(0x23, at: &cursor)
          B.putBigEndian(bits, size: 8, at: &cursor)
        }
      case .date:
        B.put(0x33, at: &cursor)
        B.putBigEndian(bits, size: 8, at: &cursor)
      case .data, .string:
        let length = scalar.length
        builder.withContent(of: scalar) { content in
          if scalar.kind == .string, scalar.units != length {
            B.writeMarker(0x6, count: scalar.units, at: &cursor)
            B.writeUTF16BigEndian(content, at: &cursor)
            return
          }
          B.writeMarker(scalar.kind == .data ? 0x4 : 0x5, count: length, at: &cursor)
          if let source = content.baseAddress, length > 0 {
            UnsafeMutableRawPointer(cursor).copyMemory(from: source, byteCount: length)
            cursor += length
          }
        }
      case .uid:
        let size = B.byteCount(for: bits)
        B.put(0x80 | UInt8(size - 1), at: &cursor)
        B.putBigEndian(bits, size: size, at: &cursor)
      }
    }
  }

  // MARK: Bytes

  /// The UTF-16 length of valid UTF-8: one unit per scalar, two for those past U+FFFF.
  private static func utf16Count(_ utf8: UnsafeRawBufferPointer) -> Int {
    var units = 0
    var offset = 0
    let count = utf8.count
    // ASCII eight bytes at a time: one unit per byte.
    while offset + 8 <= count {
      let word = utf8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      if word & 0x8080_8080_8080_8080 != 0 { break }
      units += 8
      offset += 8
    }
    while offset < count {
      let byte = utf8[offset]
      if byte & 0xC0 != 0x80 { units += 1 }
      if byte >= 0xF0 { units += 1 }
      offset += 1
    }
    return units
  }

  /// Transcodes valid UTF-8 to big-endian UTF-16 at `cursor`.
  private static func writeUTF16BigEndian(
    _ utf8: UnsafeRawBufferPointer, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    var out = cursor
    var index = 0
    @inline(__always) func put(_ unit: UInt32) {
      out[0] = UInt8(truncatingIfNeeded: unit >> 8)
      out[1] = UInt8(truncatingIfNeeded: unit)
      out += 2
    }
    while index < utf8.count {
      // Eight ASCII bytes at a time: each is a unit with a zero high byte.
      if index + 8 <= utf8.count,
        utf8.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        for offset in 0..<8 {
          out[2 * offset] = 0
          out[2 * offset + 1] = utf8[index + offset]
        }
        out += 16
        index += 8
        continue
      }
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

  /// The bytes of a type nibble with `count`: inline below 15, else an integer object.
  private static func markerSize(_ count: Int) -> Int {
    count < 15 ? 1 : 2 + byteCount(for: UInt64(count))
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

  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var x = value &* 0x9E37_79B9_7F4A_7C15
    x ^= x >> 32
    x &*= 0xD6E8_FEB8_6659_FD93
    x ^= x >> 32
    return x
  }

  /// A fast non-cryptographic hash, eight bytes at a time.
  static func fastHash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
    var hash = seed ^ UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset + 8 <= bytes.count {
      hash = mix(hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return mix(hash ^ tail)
  }
}

/// The second half's place in the output, for its thread: the halves never overlap.
private struct SendablePointer: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<UInt8>
}
