/// A replacement of a byte range in a file's text.
public struct TextEdit: Sendable, Hashable {
  /// The bytes replaced.
  public var range: Range<Int>
  /// The new bytes.
  public var replacement: [UInt8]

  /// A replacement of `range` by `replacement`.
  public init(range: Range<Int>, replacement: [UInt8]) {
    self.range = range
    self.replacement = replacement
  }

  /// `bytes` with every edit applied (edits must not overlap).
  public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 64)
    var cursor = 0
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      output.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
      output.append(contentsOf: edit.replacement)
      cursor = edit.range.upperBound
    }
    output.append(contentsOf: bytes[cursor...])
    return output
  }
}
