import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// Renders values for people, in the style of `plutil -p`.
enum ValuePrinter {
  /// The whole value, indented by two spaces per level.
  static func render(_ value: PropertyListValue) -> String {
    var output = ""
    render(value, depth: 0, into: &output)
    output.append("\n")
    return output
  }

  private static func render(_ value: PropertyListValue, depth: Int, into output: inout String) {
    let indent = String(repeating: "  ", count: depth + 1)
    let closing = String(repeating: "  ", count: depth)
    switch value {
    case .string(let string): output.append(quoted(string))
    case .data(let data):
      let prefix = data.prefix(24).map { String(format: "%02x", $0) }.joined()
      output.append("{length = \(data.count), bytes = 0x\(prefix)\(data.count > 24 ? "..." : "")}")
    case .uid(let uid): output.append("<CFKeyedArchiverUID>{value = \(uid)}")
    case .array(let items):
      output.append("[\n")
      for (index, item) in items.enumerated() {
        output.append("\(indent)\(index) => ")
        render(item, depth: depth + 1, into: &output)
        output.append("\n")
      }
      output.append("\(closing)]")
    case .dictionary(let dictionary):
      output.append("{\n")
      for (key, item) in dictionary {
        output.append("\(indent)\(quoted(key)) => ")
        render(item, depth: depth + 1, into: &output)
        output.append("\n")
      }
      output.append("\(closing)}")
    default:
      output.append(value.scalarText ?? "")
    }
  }

  private static func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result.append("\\\"")
      case "\\": result.append("\\\\")
      case "\n": result.append("\\n")
      case "\t": result.append("\\t")
      case "\r": result.append("\\r")
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
