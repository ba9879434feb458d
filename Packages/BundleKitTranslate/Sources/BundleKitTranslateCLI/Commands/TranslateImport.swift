import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import BundleKitTranslationPostgres
import _BundleKitCommandLineTool

/// `bundlekit translate import FILE.tmx|FILE.xliff ... --memory TM_FILE`.
struct TranslateImport: AsyncToolCommand {
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

  @OptionGroup var location: MemoryLocation

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) async throws {
    let summary: MemoryBuilder.Summary
    if let postgres = try location.postgres() {
      let imported = try MemoryExchange.records(inFiles: files)
      let count = files.count
      summary = try await postgres.running {
        try await $0.write(
          imported.records, developmentLanguage: imported.sourceLanguage ?? "en",
          replacingProject: nil, files: count)
      }
    } else {
      summary = try MemoryExchange.importFiles(files, into: location.memory ?? "")
    }
    let memory = location.name
    switch formatOptions.format(in: run) {
    case .json: StandardStreams.writeJSON(summary)
    case .text:
      StandardStreams.printLine(
        "\(memory): \(summary.translations) translations of \(summary.units) entries in "
          + "\(summary.languages.count) languages")
    }
  }
}
