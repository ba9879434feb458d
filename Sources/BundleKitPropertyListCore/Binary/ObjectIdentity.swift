import Foundation

/// How the writer tells values apart: objects that are identical (same type, same bits) are
/// stored once, found through a hash of their bytes.
extension BinaryPropertyListWriter {
  /// Equal for the writer: same type and same bits (strings by their exact UTF-8 bytes,
  /// reals and dates by bit pattern).
  static func identical(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return ExactString(x) == ExactString(y)
    case (.integer(let x), .integer(let y)): return x == y
    case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
    case (.bool(let x), .bool(let y)): return x == y
    case (.date(let x), .date(let y)):
      return x.timeIntervalSinceReferenceDate.bitPattern
        == y.timeIntervalSinceReferenceDate.bitPattern
    case (.data(let x), .data(let y)): return x == y
    case (.uid(let x), .uid(let y)): return x == y
    default: return false
    }
  }

  static func hash(_ value: PropertyListValue) -> UInt64 {
    switch value {
    case .string(let string):
      // Native strings are contiguous: hashed in place, without a copy of the value.
      if let hash = string.utf8.withContiguousStorageIfAvailable({
        fastHash(UnsafeRawBufferPointer($0), seed: 1)
      }) {
        return hash
      }
      var copy = string
      return copy.withUTF8 { fastHash(UnsafeRawBufferPointer($0), seed: 1) }
    case .integer(let integer): return mix(integer.bitPattern ^ (integer.isNegative ? 0x9E37 : 0x2))
    case .real(let real): return mix(real.bitPattern ^ 3)
    case .bool(let bool): return mix(bool ? 4 : 5)
    case .date(let date): return mix(date.timeIntervalSinceReferenceDate.bitPattern ^ 6)
    case .data(let data): return data.withUnsafeBytes { fastHash($0, seed: 7) }
    case .uid(let uid): return mix(uid ^ 8)
    case .array, .dictionary: return 0
    }
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

/// A string that compares and hashes by its exact UTF-8 bytes, not by canonical equivalence.
struct ExactString: Hashable {
  var string: String

  init(_ string: String) { self.string = string }

  static func == (lhs: ExactString, rhs: ExactString) -> Bool {
    let (a, b) = (lhs.string.utf8, rhs.string.utf8)
    guard a.count == b.count else { return false }
    let fast = a.withContiguousStorageIfAvailable { x in
      b.withContiguousStorageIfAvailable { y in
        guard let p = x.baseAddress, let q = y.baseAddress else { return true }
        return memcmp(p, q, x.count) == 0
      }
    }
    return (fast ?? nil) ?? a.elementsEqual(b)
  }

  func hash(into hasher: inout Hasher) {
    var copy = string
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
