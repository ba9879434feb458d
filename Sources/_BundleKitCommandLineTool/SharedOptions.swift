import ArgumentParser

/// `text` or `json`: how a command whose output is data prints it.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// For people: aligned columns, one fact per line.
  case text
  /// For scripts and CI: one JSON document on standard output.
  case json
}

/// `--format text|json`, shared by every command whose output is data.
public struct FormatOptions: ParsableArguments {
  /// How to print.
  @Option(help: "Output: text (for people) or json (for scripts and CI).")
  public var format: OutputFormat = .text

  /// Text, unless the command line says otherwise.
  public init() {}
}

/// `--development-language`, shared by every command that reads strings tables.
public struct LanguageOptions: ParsableArguments {
  /// The language given on the command line.
  @Option(
    name: .customLong("development-language"),
    help: ArgumentHelp(
      "The development language: the others are compared with it, its keys and arguments define the accessors (default: the --config file's, else en).",
      valueName: "development-language"))
  public var givenDevelopmentLanguage: String?

  /// `--config FILE`: every command that reads tables takes a configuration.
  @OptionGroup public var configurationOptions: ConfigurationOptions

  /// The language other languages are compared with: the command line's, else the
  /// `--config` file's, else English.
  public var developmentLanguage: String {
    givenDevelopmentLanguage ?? ToolMain.configuration.developmentLanguage ?? "en"
  }

  /// English, unless the command line says otherwise.
  public init() {}
}
