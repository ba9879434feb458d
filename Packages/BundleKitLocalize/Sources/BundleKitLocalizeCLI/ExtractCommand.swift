import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsExtraction
import BundleKitStringsTable
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit strings extract PATH... [--format text|json]`.
struct ExtractCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract",
    abstract: "List the localizable strings of Swift sources, as Xcode's extraction finds them.",
    discussion: """
      PATH may be .swift files or folders (searched, skipping .build, .git, DerivedData, Pods \
      and Carthage). Each string prints as file:line:col, its key (interpolations as the \
      specifiers Xcode writes: %lld, %@, %lf ...), table, default value and comment. An \
      interpolation whose type cannot be known is a warning naming the spelling that makes \
      it certain. The sources need not compile here.
      """
  )

  @Argument(help: "Swift files, or folders to search for them.")
  var paths: [String] = ["."]

  @OptionGroup var formatOptions: FormatOptions

  @Flag(help: "Fail (exit 1) when an interpolation's type is not known.")
  var strict = false

  func run(_ run: ToolRun) throws {
    let files = try SwiftSources.read(paths)
    let result = SwiftSources.extractor(for: paths).extract(
      files, context: SwiftSources.context(for: paths, files: files))
    // With --strict every finding fails the run.
    run.diagnostics.warningsAsErrors = strict
    run.diagnostics.emit(result.diagnostics)
    switch formatOptions.format(in: run) {
    case .text:
      var text = ""
      for string in result.strings {
        text += "\(string.file):\(string.line):\(string.column): \(StringsFile.literal(string.key))"
        if let table = string.table { text += " table \(table)" }
        if let value = string.defaultValue { text += " value \(StringsFile.literal(value))" }
        if let comment = string.comment { text += " // \(comment)" }
        text += "\n"
      }
      StandardStreams.writeToStandardOutput(Array(text.utf8))
      StandardStreams.printToStandardError(
        "\(result.strings.count) strings in \(files.count) Swift file\(files.count == 1 ? "" : "s")"
      )
    case .json:
      StandardStreams.writeJSON(result.strings)
    }
  }
}
