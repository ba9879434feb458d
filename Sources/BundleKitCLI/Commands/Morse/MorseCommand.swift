import ArgumentParser

/// `bundlekit morse decode|encode ...`: runs `bundlekit-morse`, found beside this tool, with
/// the same arguments. The decoder is an extra no build needs: in an executable of its own,
/// it stays out of `bundlekit`, which every plugin user builds.
struct MorseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "morse",
    abstract: "Decode one-key Morse keying (durations or dots and dashes); encode text.",
    discussion: """
      Runs bundlekit-morse from the folder of this tool, or from PATH: `swift build` and \
      `make install` build it beside bundlekit. `bundlekit morse --help` shows its \
      subcommands.
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "The subcommand and its arguments.")
  var arguments: [String] = []

  /// The helper that does the work.
  static let helper = HelperTool(
    name: "bundlekit-morse", package: ".", command: "bundlekit morse",
    build: "swift build -c release --product bundlekit-morse")

  /// The subcommands, for `--help` when the helper is not there to print its own.
  static let overview = """
    OVERVIEW: Decode one-key Morse keying (durations or dots and dashes); encode text.

    USAGE: bundlekit morse <subcommand>

    SUBCOMMANDS:
      decode   Decode signed durations or dots and dashes into text.
      encode   Encode text as signed durations (ms) or as dots and dashes.

    """

  func run() throws {
    let asksForHelp =
      arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"]
      || arguments == ["help"]
    try Self.helper.run(
      arguments.isEmpty ? ["--help"] : arguments, asksForHelp: asksForHelp, overview: Self.overview)
  }
}
