/// SHA-256 (FIPS 180-4), for archive manifests and the MAC of write journals. Written here so the tool the plugins build
/// stays free of a cryptography package; checked against `sha256sum` in the tests.
package struct SHA256: Sendable {
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]
  private var buffer: [UInt8] = []
  private var length: UInt64 = 0

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
    0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
    0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
    0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
    0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
    0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
    0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// A new hash.
  package init() {}

  /// Adds bytes.
  package mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
    length += UInt64(bytes.count)
    // Whole blocks straight from the caller's bytes; only a partial block is buffered.
    let done: Bool? = bytes.withContiguousStorageIfAvailable { input in
      absorb(UnsafeRawBufferPointer(input))
      return true
    }
    if done == nil { absorb(Array(bytes)) }
  }

  private mutating func absorb(_ input: [UInt8]) {
    input.withUnsafeBytes { absorb($0) }
  }

  private mutating func absorb(_ input: UnsafeRawBufferPointer) {
    var offset = 0
    if !buffer.isEmpty {
      let taken = min(64 - buffer.count, input.count)
      buffer.append(contentsOf: input[0..<taken])
      offset = taken
      guard buffer.count == 64 else { return }
      let block = buffer
      block.withUnsafeBytes { compress($0) }
      buffer.removeAll(keepingCapacity: true)
    }
    while input.count - offset >= 64 {
      compress(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + 64)]))
      offset += 64
    }
    buffer.append(contentsOf: input[offset...])
  }

  /// The digest of everything added.
  package mutating func finalize() -> [UInt8] {
    let bits = length &* 8
    var tail = buffer + [0x80]
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    tail.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 64)]))
        offset += 64
      }
    }
    buffer = []
    return state.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) }
    }
  }

  /// The digest of `bytes` as lower-case hex.
  package static func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    var hash = SHA256()
    hash.update(bytes)
    return hexString(hash.finalize())
  }

  /// A digest's bytes as lower-case hex.
  package static func hexString(_ digest: [UInt8]) -> String {
    digest.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }.joined()
  }

  /// One 64-byte block into the state: on raw memory, the message schedule on the stack.
  private mutating func compress(_ block: UnsafeRawBufferPointer) {
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
      Self.k.withUnsafeBufferPointer { k in compress(block, schedule, k) }
    }
  }

  private mutating func compress(
    _ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>,
    _ k: UnsafeBufferPointer<UInt32>
  ) {
    for t in 0..<16 {
      w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
    }
    @inline(__always) func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
    for t in 16..<64 {
      let s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3)
      let s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10)
      w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = (
      state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    )
    for t in 0..<64 {
      let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
      let choice = (e & f) ^ (~e & g)
      let temp1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
      let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let temp2 = s0 &+ majority
      (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }
}

extension SHA256 {
  /// HMAC-SHA-256 (RFC 2104) of `message` under `key`.
  package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var block = key
    if block.count > 64 {
      var hash = SHA256()
      hash.update(block)
      block = hash.finalize()
    }
    block += [UInt8](repeating: 0, count: 64 - block.count)
    var inner = SHA256()
    inner.update(block.map { $0 ^ 0x36 })
    inner.update(message)
    var outer = SHA256()
    outer.update(block.map { $0 ^ 0x5C })
    outer.update(inner.finalize())
    return outer.finalize()
  }
}
