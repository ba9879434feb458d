import ArgumentParser
import PropertyList
import StringsTable

/// `bundlekit strings compile PATH... --output-dir DIR`.
struct StringsCompile: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compile",
    abstract: "Compile strings tables to binary property lists, keeping the <lang>.lproj layout.",
    discussion: """
      .strings and .stringsdict files become binary plists at DIR/<lang>.lproj/<name>. A \
      String Catalog (.xcstrings) becomes DIR/<lang>.lproj/<Table>.strings and .stringsdict \
      for every language it has; untranslated keys fall back to the source language. Any \
      error (syntax, invalid plural rules, unusable placeholders) stops the run before \
      anything is written.
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String]

  @Option(help: "Where to write the compiled tables.")
  var outputDir: String

  @Option(help: "The language the others are compared with.")
  var developmentLanguage = "en"

  @Flag(help: "Also print warnings (missing translations, duplicates ...).")
  var warnings = false

  @Flag(help: "List the files written.")
  var verbose = false

  func run() throws {
    do {
      let locations = try TableDiscovery.tables(in: paths)
      LargeHeap.restartIfWorthIt(inputBytes: LargeHeap.totalSize(of: locations.map(\.path)))
      let compiler = StringsCompiler(developmentLanguage: developmentLanguage)
      let (written, found) = try compiler.compile(locations, into: outputDir)
      if warnings { found.forEach { Diagnostics.printToStandardError($0.description) } }
      if verbose { written.forEach { Diagnostics.printLine($0) } }
    } catch {
      for diagnostic in error.diagnostics where diagnostic.severity == .error || warnings {
        Diagnostics.printToStandardError(diagnostic.description)
      }
      throw ExitCode(1)
    }
  }
}
