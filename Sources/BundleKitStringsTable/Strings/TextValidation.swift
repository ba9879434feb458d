import BundleKitPropertyListCore

/// Checks text bytes strictly, fast: tables are read whole before they are parsed.
enum TextValidation {
  /// The offset of the first byte that is not part of valid UTF-8, or nil.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { UTF8Validation.firstInvalidByte(in: $0) }
  }

  /// UTF-16 bytes (after any byte order mark) as UTF-8, up to the first lone surrogate or
  /// a last odd byte: `errorOffset` is then where that character would start in `text`.
  static func utf8(fromUTF16 bytes: [UInt8], bigEndian: Bool) -> (
    text: [UInt8], errorOffset: Int?, oddLength: Bool
  ) {
    let start = bytes.starts(with: bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) ? 2 : 0
    let count = (bytes.count - start) / 2
    var output: [UInt8] = []
    output.reserveCapacity(count + count / 4)
    var index = 0
    func unit(_ at: Int) -> UInt32 {
      let a = UInt32(bytes[start + 2 * at])
      let b = UInt32(bytes[start + 2 * at + 1])
      return bigEndian ? a << 8 | b : b << 8 | a
    }
    while index < count {
      var scalar = unit(index)
      index += 1
      if scalar >= 0xD800, scalar <= 0xDFFF {
        guard scalar <= 0xDBFF, index < count else { return (output, output.count, false) }
        let trail = unit(index)
        guard trail >= 0xDC00, trail <= 0xDFFF else { return (output, output.count, false) }
        index += 1
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (trail - 0xDC00)
      }
      switch scalar {
      case 0..<0x80:
        output.append(UInt8(scalar))
      case 0x80..<0x800:
        output.append(UInt8(0xC0 | scalar >> 6))
        output.append(UInt8(0x80 | scalar & 0x3F))
      case 0x800..<0x10000:
        output.append(UInt8(0xE0 | scalar >> 12))
        output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
        output.append(UInt8(0x80 | scalar & 0x3F))
      default:
        output.append(UInt8(0xF0 | scalar >> 18))
        output.append(UInt8(0x80 | (scalar >> 12) & 0x3F))
        output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
        output.append(UInt8(0x80 | scalar & 0x3F))
      }
    }
    if (bytes.count - start) % 2 != 0 { return (output, output.count, true) }
    return (output, nil, false)
  }
}
