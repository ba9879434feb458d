import ArgumentParser
import CommandLineTool
import Diagnostics
import Translation

/// `bundlekit translate import FILE.tmx|FILE.xliff ... --memory TM_FILE`.
struct TranslateImport: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Merge TMX or XLIFF files into a translation memory.",
    discussion: """
      TMX 1.4 from any tool (Translate Toolkit, OmegaT, Okapi, Weblate, this one) and XLIFF \
      1.2 (Xcode's exports, `bundlekit strings export`). Every file is checked first: a \
      malformed one is an error with its line and column, and the memory is not touched. An \
      imported value replaces the memory's for the same entry and language; the rest is \
      kept. The memory (created when missing) is replaced atomically.
      """
  )

  @Argument(help: "TMX (.tmx) or XLIFF (.xliff, .xlf) files.")
  var files: [String]

  @Option(help: "The memory to merge into.")
  var memory: String

  @OptionGroup var formatOptions: FormatOptions

  func run() throws {
    let summary = try MemoryExchange.importFiles(files, into: memory)
    switch formatOptions.format {
    case .json: StandardStreams.printLine(try Output.json(summary))
    case .text:
      StandardStreams.printLine(
        "\(memory): \(summary.translations) translations of \(summary.units) entries in "
          + "\(summary.languages.count) languages")
    }
  }
}
