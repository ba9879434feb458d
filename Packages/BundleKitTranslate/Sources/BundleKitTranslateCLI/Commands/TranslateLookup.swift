import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit translate lookup TEXT --to LANG [--from LANG] --memory TM_FILE`.
struct TranslateLookup: AsyncToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "lookup",
    abstract: "Translate a text (or look up a key) from a translation memory.",
    discussion: """
      Text output: the best translation alone on the first line, then the other candidates, \
      one per line, tab-separated with their table, key, kind and score. A text nobody has a \
      translation for is printed as it is (a note goes to standard error). With --key, TEXT \
      is a key: every language's value, or --to's.
      """
  )

  @Argument(help: "The text to translate (or, with --key, the key).")
  var text: String

  @Option(help: "The language to translate into (en-GB, pt_BR, zh-Hans ...).")
  var to: String?

  @Option(help: "The language TEXT is in; any (development language first) when omitted.")
  var from: String?

  @OptionGroup var location: MemoryLocation

  @Flag(help: "Look TEXT up as a key instead of a source text.")
  var key = false

  @Option(help: "With --key: the table.")
  var table: String?

  @Option(help: "Look only at this project's entries (a memory shared by several apps).")
  var project: String?

  @Option(help: "The lowest similarity a fuzzy match may have (0-1).")
  var minimumScore = 0.6

  @Flag(help: "Exact and normalised matches only.")
  var noFuzzy = false

  @Option(help: "A LibreTranslate server to ask when the memory has no translation.")
  var provider: String?

  @OptionGroup var formatOptions: FormatOptions

  func validate() throws {
    if !key, to == nil { throw ValidationError("--to is required to translate a text") }
    guard (0...1).contains(minimumScore) else {
      throw ValidationError("--minimum-score must be between 0 and 1")
    }
  }

  func run(_ run: ToolRun) async throws {
    try await location.withMemory { memory in try await lookUp(in: memory, run) }
  }

  private func lookUp(in memory: TranslationMemory, _ run: ToolRun) async throws {
    if key {
      let records = try await memory.records(
        forKey: text, table: table, language: to, project: project)
      switch formatOptions.format(in: run) {
      case .json: StandardStreams.writeJSON(records)
      case .text:
        guard !records.isEmpty else {
          run.diagnostics.emit(.error(memory.path, "no key \"\(text)\""))
          return
        }
        for record in records {
          let variant = record.variant.isEmpty ? "" : "[\(record.variant)]"
          StandardStreams.printLine(
            "\(record.language)\t\(record.table)\(variant)\t\(record.value)")
        }
      }
      return
    }
    let target = to ?? memory.developmentLanguage
    let matches = try await memory.matches(
      for: text, to: target, from: from, fuzzy: !noFuzzy, minimumScore: minimumScore,
      project: project)
    // The development language's text stands in only when that is the language asked for.
    let translated = matches.filter { memory.isTranslation($0, into: target) }
    var remote: String?
    if translated.isEmpty, let provider {
      guard let url = URL(string: provider), url.scheme != nil else {
        throw ToolError.invalidValue(value: provider, kind: "--provider", reason: "not a URL")
      }
      let client = LibreTranslateClient(configuration: .init(baseURL: url))
      do {
        remote = try await client.translate(text, from: from ?? "auto", to: target)
      } catch {
        run.diagnostics.emit(Diagnostic.of(error).map { $0.with(severity: .warning) })
      }
    }
    switch formatOptions.format(in: run) {
    case .json:
      struct Answer: Encodable {
        var text: String
        var translation: String
        var origin: String
        var candidates: [TranslationMatch]
      }
      let best = remote ?? translated.first?.translation ?? text
      let origin = remote != nil ? "remote" : translated.isEmpty ? "untranslated" : "memory"
      StandardStreams.writeJSON(
        Answer(text: text, translation: best, origin: origin, candidates: translated))
    case .text:
      if let remote {
        StandardStreams.printLine(remote)
        return
      }
      guard let best = translated.first else {
        StandardStreams.printLine(text)
        run.diagnostics.emit([
          Diagnostic(.note, path: memory.path, "no translation into \(target)")
        ])
        return
      }
      StandardStreams.printLine(best.translation)
      for match in translated.dropFirst() {
        StandardStreams.printLine(
          "\(match.translation)\t\(match.record.table):\(match.record.key)\t\(match.kind.rawValue) "
            + String(format: "%.2f", match.score))
      }
    }
  }
}
