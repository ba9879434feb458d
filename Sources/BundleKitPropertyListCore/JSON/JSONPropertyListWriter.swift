/// Writes property lists as JSON, keys in order. Dates, data, UIDs and non-finite reals have
/// no JSON form: an error names the key path.
struct JSONPropertyListWriter {
  private var output: [UInt8] = []
  private let pretty: Bool

  static func write(_ value: PropertyListValue, pretty: Bool) throws(PropertyListError) -> [UInt8] {
    var writer = JSONPropertyListWriter(pretty: pretty)
    try writer.write(value, depth: 0)
    writer.output.append(0x0A)
    return writer.output
  }

  private init(pretty: Bool) { self.pretty = pretty }

  private mutating func newline(_ depth: Int) {
    guard pretty else { return }
    output.append(0x0A)
    for _ in 0..<depth { output.append(contentsOf: "  ".utf8) }
  }

  private mutating func write(_ value: PropertyListValue, depth: Int) throws(PropertyListError) {
    switch value {
    case .string(let string):
      Self.appendString(string, to: &output)
    case .integer(let integer):
      output.append(contentsOf: integer.description.utf8)
    case .real(let real):
      guard real.isFinite else {
        throw .invalidValue(path: nil, keyPath: "", message: "JSON cannot hold the real \(real)")
      }
      output.append(contentsOf: real.description.utf8)
    case .bool(let bool):
      output.append(contentsOf: (bool ? "true" : "false").utf8)
    case .date, .data, .uid:
      throw .unrepresentable(path: nil, keyPath: "", type: value.typeName, format: .json)
    case .array(let items):
      output.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        do {
          try write(item, depth: depth + 1)
        } catch {
          throw error.nested(in: String(index))
        }
      }
      if !items.isEmpty { newline(depth) }
      output.append(UInt8(ascii: "]"))
    case .dictionary(let dictionary):
      output.append(UInt8(ascii: "{"))
      var first = true
      for (key, item) in dictionary {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        newline(depth + 1)
        Self.appendString(key, to: &output)
        output.append(contentsOf: (pretty ? ": " : ":").utf8)
        do {
          try write(item, depth: depth + 1)
        } catch {
          throw error.nested(in: key)
        }
      }
      if !dictionary.isEmpty { newline(depth) }
      output.append(UInt8(ascii: "}"))
    }
  }

  static func appendString(_ string: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
      case 0x0A: output.append(contentsOf: "\\n".utf8)
      case 0x0D: output.append(contentsOf: "\\r".utf8)
      case 0x09: output.append(contentsOf: "\\t".utf8)
      case 0x00..<0x20:
        output.append(contentsOf: "\\u00".utf8)
        output.append(contentsOf: hex(byte).utf8)
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
