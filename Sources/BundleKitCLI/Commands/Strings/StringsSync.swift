import ArgumentParser
import BundleKitDiagnostics

/// `bundlekit strings sync PATH... [--check]`: runs `bundlekit-localize sync`, which extracts
/// with swift-syntax and merges with StringsTable's `CatalogSync`.
struct StringsSync: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Bring a target's String Catalogs up to date with its Swift sources, as Xcode does.",
    discussion: """
      Runs bundlekit-localize from the folder of this tool, or from PATH; build it with \
      `swift build -c release --package-path Packages/BundleKitLocalize` (which builds \
      bundlekit beside it too).
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "The target's folders, and options.")
  var arguments: [String] = []

  /// The helper that does the work.
  static let helper = HelperTool.localize(command: "bundlekit strings sync")

  /// What `--help` says when the helper is not there to print its own.
  static let overview = """
    OVERVIEW: Bring a target's String Catalogs up to date with its Swift sources, as Xcode does.

    USAGE: bundlekit strings sync [<paths> ...] [--check] [--development-language <language>]

    """

  func run() throws {
    let asksForHelp = arguments.contains("--help") || arguments.contains("-h")
    try Self.helper.run(["sync"] + arguments, asksForHelp: asksForHelp, overview: Self.overview)
  }
}
