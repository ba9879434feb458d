/// Writes old-style ASCII property lists in the style of Xcode's project files: tabs,
/// strings quoted only when they must be, `<hex>` data. The format holds only strings,
/// data, arrays and dictionaries; any other value is an error naming its key path.
package struct OpenStepPropertyListWriter {
  private var output: [UInt8] = []

  static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
    var writer = OpenStepPropertyListWriter()
    try writer.write(value, depth: 0)
    writer.output.append(0x0A)
    return writer.output
  }

  private mutating func indent(_ depth: Int) {
    for _ in 0..<depth { output.append(0x09) }
  }

  private mutating func write(_ value: PropertyListValue, depth: Int) throws(PropertyListError) {
    switch value {
    case .string(let string):
      Self.appendString(string, to: &output)
    case .data(let data):
      output.append(UInt8(ascii: "<"))
      for (index, byte) in data.enumerated() {
        if index > 0, index % 4 == 0 { output.append(0x20) }
        output.append(contentsOf: hex(byte).utf8)
      }
      output.append(UInt8(ascii: ">"))
    case .array(let items):
      output.append(UInt8(ascii: "("))
      for (index, item) in items.enumerated() {
        output.append(0x0A)
        indent(depth + 1)
        do {
          try write(item, depth: depth + 1)
        } catch {
          throw error.nested(in: String(index))
        }
        if index < items.count - 1 { output.append(UInt8(ascii: ",")) }
      }
      if !items.isEmpty {
        output.append(0x0A)
        indent(depth)
      }
      output.append(UInt8(ascii: ")"))
    case .dictionary(let dictionary):
      output.append(UInt8(ascii: "{"))
      for (key, item) in dictionary {
        output.append(0x0A)
        indent(depth + 1)
        Self.appendString(key, to: &output)
        output.append(contentsOf: " = ".utf8)
        do {
          try write(item, depth: depth + 1)
        } catch {
          throw error.nested(in: key)
        }
        output.append(UInt8(ascii: ";"))
      }
      if !dictionary.isEmpty {
        output.append(0x0A)
        indent(depth)
      }
      output.append(UInt8(ascii: "}"))
    case .integer, .real, .bool, .date, .uid:
      throw .unrepresentable(path: nil, keyPath: "", type: value.typeName, format: .openstep)
    }
  }

  /// A string as an OpenStep token: unquoted when it can be, else quoted with escapes.
  package static func literal(_ string: String) -> [UInt8] {
    var output: [UInt8] = []
    appendString(string, to: &output)
    return output
  }

  /// A string, unquoted when every byte may stand unquoted, else quoted with escapes.
  static func appendString(_ string: String, to output: inout [UInt8]) {
    let utf8 = string.utf8
    if !utf8.isEmpty, utf8.allSatisfy(OpenStepScanner.isUnquotedCharacter) {
      output.append(contentsOf: utf8)
      return
    }
    output.append(UInt8(ascii: "\""))
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
      case 0x0A: output.append(contentsOf: "\\n".utf8)
      case 0x09: output.append(contentsOf: "\\t".utf8)
      case 0x0D: output.append(contentsOf: "\\r".utf8)
      case 0x00..<0x20, 0x7F:
        // Other control characters as three-digit octal escapes.
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(ascii: "0") + (byte >> 6))
        output.append(UInt8(ascii: "0") + (byte >> 3 & 7))
        output.append(UInt8(ascii: "0") + (byte & 7))
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
