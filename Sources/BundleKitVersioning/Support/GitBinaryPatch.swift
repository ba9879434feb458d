/// A change of a binary file as git writes it in a patch (`GIT binary patch`, both ways
/// `literal`), so that a dry run's output of binary property lists is a patch `git apply`
/// takes, checked against the file's current bytes by their blob names.
///
/// The data is a zlib stream of stored blocks (no compression is needed for a patch to be
/// applied), base85-encoded in lines of at most 52 bytes, as git reads them.
public enum GitBinaryPatch {
  /// The patch turning `old` into `new` at `path` (relative, as git names it).
  public static func make(old: [UInt8], new: [UInt8], path: String) -> String {
    var text = "diff --git a/\(path) b/\(path)\n"
    text += "index \(blobName(old))..\(blobName(new)) 100644\n"
    text += "GIT binary patch\n"
    text += "literal \(new.count)\n" + lines(zlibStored(new)) + "\n"
    text += "literal \(old.count)\n" + lines(zlibStored(old)) + "\n"
    return text
  }

  /// git's name for a blob of `bytes`: SHA-1 of `blob <count>\0` and the bytes, in hex.
  static func blobName(_ bytes: [UInt8]) -> String {
    let digest = SHA1.hash(Array("blob \(bytes.count)\u{0}".utf8) + bytes)
    return digest.map { byte in
      let hex = Array("0123456789abcdef".utf8)
      return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]], as: UTF8.self)
    }.joined()
  }

  /// `bytes` as a zlib stream of stored (uncompressed) deflate blocks.
  static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, bytes.count - offset)
      let last: UInt8 = offset + count == bytes.count ? 1 : 0
      out.append(last)
      out.append(UInt8(count & 0xFF))
      out.append(UInt8(count >> 8))
      out.append(UInt8(~count & 0xFF))
      out.append(UInt8((~count >> 8) & 0xFF))
      out.append(contentsOf: bytes[offset..<(offset + count)])
      offset += count
    } while offset < bytes.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    let adler = (b << 16) | a
    out.append(contentsOf: [
      UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF),
      UInt8(adler & 0xFF),
    ])
    return out
  }

  /// git's base85 alphabet.
  private static let alphabet = Array(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~".utf8)

  /// `data` in git's patch lines: a length letter (A-Z for 1-26, a-z for 27-52), then the
  /// bytes (zero-padded to a multiple of 4) in base85, five characters for four bytes.
  static func lines(_ data: [UInt8]) -> String {
    var text = ""
    var offset = 0
    while offset < data.count {
      let count = min(52, data.count - offset)
      var line: [UInt8] = [
        count <= 26 ? UInt8(ascii: "A") + UInt8(count - 1) : UInt8(ascii: "a") + UInt8(count - 27)
      ]
      var index = offset
      while index < offset + count {
        var value: UInt32 = 0
        for shift in 0..<4 {
          let byte = index + shift < offset + count ? data[index + shift] : 0
          value = value << 8 | UInt32(byte)
        }
        var group = [UInt8](repeating: 0, count: 5)
        for position in stride(from: 4, through: 0, by: -1) {
          group[position] = alphabet[Int(value % 85)]
          value /= 85
        }
        line.append(contentsOf: group)
        index += 4
      }
      text += String(decoding: line, as: UTF8.self) + "\n"
      offset += count
    }
    return text
  }
}

/// SHA-1, for git's blob names only (not for anything that must resist an attacker).
enum SHA1 {
  static func hash(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var data = message
    let length = UInt64(message.count) * 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      data.append(UInt8((length >> UInt64(shift)) & 0xFF))
    }
    var w = [UInt32](repeating: 0, count: 80)
    for chunk in stride(from: 0, to: data.count, by: 64) {
      for i in 0..<16 {
        let base = chunk + i * 4
        w[i] =
          UInt32(data[base]) << 24 | UInt32(data[base + 1]) << 16 | UInt32(data[base + 2]) << 8
          | UInt32(data[base + 3])
      }
      for i in 16..<80 {
        let value = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
        w[i] = (value << 1) | (value >> 31)
      }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for i in 0..<80 {
        let (f, k): (UInt32, UInt32) =
          switch i {
          case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
          case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
          case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
          default: (b ^ c ^ d, 0xCA62_C1D6)
          }
        let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
        e = d
        d = c
        c = (b << 30) | (b >> 2)
        b = a
        a = temp
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { value in (0..<4).map { UInt8((value >> UInt32(24 - $0 * 8)) & 0xFF) } }
  }
}
