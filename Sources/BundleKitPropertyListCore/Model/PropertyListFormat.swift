/// The on-disk formats of a property list.
///
/// The raw values are the names `plutil -convert` takes.
public enum PropertyListFormat: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Apple's XML format (`<?xml ... <plist version="1.0">`).
  case xml1
  /// The binary `bplist00` format.
  case binary1
  /// The old-style ASCII format of NeXTSTEP/OpenStep (`{ key = value; }`), also used by
  /// `.strings` files and Xcode's `project.pbxproj`.
  case openstep
  /// JSON. Dates, data and UIDs have no JSON form.
  case json

  /// The format name.
  public var description: String { rawValue }

  /// Guesses the format from the first bytes of a file.
  ///
  /// Binary is recognised by its magic number, XML by a leading `<` (after an optional byte
  /// order mark and white space), JSON by a leading `[`, and a leading `{` is JSON when the
  /// first key is followed by `:`. Everything else is read as OpenStep, which also covers
  /// `.strings` files.
  public static func detect<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> PropertyListFormat {
    if let format = bytes.withContiguousStorageIfAvailable({
      detect(UnsafeRawBufferPointer($0))
    }) {
      return format
    }
    return Array(bytes).withUnsafeBytes { detect($0) }
  }

  /// Guesses the format from the first bytes of a file held in memory, as the generic
  /// `detect` does, on a concrete type: the generic one, called from another module, runs
  /// unspecialised (a third of a small file's read went there).
  public static func detect(_ bytes: UnsafeRawBufferPointer) -> PropertyListFormat {
    if bytes.starts(with: "bplist".utf8) { return .binary1 }
    var rest = bytes[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    // UTF-16 text is XML (libxml2 decodes it) or OpenStep (decoded by the OpenStep reader).
    if rest.starts(with: [0xFE, 0xFF]) || rest.starts(with: [0xFF, 0xFE]) {
      let probe = rest.dropFirst(2).prefix(64).filter { $0 != 0 && !isSpace($0) }
      return probe.first == UInt8(ascii: "<") ? .xml1 : .openstep
    }
    rest = rest.drop(while: isSpace)
    guard let first = rest.first else { return .openstep }
    switch first {
    case UInt8(ascii: "<"):
      // `<` also opens OpenStep data (`<0fbd77>`) at the top level; XML is far more likely.
      let next = rest.dropFirst().first
      if let next, isHexDigit(next) || isSpace(next) || next == UInt8(ascii: ">") {
        return .openstep
      }
      return .xml1
    case UInt8(ascii: "["):
      return .json
    case UInt8(ascii: "{"):
      // JSON when the first key is a quoted string followed by `:`, or the object is empty
      // and nothing else follows.
      var cursor = rest.dropFirst().drop(while: isSpace)
      if cursor.first == UInt8(ascii: "}") {
        return cursor.dropFirst().allSatisfy(isSpace) ? .json : .openstep
      }
      guard cursor.first == UInt8(ascii: "\"") else { return .openstep }
      cursor = cursor.dropFirst()
      var escaped = false
      while let byte = cursor.first {
        cursor = cursor.dropFirst()
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          break
        }
      }
      return cursor.drop(while: isSpace).first == UInt8(ascii: ":") ? .json : .openstep
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
      // A bare number is JSON; OpenStep would read it as a string.
      return .json
    default:
      if rest.starts(with: "true".utf8) || rest.starts(with: "false".utf8)
        || rest.starts(with: "null".utf8)
      {
        return .json
      }
      return .openstep
    }
  }

  /// The format a file name's extension suggests for writing, if any.
  public static func forExtension(_ pathExtension: String) -> PropertyListFormat? {
    switch pathExtension.lowercased() {
    case "json": .json
    case "xml": .xml1
    default: nil
    }
  }
}

@inlinable @inline(__always)
package func isSpace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

@inline(__always)
func isHexDigit(_ byte: UInt8) -> Bool {
  (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
}
