/// Strict UTF-8 checking, fast (ASCII eight bytes at a time): readers refuse text that is
/// not UTF-8 with its place, instead of replacing it with U+FFFD (a mangled key is never
/// found at run time).
package enum UTF8Validation {
  /// The offset of the first byte that is not part of valid UTF-8 (overlong forms,
  /// surrogates and values past U+10FFFF are invalid), or nil when every byte is.
  package static func firstInvalidByte(in buffer: UnsafeRawBufferPointer) -> Int? {
    let count = buffer.count
    var index = 0
    while index < count {
      // ASCII runs, eight bytes at a time.
      while index + 8 <= count,
        buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
      }
      guard index < count else { return nil }
      let lead = buffer[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index
      }
      guard index + length <= count else { return index }
      let second = buffer[index + 1]
      guard second >= low, second <= high else { return index }
      for offset in 2..<length where buffer[index + offset] & 0xC0 != 0x80 {
        return index
      }
      index += length
    }
    return nil
  }
}
