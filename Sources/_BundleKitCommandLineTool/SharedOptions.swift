import ArgumentParser

/// `text` or `json`: how a command whose output is data prints it.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// For people: aligned columns, one fact per line.
  case text
  /// For scripts and CI: one JSON document on standard output.
  case json
}

/// What `--format` (or the configuration's `format`) may name: the data formats, and the CI
/// formats findings are reported in (``ReportFormat``).
public enum FormatChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// For people.
  case text
  /// For scripts.
  case json
  /// GitHub Actions annotations.
  case github
  /// SARIF 2.1.0.
  case sarif
  /// JUnit XML.
  case junit
  /// Checkstyle XML.
  case checkstyle
  /// A Markdown summary.
  case markdown
}

/// `--format text|json|github|sarif|junit|checkstyle|markdown`, shared by every command whose
/// output is data or findings.
public struct FormatOptions: ParsableArguments {
  /// The format the command line names, when it names one.
  @Option(
    name: .customLong("format"),
    help: ArgumentHelp(
      "Output: text (for people), json (for scripts), or the findings for CI: github (annotations), sarif, junit, checkstyle, markdown (default: the --config file's format, else text).",
      valueName: "format"))
  public var given: FormatChoice?

  /// The format chosen: the command line's, else `run`'s configuration's, else text.
  public func choice(in run: ToolRun) -> FormatChoice {
    run.setting(given, \.formatChoice) ?? .text
  }

  /// How the command prints its data: JSON when asked, else text (a CI format reports the
  /// findings; the data stays text, on standard error when the report is a document).
  public func format(in run: ToolRun) -> OutputFormat {
    choice(in: run) == .json ? .json : .text
  }

  /// The CI format the findings are reported in, when one is chosen.
  public func report(in run: ToolRun) -> ReportFormat? {
    ReportFormat(rawValue: choice(in: run).rawValue)
  }

  /// Text, unless the command line says otherwise.
  public init() {}
}

/// A command whose findings a CI format can report: the tool collects them and writes the
/// report when the command ends.
public protocol ReportsFindings {
  /// The CI format its findings go out in, when one is chosen, with `run`'s settings.
  func reportFormat(in run: ToolRun) -> ReportFormat?
}

/// A command whose `--format` (``FormatOptions``) chooses its CI report.
public protocol ReportsFindingsInFormat: ReportsFindings {
  /// The command's `--format`.
  var formatOptions: FormatOptions { get }
}

extension ReportsFindingsInFormat {
  /// The `--format` chosen, when it is a CI format.
  public func reportFormat(in run: ToolRun) -> ReportFormat? { formatOptions.report(in: run) }
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

  /// The language other languages are compared with: the command line's, else `run`'s
  /// `--config` file's, else English.
  public func developmentLanguage(in run: ToolRun) -> String {
    run.setting(givenDevelopmentLanguage, \.developmentLanguage) ?? "en"
  }

  /// English, unless the command line says otherwise.
  public init() {}
}
