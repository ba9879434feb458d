import ArgumentParser
import BundleKitDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The one `main` of BundleKit's executables: parses the command line, makes the run
/// (``ToolRun``: the diagnostics engine and the `--config` file's settings), hands it to the
/// command and exits with BundleKit's codes, 0 success, 1 bad input, 2 usage error.
///
/// The exit status is decided here alone: 1 when the command emitted an error into the run's
/// engine or threw one (errors that are ``DiagnosticConvertible`` print their diagnostics),
/// 2 for argument errors (the parser's message and usage); anything else goes to
/// swift-argument-parser.
public enum ToolMain {
  /// Runs `Root`'s subcommand as the command line asks, then exits.
  ///
  /// - Parameters:
  ///   - root: The tool's root command.
  ///   - hints: How this tool lifts each refusal, by rule name (``DiagnosticsEngine/hints``).
  ///   - epilogue: Runs before the tool exits, whatever the outcome (final warnings), with
  ///     the run's engine.
  ///   - rules: Help for each rule a finding may name, by rule name (a SARIF report's rules).
  ///   - plainParse: The command a plain command line names, read without the argument
  ///     parser (whose reflection costs milliseconds at every start), or nil to leave the
  ///     command line to it: it must give the very command `Root.parseAsRoot` gives, validated
  ///     (a test's business), and nil for anything it does not know.
  public static func run<Root: ParsableCommand>(
    _ root: Root.Type, hints: [String: String] = [:], rules: [String: String] = [:],
    epilogue: (DiagnosticsEngine) -> Void = { _ in },
    plainParse: ([String]) -> (any ParsableCommand)? = { _ in nil }
  ) -> Never {
    let diagnostics = DiagnosticsEngine()
    diagnostics.hints = hints
    do {
      let (command, run) = try prepare(root, diagnostics, plainParse: plainParse)
      if let command = command as? any ToolCommand {
        try command.run(run)
      } else {
        var command = command
        try command.run()
      }
      epilogue(diagnostics)
      finish(root, diagnostics, rules: rules)
    } catch {
      epilogue(diagnostics)
      fail(error, root, diagnostics, rules: rules)
    }
  }

  /// Runs `Root`'s subcommand, synchronous or asynchronous, as the command line asks, then
  /// exits.
  ///
  /// - Parameter root: The tool's root command.
  public static func run<Root: AsyncParsableCommand>(_ root: Root.Type) async -> Never {
    let diagnostics = DiagnosticsEngine()
    do {
      let (command, run) = try prepare(root, diagnostics)
      if let command = command as? any AsyncToolCommand {
        try await command.run(run)
      } else if let command = command as? any ToolCommand {
        try command.run(run)
      } else if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        var command = command
        try command.run()
      }
      finish(root, diagnostics, rules: [:])
    } catch {
      fail(error, root, diagnostics, rules: [:])
    }
  }

  /// Parses the command line and makes its run: the `--config` file the parse recorded, read
  /// (its warnings into `diagnostics`), and the CI report the command asks for begun.
  private static func prepare<Root: ParsableCommand>(
    _ root: Root.Type, _ diagnostics: DiagnosticsEngine,
    plainParse: ([String]) -> (any ParsableCommand)? = { _ in nil }
  ) throws -> (any ParsableCommand, ToolRun) {
    let request = ToolRun.ConfigurationRequest()
    // A plain command line names no `--config`: the request stays empty.
    let command =
      try plainParse(Array(CommandLine.arguments.dropFirst()))
      ?? ToolRun.ConfigurationRequest.$current.withValue(request) { try root.parseAsRoot() }
    var configuration = ToolConfiguration()
    if let path = request.path {
      let (loaded, warnings) = try ToolConfiguration.load(path)
      diagnostics.emit(warnings)
      configuration = loaded
    }
    let run = ToolRun(diagnostics: diagnostics, configuration: configuration)
    beginReport(for: command, run)
    return (command, run)
  }

  /// Collects the findings for a CI report when the command reports in one.
  private static func beginReport(for command: any ParsableCommand, _ run: ToolRun) {
    guard let reporting = command as? any ReportsFindings,
      let format = reporting.reportFormat(in: run)
    else { return }
    run.diagnostics.report = format
    // A document on standard output holds nothing else: the command's data goes to
    // standard error (GitHub's annotations are lines among others).
    StandardStreams.dataToStandardError = format != .github
  }

  /// Writes the report, if any, and exits with the run's status.
  private static func finish<Root: ParsableCommand>(
    _ root: Root.Type, _ diagnostics: DiagnosticsEngine, rules: [String: String]
  ) -> Never {
    diagnostics.finishReport(reportContext(root, rules: rules))
    exit(diagnostics.exitStatus)
  }

  /// The tool and command a report names: a helper whose root is `bundlekit strings`
  /// (bundlekit-localize) reports as `bundlekit` running `strings sync`.
  private static func reportContext<Root: ParsableCommand>(
    _ root: Root.Type, rules: [String: String]
  ) -> ReportContext {
    let rootWords = (root.configuration.commandName ?? "bundlekit").split(separator: " ")
      .map(String.init)
    let command = (rootWords.dropFirst() + [commandWords()]).filter { !$0.isEmpty }
    return ReportContext(
      tool: rootWords.first ?? "bundlekit", version: root.configuration.version,
      command: command.joined(separator: " "), rules: rules)
  }

  /// The subcommand's words as typed (`strings lint`): the leading words of the command
  /// line that are command names, `--config FILE` before them skipped.
  static func commandWords(_ arguments: [String] = Array(CommandLine.arguments.dropFirst()))
    -> String
  {
    var words: [String] = []
    var index = 0
    while index < arguments.count, words.count < 3 {
      let word = arguments[index]
      if word == "--config" {
        index += 2
        continue
      }
      guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "-") }),
        !word.hasPrefix("-")
      else { break }
      words.append(word)
      index += 1
    }
    return words.joined(separator: " ")
  }

  private static func fail<Root: ParsableCommand>(
    _ error: any Error, _ root: Root.Type, _ diagnostics: DiagnosticsEngine,
    rules: [String: String]
  ) -> Never {
    if let error = error as? any DiagnosticConvertible {
      diagnostics.emit(error.diagnostics)
      // A report holds what stopped the run too; its status stays 1.
      diagnostics.finishReport(reportContext(root, rules: rules))
      exit(1)
    }
    if root.exitCode(for: error) == .validationFailure {
      StandardStreams.printToStandardError(root.fullMessage(for: error))
      exit(2)
    }
    root.exit(withError: error)
  }
}
