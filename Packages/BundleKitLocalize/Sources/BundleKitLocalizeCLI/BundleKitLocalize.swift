import ArgumentParser
import _BundleKitCommandLineTool

/// `bundlekit-localize`: what needs Swift's own parser (swift-syntax). `bundlekit strings
/// extract ...` runs it, so the `bundlekit` tool that plugins build carries no compiler
/// front end.
struct BundleKitLocalize: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundlekit strings",
    abstract: "Localizable strings found in Swift sources, as Xcode's extraction finds them.",
    version: "0.1.0",
    subcommands: [ExtractCommand.self, SyncCommand.self]
  )
}

/// Runs the tool with BundleKit's exit codes: 0 success, 1 user error, 2 usage error.
@main
enum Main {
  static func main() {
    ToolMain.run(BundleKitLocalize.self)
  }
}
