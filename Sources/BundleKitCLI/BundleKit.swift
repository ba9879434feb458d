import Archiving
import ArgumentParser
import FileSystem
import PropertyListXML
import Versioning

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    ]
  )
}

/// Runs the tool with BundleKit's exit codes: 0 success, 1 user error, 2 usage error.
@main
enum Main {
  static func main() {
    do {
      var command = try BundleKit.parseAsRoot()
      try command.run()
    } catch let error as ExitCode {
      exit(error.rawValue)
    } catch let error as CustomStringConvertible & Error
      where error is PropertyListError || error is CLIError || error is VersioningError
      || error is ArchiveError || error is MorseInputError || error is FileSystemError
    {
      Diagnostics.error(error.description)
      exit(1)
    } catch {
      let code = BundleKit.exitCode(for: error)
      if code == .validationFailure {
        Diagnostics.printToStandardError(BundleKit.fullMessage(for: error))
        exit(2)
      }
      BundleKit.exit(withError: error)
    }
  }
}
