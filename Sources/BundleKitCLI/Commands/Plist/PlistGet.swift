import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import _BundleKitCommandLineTool

/// `bundlekit plist get FILE KEYPATH`: one value.
struct PlistGet: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "get",
    abstract: "Print the value at a key path.",
    discussion: """
      Key paths are written as plutil writes them (CFBundleURLTypes.0.CFBundleURLSchemes, \\. \
      for a literal dot) or as PlistBuddy writes them (:CFBundleURLTypes:0). Scalars print \
      bare: strings as they are, dates in ISO 8601, data in base64. Arrays and dictionaries \
      print readably, or in the format given with --format.
      """
  )

  @Argument(help: "The property list ('-' for standard input).")
  var file: String

  @Argument(help: "The key path of the value.")
  var keyPath: String

  @Option(help: "Output: text, json, xml1 or openstep.")
  var format: GetFormat = .text

  enum GetFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, xml1, openstep
  }

  func run() throws {
    let document = try PropertyListDocument(contentsOfFile: file)
    let value: PropertyListValue
    do {
      value = try document.value.value(at: PropertyListKeyPath(keyPath))
    } catch {
      throw error.inFile(file)
    }
    do {
      switch format {
      case .text:
        let text = value.scalarText.map { $0 + "\n" } ?? ValuePrinter.render(value)
        StandardStreams.writeToStandardOutput(Array(text.utf8))
      case .json:
        StandardStreams.writeToStandardOutput(try value.encoded(as: .json))
      case .xml1:
        StandardStreams.writeToStandardOutput(try value.encoded(as: .xml1))
      case .openstep:
        StandardStreams.writeToStandardOutput(try value.encoded(as: .openstep))
      }
    } catch {
      throw error.inFile(file)
    }
  }
}
