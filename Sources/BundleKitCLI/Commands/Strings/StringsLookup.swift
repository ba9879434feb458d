import ArgumentParser
import BundleKitDiagnostics
import BundleKitLocalization
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit strings lookup KEY --in PATH [ARG...]`: the runtime's answer, formatted.
struct StringsLookup: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "lookup",
    abstract: "Print the localized string for a key, formatted, plurals resolved.",
    discussion: """
      PATH is a bundle or a folder of <lang>.lproj folders (compiled or text tables). \
      Without --language the environment decides (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). \
      Arguments are taken as the format asks: "3" for %d, "1.5" for %f, text for %@; a \
      plural count keeps its written form ("1.0" is not "1" in English).
      """
  )

  @Argument(help: "The key.")
  var key: String

  @Option(name: .customLong("in"), help: "A bundle, or a folder of <lang>.lproj folders.")
  var path: String

  @Option(help: "The table name.")
  var table = "Localizable"

  @Option(help: "The language (BCP 47 or Apple code: fr, pt-BR, pt_BR, zh-Hans).")
  var language: String?

  @OptionGroup var languageOptions: LanguageOptions

  @Argument(help: "Values for the placeholders, in order.")
  var arguments: [String] = []

  func run(_ run: ToolRun) throws {
    let strings = LocalizedStrings(
      path: path, developmentLanguage: languageOptions.developmentLanguage(in: run))
    guard !strings.availableLanguages.isEmpty else {
      throw ToolError.invalidValue(
        value: path, kind: "bundle", reason: "it holds no <lang>.lproj folder")
    }
    // A key no table has, or a format given fewer arguments than it takes, is an error:
    // the runtime would show the key or a bare placeholder to the user.
    let missing = MissingKey()
    strings.missingKeyHandler = { _, _, chain in missing.record(chain) }
    let text = strings.localized(key, table: table, language: language, arguments: arguments)
    if let chain = missing.chain {
      throw ToolError.lookup(
        key: key, path: path,
        message:
          "no \(table) table of \(chain.joined(separator: ", ")) has it (the app would show the key itself)"
      )
    }
    if let format = strings.rawValue(key, table: table, language: language) {
      let needed = FormatSignature(format).count
      if arguments.count < needed {
        throw ToolError.lookup(
          key: key, path: path,
          message:
            "\"\(format)\" takes \(needed) argument\(needed == 1 ? "" : "s"), \(arguments.count) given: add them after the key"
        )
      }
    }
    StandardStreams.printLine(text)
  }
}

/// The language chain of a key the lookup did not find, set from the runtime's handler.
private final class MissingKey: @unchecked Sendable {
  private let lock = NSLock()
  private var found: [String]?
  func record(_ chain: [String]) { lock.withLock { found = chain } }
  var chain: [String]? { lock.withLock { found } }
}
