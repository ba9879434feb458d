import Foundation

/// Writes XML property lists byte for byte as Apple's tools do: the standard header and
/// DOCTYPE, tab indentation, `<true/>`, empty collections as `<dict/>`/`<array/>`, base64
/// data wrapped to 76 columns less the indentation, UTC dates.
struct XMLPropertyListWriter {
  private var output: [UInt8] = []

  static let header = Array(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """.utf8)

  static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
    var writer = XMLPropertyListWriter()
    writer.output.reserveCapacity(4096)
    writer.output.append(contentsOf: header)
    try writer.write(value, depth: 0)
    writer.output.append(contentsOf: "</plist>\n".utf8)
    return writer.output
  }

  private mutating func indent(_ depth: Int) {
    for _ in 0..<depth { output.append(0x09) }
  }

  private mutating func element(_ name: StaticString, _ body: (inout [UInt8]) -> Void) {
    output.append(UInt8(ascii: "<"))
    output.append(
      contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    output.append(UInt8(ascii: ">"))
    body(&output)
    output.append(contentsOf: "</".utf8)
    output.append(
      contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    output.append(contentsOf: ">\n".utf8)
  }

  private mutating func write(_ value: PropertyListValue, depth: Int) throws(PropertyListError) {
    indent(depth)
    switch value {
    case .string(let string):
      try writeEscaped("string", string)
    case .integer(let integer):
      element("integer") { $0.append(contentsOf: integer.description.utf8) }
    case .real(let real):
      element("real") { $0.append(contentsOf: Self.format(real).utf8) }
    case .bool(let bool):
      output.append(contentsOf: (bool ? "<true/>\n" : "<false/>\n").utf8)
    case .date(let date):
      element("date") { ISO8601.format(date, into: &$0) }
    case .data(let data):
      output.append(contentsOf: "<data>\n".utf8)
      // Apple wraps at 76 columns, counting each tab of indentation as 8.
      let lineLength = max(16, 76 - 8 * depth)
      let chunk = lineLength / 4 * 3
      var start = data.startIndex
      while start < data.endIndex {
        let end = data.index(start, offsetBy: chunk, limitedBy: data.endIndex) ?? data.endIndex
        indent(depth)
        Base64.encode(data[start..<end], into: &output)
        output.append(0x0A)
        start = end
      }
      indent(depth)
      output.append(contentsOf: "</data>\n".utf8)
    case .uid(let uid):
      output.append(contentsOf: "<dict>\n".utf8)
      indent(depth + 1)
      output.append(contentsOf: "<key>CF$UID</key>\n".utf8)
      indent(depth + 1)
      element("integer") { $0.append(contentsOf: String(uid).utf8) }
      indent(depth)
      output.append(contentsOf: "</dict>\n".utf8)
    case .array(let items):
      if items.isEmpty {
        output.append(contentsOf: "<array/>\n".utf8)
        return
      }
      output.append(contentsOf: "<array>\n".utf8)
      for (index, item) in items.enumerated() {
        do {
          try write(item, depth: depth + 1)
        } catch {
          throw error.nested(in: String(index))
        }
      }
      indent(depth)
      output.append(contentsOf: "</array>\n".utf8)
    case .dictionary(let dictionary):
      if dictionary.isEmpty {
        output.append(contentsOf: "<dict/>\n".utf8)
        return
      }
      output.append(contentsOf: "<dict>\n".utf8)
      for (key, item) in dictionary {
        do {
          indent(depth + 1)
          try writeEscaped("key", key)
          try write(item, depth: depth + 1)
        } catch {
          throw error.nested(in: key)
        }
      }
      indent(depth)
      output.append(contentsOf: "</dict>\n".utf8)
    }
  }

  /// Writes `<name>text</name>`, escaping `&`, `<`, `>` (and `\r`, which XML parsers would
  /// otherwise turn into `\n`). Control characters that XML 1.0 cannot carry are an error.
  private mutating func writeEscaped(_ name: StaticString, _ text: String) throws(PropertyListError)
  {
    var text = text
    var bad: UInt8?
    element(name) { output in
      text.withUTF8 { utf8 in
        var runStart = 0
        for (index, byte) in utf8.enumerated() where byte < 0x3F {
          let replacement: StaticString
          switch byte {
          case UInt8(ascii: "&"): replacement = "&amp;"
          case UInt8(ascii: "<"): replacement = "&lt;"
          case UInt8(ascii: ">"): replacement = "&gt;"
          case 0x0D: replacement = "&#13;"
          case 0x09, 0x0A: continue
          case 0x00..<0x20:
            bad = bad ?? byte
            continue
          default: continue
          }
          output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
          output.append(
            contentsOf: UnsafeBufferPointer(
              start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
          runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
      }
    }
    if let bad {
      let code = String(bad, radix: 16, uppercase: true)
      throw .invalidValue(
        path: nil, keyPath: "",
        message:
          "XML cannot carry the control character U+\(String(repeating: "0", count: 4 - code.count))\(code) in a \(name)"
      )
    }
  }

  /// Reals in the shortest form that reads back exactly; CoreFoundation's spellings for the
  /// non-finite values.
  static func format(_ real: Double) -> String {
    if real.isNaN { return "nan" }
    if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
    return real.description
  }
}
