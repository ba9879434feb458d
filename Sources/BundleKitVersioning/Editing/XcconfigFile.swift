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

  /// The largest `.xcconfig` read: real ones are a few kilobytes.
  static let maximumSize = 4 << 20

  /// Why `bytes` are not an `.xcconfig` file, with the line: a NUL byte, more than
  /// ``maximumSize``, or a line that is neither blank, a `//` comment, an `#include` nor a
  /// `SETTING[condition] = value` assignment (`[default]` of a credentials file, an
  /// environment block). Nil for an `.xcconfig`. A file that is no `.xcconfig` is never read
  /// as settings: an `#include` may name any file, and its values would be printed.
  static func contentProblem(_ bytes: [UInt8]) -> (line: Int, message: String)? {
    if bytes.count > maximumSize {
      return (
        1,
        "is \(bytes.count) bytes, more than an .xcconfig holds (\(maximumSize >> 20) MiB): not read as settings"
      )
    }
    var line = 1
    var start = 0
    while start <= bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A {
        if bytes[end] == 0 {
          return (line, "holds a NUL byte: not an .xcconfig file, not read as settings")
        }
        end += 1
      }
      if !isSettingsLine(bytes[start..<end]) {
        return (
          line,
          "line \(line) is neither a setting, an #include nor a comment: not an .xcconfig file, not read as settings"
        )
      }
      start = end + 1
      line += 1
    }
    return nil
  }

  /// Whether a line is blank, a comment, an `#include` or an assignment.
  private static func isSettingsLine(_ line: ArraySlice<UInt8>) -> Bool {
    let blank: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0C, 0x0B]
    guard let first = line.firstIndex(where: { !blank.contains($0) }) else { return true }
    let text = line[first...]
    if text.starts(with: "//".utf8) || text.starts(with: "#include".utf8) { return true }
    // SETTING, then [conditions], then `=`.
    var index = first
    while index < line.endIndex, isNameByte(line[index]) { index += 1 }
    guard index > first else { return false }
    while index < line.endIndex {
      let byte = line[index]
      if byte == UInt8(ascii: "=") { return true }
      if byte == UInt8(ascii: "[") {
        guard let close = line[index...].firstIndex(of: UInt8(ascii: "]")) else { return false }
        index = close + 1
        continue
      }
      guard blank.contains(byte) else { return false }
      index += 1
    }
    return false
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
      || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }

  /// The last assignment of `setting` (the one that wins), if any.
  func assignment(of setting: String) -> Assignment? {
    assignments.last { $0.setting == setting }
  }
}
