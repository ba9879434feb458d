import BundleKitDiagnostics
import BundleKitPropertyListCore
import BundleKitStringsTable
import Foundation

/// The `--config` file of a run: its ``StringsSettings`` (the schema, beside the strings
/// commands it configures), read from a bounded regular file, each refusal placed at its key's
/// line and column, a relative template path resolved from the file's folder. Its settings
/// read as its own (`configuration.pruneBelow`); an option given on the command line wins over
/// the file (``ToolRun/setting(_:_:)``), and `severities` from both apply, the command line's
/// last.
@dynamicMemberLookup
public struct ToolConfiguration: Sendable, Equatable {
  /// The file's settings.
  public var settings = StringsSettings()
  /// The file read, when there was one.
  public var file: String?

  /// ``StringsSettings/format`` as a choice; `load(_:)` refuses a name that is none.
  public var formatChoice: FormatChoice? { settings.format.flatMap(FormatChoice.init(rawValue:)) }

  /// A setting of the file.
  public subscript<Value>(dynamicMember key: KeyPath<StringsSettings, Value>) -> Value {
    settings[keyPath: key]
  }

  /// No settings: every option keeps its default.
  public init() {}

  /// Reads `path`. Malformed JSON is an error at its line and column; an unknown key or a
  /// value of the wrong type is an error at its key, every one of them at once.
  ///
  /// - Parameter path: The configuration file.
  /// - Returns: The settings, and warnings about the file (none today).
  public static func load(_ path: String) throws -> (ToolConfiguration, [Diagnostic]) {
    // Only a regular file of at most 1 MiB: a link to /dev/zero or a FIFO is not a
    // configuration, and reading one would never end.
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    guard let attributes else {
      throw DiagnosticsError([.error(path, "no configuration file here")])
    }
    guard attributes[.type] as? FileAttributeType == .typeRegular else {
      throw DiagnosticsError([.error(path, "a configuration is a regular file")])
    }
    guard (attributes[.size] as? NSNumber)?.intValue ?? 0 <= 1 << 20,
      let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20
    else {
      throw DiagnosticsError([.error(path, "a configuration file is at most 1 MiB")])
    }
    let bytes = Array(data)
    // Our JSON reader first: its errors have a line and column, and its depth is bounded.
    let checked = bytes.withUnsafeBytes { buffer -> Result<PropertyListValue, PropertyListError> in
      do throws(PropertyListError) {
        return .success(try PropertyListValue.decode(buffer, format: .json))
      } catch {
        return .failure(error)
      }
    }
    switch checked {
    case .success(let value) where value.dictionaryValue == nil:
      throw DiagnosticsError([.error(path, line: 1, column: 1, "a configuration is a JSON object")])
    case .success: break
    case .failure(let error): throw error.inFile(path)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    func located(_ key: String, _ message: String) -> Diagnostic {
      let (line, column) = position(ofKey: key, in: text)
      return Diagnostic(.error, path: path, line: line, column: column, message)
    }
    var configuration = ToolConfiguration()
    configuration.file = path
    do {
      configuration.settings = try JSONDecoder().decode(StringsSettings.self, from: data)
    } catch let refused as StringsSettings.Refusals {
      throw DiagnosticsError(refused.refusals.map { located($0.key, $0.message) })
    } catch {
      throw DiagnosticsError([.error(path, "not a configuration: \(error)")])
    }
    if let format = configuration.settings.format, FormatChoice(rawValue: format) == nil {
      throw DiagnosticsError([
        located(
          "format",
          "'format' must be one of \(FormatChoice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(format)\""
        )
      ])
    }
    if let template = configuration.settings.template {
      // A path is read from the configuration's folder; a bare name is a shipped template.
      let isPath = template.contains("/") || template.hasSuffix(".mustache")
      configuration.settings.template =
        isPath && !template.hasPrefix("/")
        ? URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(template)
          .path : template
    }
    return (configuration, [])
  }

  /// The 1-based line and column of `"key"` written as a key in `text`, or nil.
  static func position(ofKey key: String, in text: String) -> (Int?, Int?) {
    let quoted = "\"" + key + "\""
    var line = 1
    var column = 1
    var index = text.startIndex
    while index < text.endIndex {
      if text[index...].hasPrefix(quoted) {
        let after = text[text.index(index, offsetBy: quoted.count)...]
        if after.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first == ":" {
          return (line, column)
        }
      }
      if text[index] == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index = text.index(after: index)
    }
    return (nil, nil)
  }
}
