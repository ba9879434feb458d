/// An `.xcconfig` file: `SETTING = value` lines, with `//` comments and `#include`s. Settings
/// can be read and their values replaced in place.
public struct XcconfigFile: Sendable {
  /// The file's path.
  public var path: String
  /// The file's bytes.
  public var bytes: [UInt8]

  /// One assignment: the setting (without a `[sdk=...]` condition) and its value's range.
  public struct Assignment: Sendable, Hashable {
    /// The setting name.
    public var setting: String
    /// The value, trimmed.
    public var value: String
    /// The value's range in the file.
    public var range: Range<Int>
    /// The 1-based line.
    public var line: Int
  }

  /// Every assignment, in order.
  public var assignments: [Assignment] {
    var result: [Assignment] = []
    var lineStart = 0
    var line = 1
    while lineStart <= bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
      if let assignment = Self.assignment(bytes, lineStart..<lineEnd, line: line) {
        result.append(assignment)
      }
      lineStart = lineEnd + 1
      line += 1
    }
    return result
  }

  private static func assignment(_ bytes: [UInt8], _ range: Range<Int>, line: Int) -> Assignment? {
    var end = range.upperBound
    // Cut a `//` comment.
    var index = range.lowerBound
    while index + 1 < end {
      if bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
        end = index
        break
      }
      index += 1
    }
    guard let equals = bytes[range.lowerBound..<end].firstIndex(of: UInt8(ascii: "=")) else {
      return nil
    }
    var name = String(decoding: bytes[range.lowerBound..<equals], as: UTF8.self).trimmingCharacters(
      in: [" ", "\t"])
    if let bracket = name.firstIndex(of: "[") {
      name = String(name[..<bracket]).trimmingCharacters(in: [" ", "\t"])
    }
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
      return nil
    }
    var valueStart = equals + 1
    while valueStart < end, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 {
      valueStart += 1
    }
    var valueEnd = end
    while valueEnd > valueStart,
      [0x20, 0x09, 0x0D, UInt8(ascii: ";")].contains(bytes[valueEnd - 1])
    { valueEnd -= 1 }
    return Assignment(
      setting: name, value: String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self),
      range: valueStart..<valueEnd, line: line)
  }

  /// The last assignment of `setting` (the one that wins), if any.
  public func assignment(of setting: String) -> Assignment? {
    assignments.last { $0.setting == setting }
  }
}
