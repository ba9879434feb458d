import ArgumentParser
import BundleKitDiagnostics
import Foundation

/// `bundlekit translate index|lookup|serve|fill ...`: runs `bundlekit-translate`, found beside
/// this tool, with the same arguments. The memory needs SQLite and the server Hummingbird;
/// keeping them in their own executable keeps `bundlekit`, which every plugin user builds,
/// free of both.
struct TranslateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "translate",
    abstract: "Translation memory from your own tables: index, lookup, serve, fill.",
    discussion: """
      Runs bundlekit-translate from the folder of this tool, or from PATH. It lives in a \
      package of its own, so plugin users never build its database and server: build it with \
      `swift build -c release --package-path Packages/BundleKitTranslate` (which builds \
      bundlekit beside it too). `bundlekit translate --help` shows its subcommands.
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "The subcommand and its arguments.")
  var arguments: [String] = []

  /// The helper that does the work.
  static let helper = HelperTool(
    name: "bundlekit-translate", package: "Packages/BundleKitTranslate",
    command: "bundlekit translate")

  /// The subcommands, for `--help` when the helper is not there to print its own.
  static let overview = """
    OVERVIEW: Translation memory from your own tables: index, lookup, serve, fill.

    USAGE: bundlekit translate <subcommand>

    SUBCOMMANDS:
      index    Build a translation memory from .strings, .stringsdict and .xcstrings tables.
      lookup   Translate a text, or look a key up, from a memory.
      serve    Serve a memory over HTTP, LibreTranslate-compatible.
      fill     Fill missing translations in a package's tables.
      export   Write a translation memory as TMX 1.4b, for other memory tools.
      import   Merge TMX or XLIFF files into a translation memory.
      migrate  Bring a translation memory made by an older version to the current schema.
      keys     Manage the API keys a served PostgreSQL memory takes for writes.

    """

  func run() throws {
    let asksForHelp =
      arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"]
      || arguments == ["help"]
    try Self.helper.run(
      arguments.isEmpty ? ["--help"] : arguments, asksForHelp: asksForHelp, overview: Self.overview)
  }
}
