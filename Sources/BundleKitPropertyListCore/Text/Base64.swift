/// Base64 as property lists use it: the standard alphabet with `=` padding.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let decodeTable: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  /// Appends the encoding of `bytes` to `output`, with no line breaks.
  package static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes, into output: inout [UInt8]) {
    var iterator = bytes.makeIterator()
    while let b0 = iterator.next() {
      let b1 = iterator.next()
      let b2 = iterator.next()
      output.append(alphabet[Int(b0 >> 2)])
      output.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
      if let b1 {
        output.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)])
      } else {
        output.append(UInt8(ascii: "="))
      }
      if let b2 {
        output.append(alphabet[Int(b2 & 0x3F)])
      } else {
        output.append(UInt8(ascii: "="))
      }
    }
  }

  /// The encoding of `bytes` as a string.
  package static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    encode(bytes, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// ``decode(_:)`` for the bytes other modules hold (the XML reader's element text),
  /// specialised here: a generic called across modules runs unspecialised, 3x slower.
  package static func decode(_ text: [UInt8]) -> Result<[UInt8], Base64Error> {
    decode(text[...])
  }

  /// Decodes base64 text, skipping white space. Returns the offset of the first bad byte
  /// on failure.
  package static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> Result<
    [UInt8], Base64Error
  > {
    var output: [UInt8] = []
    output.reserveCapacity(text.count / 4 * 3)
    var accumulator: UInt32 = 0
    var pending = 0
    var padding = 0
    for (offset, byte) in text.enumerated() {
      if isSpace(byte) { continue }
      if byte == UInt8(ascii: "=") {
        padding += 1
        if padding > 2 { return .failure(Base64Error(offset: offset)) }
        continue
      }
      let value = decodeTable[Int(byte)]
      if value == 0xFF || padding > 0 { return .failure(Base64Error(offset: offset)) }
      accumulator = accumulator << 6 | UInt32(value)
      pending += 1
      if pending == 4 {
        output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
        output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
        output.append(UInt8(truncatingIfNeeded: accumulator))
        accumulator = 0
        pending = 0
      }
    }
    switch pending {
    case 0: break
    case 2: output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
    case 3:
      output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
      output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
    default: return .failure(Base64Error(offset: text.count))
    }
    return .success(output)
  }
}

/// A byte that is not base64, at an offset into the text.
package struct Base64Error: Error {
  package var offset: Int
}
