import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import BundleKitTranslationPostgres
import _BundleKitCommandLineTool

/// `bundlekit translate export --tmx FILE --memory TM_FILE`.
struct TranslateExport: AsyncParsableCommand {
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

  @OptionGroup var location: MemoryLocation

  func run() async throws {
    let version = BundleKitTranslate.configuration.version
    let entries: Int
    if let postgres = try location.postgres() {
      let (records, language) = try await postgres.running { try await $0.records() }
      entries = try MemoryExchange.exportTMX(
        records: records, sourceLanguage: language, to: tmx, toolVersion: version)
    } else {
      entries = try MemoryExchange.exportTMX(
        memory: location.memory ?? "", to: tmx, toolVersion: version)
    }
    StandardStreams.printLine("\(tmx): \(entries) entries")
  }
}
