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
  /// The language other languages are compared with.
  @Option(
    help:
      "The development language: the others are compared with it, its keys and arguments define the accessors."
  )
  public var developmentLanguage = "en"

  /// English, unless the command line says otherwise.
  public init() {}
}
