import ArgumentParser
import BundleKitStringsTable
import _BundleKitCommandLineTool

/// `bundlekit`: Xcode's build-and-localisation chores for every SwiftPM user.
struct BundleKit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundlekit",
    abstract: "Property lists, strings tables, versions and resource archives, on Linux and macOS.",
    version: "0.1.0",
    subcommands: [
      PlistCommand.self, StringsCommand.self, VersionCommand.self, BumpCommand.self,
      BuildInfoCommand.self, ArchiveCommand.self, EmbedCommand.self, BundleCommand.self,
      ScanCommand.self, ReleaseCommand.self, MorseCommand.self, TranslateCommand.self,
      RecoverCommand.self,
    ]
  )

  /// `bundlekit --config FILE SUBCOMMAND ...`: the file applies to the subcommand.
  @OptionGroup var configurationOptions: ConfigurationOptions
}

/// Runs the tool with BundleKit's exit codes: 0 success, 1 user error, 2 usage error.
@main
enum Main {
  static func main() {
    ToolMain.run(
      BundleKit.self, hints: RefusalHints.all,
      rules: Dictionary(
        uniqueKeysWithValues: StringsRule.allCases.map { ($0.rawValue, $0.summary) }),
      epilogue: RecoverCommand.reportPending, plainParse: PlainCommandLine.command)
  }
}
