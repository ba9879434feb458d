import ArgumentParser
import CommandLineTool
import Diagnostics
import Translation

/// `bundlekit translate export --tmx FILE --memory TM_FILE`.
struct TranslateExport: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a translation memory as TMX 1.4b, for other memory tools.",
    discussion: """
      One <tu> per entry with its project, table, key and form as <prop>s, one <tuv> per \
      language (the development language first), comments as notes; `import` reads it back \
      without loss. The file is replaced atomically.
      """
  )

  @Option(help: "The TMX file to write.")
  var tmx: String

  @Option(help: "The memory to export.")
  var memory: String

  func run() throws {
    let entries = try MemoryExchange.exportTMX(
      memory: memory, to: tmx, toolVersion: BundleKitTranslate.configuration.version)
    StandardStreams.printLine("\(tmx): \(entries) entries")
  }
}
