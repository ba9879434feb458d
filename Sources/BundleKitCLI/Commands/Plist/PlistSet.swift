import ArgumentParser
import BundleKitFileSystem
import BundleKitPropertyList
import _BundleKitCommandLineTool

/// `bundlekit plist set FILE KEYPATH VALUE --type T`: edit one value in place.
struct PlistSet: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Set the value at a key path, keeping the file's format; written atomically.",
    discussion: """
      A missing last key is added at the end of its dictionary; an array index one past \
      the end appends. Without --type, an existing value keeps its type and VALUE is read \
      as that type (a bool stays a bool: true/false, yes/no, 1/0); a new value is a string. \
      --type changes the type on purpose: string, integer, real, bool, date (ISO 8601), \
      data (base64), or json for a whole array or dictionary given as JSON. The file is \
      read, edited and written under the folder lock `bump` takes, so concurrent edits all \
      land.
      """
  )

  @Argument(help: "The property list to edit.")
  var file: String

  @Argument(help: "The key path of the value.")
  var keyPath: String

  @Argument(help: "The new value, as text.")
  var value: String

  @Option(
    help:
      "The value's type: string, integer, real, bool, date, data or json (default: the existing value's type, else string)."
  )
  var type: ValueType?

  enum ValueType: String, ExpressibleByArgument, CaseIterable {
    case string, integer, real, bool, date, data, json
  }

  func run() throws {
    try PropertyListDocument.edit(file: file) { document in
      let path = PropertyListKeyPath(keyPath)
      let newValue = try parsedValue(existing: try? document.value.value(at: path))
      do throws(PropertyListError) {
        try document.value.setValue(newValue, at: path)
      } catch {
        throw error.inFile(file)
      }
    }
  }

  /// VALUE read as `--type`, else as the type of the value it replaces.
  private func parsedValue(existing: PropertyListValue?) throws -> PropertyListValue {
    let chosen: ValueType
    if let type {
      chosen = type
    } else if let existing {
      switch existing {
      case .string: chosen = .string
      case .integer: chosen = .integer
      case .real: chosen = .real
      case .bool: chosen = .bool
      case .date: chosen = .date
      case .data: chosen = .data
      case .array, .dictionary, .uid:
        throw PropertyListError.keyPath(
          path: file, keyPath: keyPath,
          message:
            "holds a \(existing.typeName): give --type json to replace it with a JSON value, or --type for another type"
        )
      }
    } else {
      chosen = .string
    }
    if chosen == .json {
      do throws(PropertyListError) {
        return try PropertyListValue(bytes: Array(value.utf8), format: .json)
      } catch {
        throw ToolError.invalidValue(value: value, kind: "JSON value", reason: error.message)
      }
    }
    guard let scalarType = PropertyListScalarType(rawValue: chosen.rawValue) else {
      return .string(value)
    }
    switch PropertyListValue.parse(value, as: scalarType) {
    case .success(let parsed): return parsed
    case .failure(let failure):
      guard type == nil else {
        throw ToolError.invalidValue(value: value, kind: chosen.rawValue, reason: failure.reason)
      }
      throw PropertyListError.keyPath(
        path: file, keyPath: keyPath,
        message:
          "holds a \(chosen.rawValue) and '\(value)' is not one (\(failure.reason)); --type changes the type"
      )
    }
  }
}
