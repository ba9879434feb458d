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
    if let result = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) {
      return result
    }
    return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
  }

  /// The decoder on the bytes themselves: an index loop over a buffer into a buffer (walking a
  /// generic collection `enumerated()` asked the runtime for tuple metadata at every byte).
  private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> Result<
    [UInt8], Base64Error
  > {
    var failure: Int?
    // At most three bytes for every four characters, and two for a last partial group.
    let output = decodeTable.withUnsafeBufferPointer { table in
      [UInt8](unsafeUninitializedCapacity: text.count / 4 * 3 + 2) { output, written in
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        var count = 0
        var offset = 0
        while offset < text.count {
          let byte = text[offset]
          if isSpace(byte) {
            offset += 1
            continue
          }
          if byte == UInt8(ascii: "=") {
            padding += 1
            if padding > 2 {
              failure = offset
              break
            }
            offset += 1
            continue
          }
          let value = table[Int(byte)]
          if value == 0xFF || padding > 0 {
            failure = offset
            break
          }
          accumulator = accumulator << 6 | UInt32(value)
          pending += 1
          if pending == 4 {
            output[count] = UInt8(truncatingIfNeeded: accumulator >> 16)
            output[count + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
            output[count + 2] = UInt8(truncatingIfNeeded: accumulator)
            count += 3
            accumulator = 0
            pending = 0
          }
          offset += 1
        }
        if failure == nil {
          switch pending {
          case 0: break
          case 2:
            output[count] = UInt8(truncatingIfNeeded: accumulator >> 4)
            count += 1
          case 3:
            output[count] = UInt8(truncatingIfNeeded: accumulator >> 10)
            output[count + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
            count += 2
          default: failure = text.count
          }
        }
        written = count
      }
    }
    if let failure { return .failure(Base64Error(offset: failure)) }
    return .success(output)
  }
}

/// A byte that is not base64, at an offset into the text.
package struct Base64Error: Error {
  package var offset: Int
}
