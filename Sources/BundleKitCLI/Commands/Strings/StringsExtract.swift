import ArgumentParser
import BundleKitDiagnostics

/// `bundlekit strings extract PATH... [--format text|json] [--strict]`: runs
/// `bundlekit-localize extract`, which reads Swift with swift-syntax; keeping that in its own
/// executable keeps `bundlekit`, which every plugin user builds, free of it.
struct StringsExtract: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract",
    abstract: "List the localizable strings of Swift sources, as Xcode's extraction finds them.",
    discussion: """
      Runs bundlekit-localize from the folder of this tool, or from PATH; build it with \
      `swift build -c release --package-path Packages/BundleKitLocalize` (which builds \
      bundlekit beside it too).
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "Swift files or folders, and options.")
  var arguments: [String] = []

  /// The helper that does the work.
  static let helper = HelperTool.localize(command: "bundlekit strings extract")

  /// What `--help` says when the helper is not there to print its own.
  static let overview = """
    OVERVIEW: List the localizable strings of Swift sources, as Xcode's extraction finds them.

    USAGE: bundlekit strings extract [<paths> ...] [--format text|json] [--strict]

    """

  func run() throws {
    let asksForHelp = arguments.contains("--help") || arguments.contains("-h")
    try Self.helper.run(["extract"] + arguments, asksForHelp: asksForHelp, overview: Self.overview)
  }
}
