import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit strings pseudo PATH... --style accented|long|rtl [--language qps-ploc]`.
struct StringsPseudo: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "pseudo",
    abstract: "Write a pseudo-language from the development language's tables.",
    discussion: """
      Beside each development-language table, <language>.lproj/<Table>.strings and \
      .stringsdict with every text transformed (accented: [Šéţţîñĝš]; long: accented and 40% \
      longer; rtl: text in right-to-left overrides); each catalog gains the language, every \
      unit translated. Placeholders, plural forms and keys are kept, so the tables lint as \
      the development language does. All files are written as one batch, or none.
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String] = ["."]

  @Option(help: "accented, long or rtl.")
  var style: Pseudolocalizer.Style = .accented

  @Option(help: "The pseudo-language's code.")
  var language = "qps-ploc"

  @OptionGroup var languageOptions: LanguageOptions

  @Flag(help: "Print the files that would be written, and write none.")
  var dryRun = false

  func validate() throws {
    let allowed = language.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || $0 == "-" || $0 == "_"
    }
    guard allowed, !language.isEmpty else { throw Self.notAPseudoLanguage(language) }
  }

  static func notAPseudoLanguage(_ language: String) -> ValidationError {
    ValidationError(
      "--language must be a language code other than the development language, not '\(language)'"
    )
  }

  func run(_ run: ToolRun) throws {
    // Here, not in validate(): the development language may come from the --config file,
    // which is read once the command line is parsed.
    let developmentLanguage = languageOptions.developmentLanguage(in: run)
    guard language != developmentLanguage else { throw Self.notAPseudoLanguage(language) }
    let locations = try TableDiscovery.tables(in: paths)
    let loaded = StringsTableSet.load(locations)
    if !loaded.diagnostics.isEmpty { throw DiagnosticsError(loaded.diagnostics) }
    let outputs = try Pseudolocalizer(style: style).outputs(
      for: loaded, language: language,
      developmentLanguage: developmentLanguage)
    if !dryRun {
      for output in outputs { try FileIO.createFolders(for: output.path) }
      try FileIO.writeAtomically(outputs.map { FileWrite(path: $0.path, bytes: $0.bytes) })
    }
    for output in outputs { StandardStreams.printLine(output.path) }
    StandardStreams.printToStandardError(
      "\(language) (\(style.rawValue)): \(outputs.count) file\(outputs.count == 1 ? "" : "s")\(dryRun ? " would be" : "") written"
    )
  }
}

extension Pseudolocalizer.Style: ExpressibleByArgument {}
