import ArgumentParser
import PropertyList

/// `bundlekit plist set FILE KEYPATH VALUE --type T`: edit one value in place.
struct PlistSet: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Set the value at a key path, keeping the file's format; written atomically.",
    discussion: """
      A missing last key is added at the end of its dictionary; an array index one past \
      the end appends. Types: string (default), integer, real, bool, date (ISO 8601), \
      data (base64), and json for a whole array or dictionary given as JSON.
      """
  )

  @Argument(help: "The property list to edit.")
  var file: String

  @Argument(help: "The key path of the value.")
  var keyPath: String

  @Argument(help: "The new value, as text.")
  var value: String

  @Option(help: "The value's type: string, integer, real, bool, date, data or json.")
  var type: ValueType = .string

  enum ValueType: String, ExpressibleByArgument, CaseIterable {
    case string, integer, real, bool, date, data, json
  }

  func run() throws {
    var document = try PropertyListDocument(contentsOfFile: file)
    let newValue: PropertyListValue
    if type == .json {
      do {
        newValue = try PropertyListValue(bytes: Array(value.utf8), format: .json)
      } catch {
        throw CLIError.invalidValue(value: value, type: "JSON value", reason: error.message)
      }
    } else if let scalarType = PropertyListScalarType(rawValue: type.rawValue) {
      switch PropertyListValue.parse(value, as: scalarType) {
      case .success(let parsed): newValue = parsed
      case .failure(let failure):
        throw CLIError.invalidValue(value: value, type: type.rawValue, reason: failure.reason)
      }
    } else {
      newValue = .string(value)
    }
    do {
      try document.value.setValue(newValue, at: KeyPath(keyPath))
    } catch {
      throw error.inFile(file)
    }
    try document.write(toFile: file)
  }
}
