import BundleKitPropertyListCore
import Foundation

/// A `.strings` table compiled straight from its bytes, for the common case of a table with
/// nothing to report.
///
/// No `String`, entry or dictionary is made: the text of each key and value goes to the
/// binary writer where it lies in the file (copied only when it has an escape). Anything the
/// full reader and the linter would have something to say about gives nil: a table in
/// property-list form or in UTF-16, a syntax or encoding error, a value that is not a string,
/// an empty value, a repeated key, a placeholder problem. The table is then read by
/// ``StringsFile`` and linted as before, so the bytes written and the findings are the same
/// on either road, and the first road costs a failed table one quick pass.
enum CleanStringsTable {
  /// The binary property list of a `.strings` file's bytes, or nil when the table needs
  /// the full reader.
  static func binary(_ bytes: [UInt8]) -> [UInt8]? {
    guard StringsFile.propertyListFormat(of: bytes) == nil else { return nil }
    let skip: Int
    switch StringsFile.detectEncoding(bytes) {
    case .utf8: skip = 0
    case .utf8WithBOM: skip = 3
    case .utf16LittleEndian, .utf16BigEndian: return nil
    }
    return bytes.withUnsafeBytes { whole -> [UInt8]? in
      let text = UnsafeRawBufferPointer(rebasing: whole[skip...])
      guard UTF8Validation.firstInvalidByte(in: text) == nil else { return nil }
      do {
        return try compile(text)
      } catch {
        return nil
      }
    }
  }

  private static func compile(_ text: UnsafeRawBufferPointer) throws(PropertyListError)
    -> [UInt8]?
  {
    // About one entry per 40 bytes of text; the builder's text stays in `text`.
    let estimate = text.count / 40
    var builder = BinaryPropertyListBuilder(capacity: 2 * estimate, source: text)
    var keys: [BinaryPropertyListBuilder.Value] = []
    var values: [BinaryPropertyListBuilder.Value] = []
    keys.reserveCapacity(estimate)
    values.reserveCapacity(estimate)
    var scanner = OpenStepScanner(bytes: text)
    var keyEscaped: [UInt8] = []
    var valueEscaped: [UInt8] = []
    while true {
      try scanner.skipSpace()
      guard scanner.current != nil else { break }
      guard scanner.atString else { return nil }
      let keyRange = try scanner.scanString(decodingInto: &keyEscaped)
      try scanner.skipSpace()
      var valueRange: Range<Int>?
      let valueIsKey = scanner.current == UInt8(ascii: ";")
      if !valueIsKey {
        // `"key" = value;`, the value a string: arrays, dictionaries and data are the full
        // reader's (and a warning).
        guard scanner.current == UInt8(ascii: "=") else { return nil }
        scanner.position += 1
        try scanner.skipSpace()
        guard scanner.atString else { return nil }
        valueRange = try scanner.scanString(decodingInto: &valueEscaped)
        try scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ";") else { return nil }
      }
      scanner.position += 1
      let key = withText(keyRange, keyEscaped, in: text) { builder.string($0) }
      guard !valueIsKey else {
        keys.append(key)
        values.append(key)
        continue
      }
      let clean = withText(valueRange, valueEscaped, in: text) { value -> Bool in
        // An empty value is a warning unless the key is empty too.
        if value.isEmpty { return keyRange?.isEmpty ?? keyEscaped.isEmpty }
        guard let base = value.baseAddress,
          memchr(base, Int32(UInt8(ascii: "%")), value.count) != nil
        else { return true }
        return StringsLinter.formatProblems(String(decoding: value, as: UTF8.self)).isEmpty
      }
      guard clean else { return nil }
      keys.append(key)
      values.append(withText(valueRange, valueEscaped, in: text) { builder.string($0) })
    }
    let root = builder.dictionary(keys: keys, values: values)
    // A repeated key is a warning (or, with two values, the last one winning, a conflict).
    guard builder.count(of: root) == keys.count else { return nil }
    return builder.serialized(root: root)
  }

  /// The text of a string just scanned: in place, or its escapes read.
  private static func withText<Result>(
    _ range: Range<Int>?, _ escaped: [UInt8], in text: UnsafeRawBufferPointer,
    _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    if let range { return body(UnsafeRawBufferPointer(rebasing: text[range])) }
    return escaped.withUnsafeBytes(body)
  }
}
