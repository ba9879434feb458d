import ArgumentParser
import Diagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// The helper's name.
  static let helperName = "bundlekit-translate"

  /// The subcommands, for `--help` when the helper is not there to print its own.
  static let overview = """
    OVERVIEW: Translation memory from your own tables: index, lookup, serve, fill.

    USAGE: bundlekit translate <subcommand>

    SUBCOMMANDS:
      index    Build a translation memory from .strings, .stringsdict and .xcstrings tables.
      lookup   Translate a text, or look a key up, from a memory.
      serve    Serve a memory over HTTP, LibreTranslate-compatible.
      fill     Fill missing translations in a package's tables.

    """

  func run() throws {
    let asksForHelp =
      arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"]
      || arguments == ["help"]
    let helper: String
    do {
      helper = try Self.helperPath()
    } catch {
      // Help works without the helper, and says how to get it.
      guard asksForHelp else { throw error }
      StandardStreams.writeToStandardOutput(
        Array((Self.overview + "NOTE: \(Self.howToGet)\n").utf8))
      return
    }
    let argv = [helper] + (arguments.isEmpty ? ["--help"] : arguments)
    var cArguments = argv.map { strdup($0) }
    cArguments.append(nil)
    defer { for argument in cArguments { free(argument) } }
    execv(helper, cArguments)
    // Only reached when exec failed.
    throw CLIError.invalidValue(
      value: helper, type: "program", reason: String(cString: strerror(errno)))
  }

  /// `bundlekit-translate` in this executable's folder (links resolved), else on `PATH`.
  static func helperPath() throws -> String {
    var candidates: [String] = []
    if let executable = Bundle.main.executablePath {
      let resolved = (executable as NSString).resolvingSymlinksInPath
      candidates.append(
        ((resolved as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(helperName))
    }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      candidates.append("\(folder)/\(helperName)")
    }
    if let found = candidates.first(where: { access($0, X_OK) == 0 }) { return found }
    throw CLIError.invalidValue(
      value: helperName, type: "program",
      reason: "not found beside bundlekit or on PATH; " + howToGet)
  }

  /// One line: how to get the helper.
  static let howToGet =
    "bundlekit translate runs bundlekit-translate: `make install` installs both, or build it with `swift build -c release --package-path Packages/BundleKitTranslate` and use that package's .build/release/bundlekit"
}
