import ArgumentParser
import Foundation
import Translation

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
    ]
  )
}

/// Runs the tool with BundleKit's exit codes: 0 success, 1 user error, 2 usage error.
@main
enum Main {
  static func main() async {
    do {
      var command = try BundleKitTranslate.parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch let error as ExitCode {
      exit(error.rawValue)
    } catch let error as TranslationError {
      Output.error(error.description)
      exit(1)
    } catch let error as ToolError {
      Output.error(error.description)
      exit(1)
    } catch {
      if BundleKitTranslate.exitCode(for: error) == .validationFailure {
        Output.printToStandardError(BundleKitTranslate.fullMessage(for: error))
        exit(2)
      }
      BundleKitTranslate.exit(withError: error)
    }
  }
}
