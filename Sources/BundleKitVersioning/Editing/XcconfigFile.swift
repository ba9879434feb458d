/// An `.xcconfig` file: `SETTING = value` lines, with `//` comments and `#include`s. Settings
/// can be read and their values replaced in place.
struct XcconfigFile: Sendable {
  /// The file's path.
  public var path: String
  /// The file's bytes.
  public var bytes: [UInt8]

  /// One assignment: the setting (without a `[sdk=...]` condition) and its value's range.
  struct Assignment: Sendable, Hashable {
    /// The setting name.
    public var setting: String
    /// The condition, `[sdk=iphoneos*]`, when the assignment has one.
    public var condition: String?
    /// The value, trimmed.
    public var value: String
    /// The value's range in the file.
    public var range: Range<Int>
    /// The 1-based line.
    public var line: Int
  }

  /// Every assignment, in order.
  var assignments: [Assignment] {
    lines.compactMap { line in
      if case .assignment(let assignment) = line { return assignment }
      return nil
    }
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
    var condition: String?
    if let bracket = name.firstIndex(of: "[") {
      condition = String(name[bracket...])
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
      setting: name, condition: condition,
      value: String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self),
      range: valueStart..<valueEnd, line: line)
  }

  /// An `#include "path"` (or `#include? "path"`, which may be missing) line.
  struct Include: Sendable, Hashable {
    /// The path as written, relative to this file's folder unless absolute.
    public var path: String
    /// Whether a missing file is fine (`#include?`).
    var isOptional: Bool
    /// The 1-based line.
    public var line: Int
  }

  /// One line that matters, in file order.
  public enum Line: Sendable, Hashable {
    case assignment(Assignment)
    case include(Include)
  }

  /// Assignments and includes in file order: what an include brings in takes its place.
  public var lines: [Line] {
    var result: [Line] = []
    var lineStart = 0
    var number = 1
    while lineStart <= bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
      if let include = Self.include(bytes[lineStart..<lineEnd], line: number) {
        result.append(.include(include))
      } else if let assignment = Self.assignment(bytes, lineStart..<lineEnd, line: number) {
        result.append(.assignment(assignment))
      }
      lineStart = lineEnd + 1
      number += 1
    }
    return result
  }

  private static func include(_ line: ArraySlice<UInt8>, line number: Int) -> Include? {
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: [" ", "\t", "\r"])
    guard text.hasPrefix("#include") else { return nil }
    var rest = text.dropFirst("#include".count)
    let isOptional = rest.first == "?"
    if isOptional { rest = rest.dropFirst() }
    rest = rest.drop { $0 == " " || $0 == "\t" }
    guard let open = rest.first, open == "\"" || open == "<" else { return nil }
    let close: Character = open == "\"" ? "\"" : ">"
    rest = rest.dropFirst()
    guard let end = rest.firstIndex(of: close) else { return nil }
    return Include(path: String(rest[..<end]), isOptional: isOptional, line: number)
  }

  /// The last assignment of `setting` (the one that wins), if any.
  func assignment(of setting: String) -> Assignment? {
    assignments.last { $0.setting == setting }
  }
}
