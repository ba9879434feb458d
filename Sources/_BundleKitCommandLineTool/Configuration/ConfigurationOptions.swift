import ArgumentParser

/// `--config FILE`: a `bundlekit.json` (``ToolConfiguration``) whose settings stand in for the
/// options the command line does not give.
public struct ConfigurationOptions: ParsableArguments {
  /// The configuration file, when given.
  @Option(
    name: .customLong("config"),
    help: ArgumentHelp(
      "A bundlekit.json whose settings (developmentLanguage, severities, pruneBelow ...) stand in for options not given.",
      valueName: "file"))
  public var config: String?

  /// No file, unless the command line names one.
  public init() {}

  /// Records the file for the run ``ToolMain`` is parsing, which reads it before the command
  /// runs.
  public func validate() throws {
    if let config { ToolRun.ConfigurationRequest.current?.path = config }
  }
}
