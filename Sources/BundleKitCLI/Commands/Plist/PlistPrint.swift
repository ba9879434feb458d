import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import _BundleKitCommandLineTool

/// `bundlekit plist print FILE`: the whole value, for people or as JSON.
struct PlistPrint: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "print",
    abstract: "Print a property list in a readable form (like plutil -p)."
  )

  @Argument(help: "The property list to print ('-' for standard input).")
  var file: String

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) throws {
    let document = try PropertyListDocument(contentsOfFile: file)
    switch formatOptions.format(in: run) {
    case .text:
      StandardStreams.writeToStandardOutput(Array(ValuePrinter.render(document.value).utf8))
    case .json:
      do {
        StandardStreams.writeToStandardOutput(try document.value.encoded(as: .json))
      } catch {
        throw error.inFile(file)
      }
    }
  }
}
