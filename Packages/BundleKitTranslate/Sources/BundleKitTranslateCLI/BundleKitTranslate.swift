import ArgumentParser
import _BundleKitCommandLineTool

/// `bundlekit-translate`: the translation memory, its lookups and its server. `bundlekit
/// translate ...` runs it, so the `bundlekit` tool that plugins build carries no database
/// and no web server.
struct BundleKitTranslate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundlekit translate",
    abstract: "Translation memory from your own strings tables: index, look up, serve, fill.",
    version: "0.1.0",
    subcommands: [
      TranslateIndex.self, TranslateLookup.self, TranslateServe.self, TranslateFill.self,
      TranslateExport.self, TranslateImport.self, TranslateMigrate.self, TranslateKeys.self,
    ]
  )
}

/// Runs the tool with BundleKit's exit codes: 0 success, 1 user error, 2 usage error.
@main
enum Main {
  static func main() async {
    await ToolMain.run(BundleKitTranslate.self)
  }
}
