import ArgumentParser
import CommandLineTool
import Diagnostics
import Translation

/// `bundlekit translate index PATH... -o TM_FILE`.
struct TranslateIndex: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "Build a translation memory from .strings, .stringsdict and .xcstrings tables.",
    discussion: """
      PATH may be table files or folders (searched for <lang>.lproj tables and catalogs, text \
      or compiled; .build, .git and the like are skipped). The memory is one SQLite file, \
      replaced atomically: a failed build leaves the old one as it was.
      """
  )

  @Argument(help: "Table files or folders to read.")
  var paths: [String]

  @Option(name: [.customShort("o"), .customLong("output")], help: "The memory file to write.")
  var output: String

  @Option(help: "The language of the source texts for <lang>.lproj tables.")
  var developmentLanguage = "en"

  @Option(help: "The project (app) the tables belong to, for a memory shared by several.")
  var project = ""

  @OptionGroup var formatOptions: FormatOptions

  func run() throws {
    var builder = MemoryBuilder(developmentLanguage: developmentLanguage)
    builder.project = project
    let summary = try builder.build(from: paths, to: output)
    switch formatOptions.format {
    case .json: StandardStreams.printLine(try Output.json(summary))
    case .text:
      StandardStreams.printLine(
        "\(output): \(summary.translations) translations of \(summary.units) entries in "
          + "\(summary.languages.count) languages from \(summary.files) files")
    }
  }
}
