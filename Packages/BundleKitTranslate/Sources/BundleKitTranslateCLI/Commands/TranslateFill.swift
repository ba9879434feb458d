import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit translate fill PACKAGE_DIR --to de,fr [--provider URL]`.
struct TranslateFill: AsyncToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "fill",
    abstract: "Fill missing translations in a package's tables from a memory or a provider.",
    discussion: """
      For each language in --to, every key of the development language's .strings and \
      .stringsdict tables and every catalog entry that the language lacks is filled: from the \
      package's own tables (the same text translated elsewhere), then from --memory files, \
      then from the LibreTranslate server at --provider. Filled entries are marked for review \
      (a comment in .strings and XML .stringsdict, `needs_review` in .xcstrings). Files keep \
      their encoding and format and are written atomically, all or none. Exit 1 when some \
      entries stay missing (listed on standard error).
      """
  )

  @Argument(help: "The package folder (or any folder of tables).")
  var package: String

  @Option(help: "The languages to fill, comma-separated (de,fr,pt-BR).")
  var to: String

  @Option(help: "A translation memory to draw from (repeatable).")
  var memory: [String] = []

  @Option(help: "A LibreTranslate server to ask for what no memory has.")
  var provider: String?

  @Option(help: "The language of the source tables.")
  var developmentLanguage = "en"

  @Flag(help: "Print what would be filled; write nothing.")
  var dryRun = false

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) async throws {
    var remote: LibreTranslateClient?
    if let provider {
      guard let url = URL(string: provider), url.scheme == "http" || url.scheme == "https" else {
        throw ToolError.invalidValue(
          value: provider, kind: "--provider", reason: "not an http URL")
      }
      remote = LibreTranslateClient(configuration: .init(baseURL: url))
    }
    let languages = to.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard !languages.isEmpty, languages.allSatisfy({ !$0.isEmpty }) else {
      throw ToolError.invalidValue(
        value: to, kind: "--to", reason: "expected languages like de,fr")
    }
    let filler = TableFiller(
      developmentLanguage: developmentLanguage, memoryPaths: memory, remote: remote)
    let plan = try await filler.plan(package: package, languages: languages)
    if !dryRun { try TableFiller.write(plan) }
    switch formatOptions.format(in: run) {
    case .json:
      struct Report: Encodable {
        var written: [String]
        var filled: [FilledEntry]
        var unfilled: [UnfilledEntry]
      }
      StandardStreams.writeJSON(
        Report(
          written: dryRun ? [] : plan.changes.map(\.path), filled: plan.filled,
          unfilled: plan.unfilled))
    case .text:
      for entry in plan.filled {
        let variant = entry.variant.isEmpty ? "" : " [\(entry.variant)]"
        StandardStreams.printLine(
          "\(entry.path): \(entry.key)\(variant) = \(entry.value) (\(entry.origin.rawValue))")
      }
      let verb = dryRun ? "would fill" : "filled"
      StandardStreams.printLine(
        "\(verb) \(plan.filled.count) texts in \(plan.changes.count) files; "
          + "\(plan.unfilled.count) entries left missing")
    }
    // An entry left missing fails the run: printed in text, listed in the JSON.
    let unfilled = plan.unfilled.map {
      Diagnostic.error($0.path, "\($0.key) (\($0.language)) not filled: \($0.reason)")
    }
    if formatOptions.format(in: run) == .json {
      run.diagnostics.record(unfilled)
    } else {
      run.diagnostics.emit(unfilled)
    }
  }
}
