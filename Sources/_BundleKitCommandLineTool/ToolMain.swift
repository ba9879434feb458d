import ArgumentParser
import BundleKitDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The one `main` of BundleKit's executables: parses the command line, runs the command and
/// exits with BundleKit's codes, 0 success, 1 bad input, 2 usage error.
///
/// The exit status is decided here alone: 1 when the command emitted an error into
/// ``diagnostics`` or threw one (errors that are ``DiagnosticConvertible`` print their
/// diagnostics), 2 for argument errors (the parser's message and usage); anything else goes
/// to swift-argument-parser.
public enum ToolMain {
  /// The engine every command emits its findings into; it decides the exit status.
  public static let diagnostics = DiagnosticsEngine()

  /// The `--config` file of this run and its settings (``ToolConfiguration``).
  public static let settings = ConfigurationStore()

  /// The settings of the `--config` file; empty without one.
  public static var configuration: ToolConfiguration { settings.current }

  /// Runs `Root`'s subcommand as the command line asks, then exits.
  ///
  /// - Parameters:
  ///   - root: The tool's root command.
  ///   - hints: How this tool lifts each refusal, by rule name (``DiagnosticsEngine/hints``).
  ///   - epilogue: Runs before the tool exits, whatever the outcome (final warnings).
  public static func run<Root: ParsableCommand>(
    _ root: Root.Type, hints: [String: String] = [:], epilogue: () -> Void = {}
  ) -> Never {
    diagnostics.hints = hints
    do {
      var command = try root.parseAsRoot()
      try settings.load(into: diagnostics)
      try command.run()
      epilogue()
      exit(diagnostics.exitStatus)
    } catch {
      epilogue()
      fail(error, root)
    }
  }

  /// Runs `Root`'s subcommand, synchronous or asynchronous, as the command line asks, then
  /// exits.
  ///
  /// - Parameter root: The tool's root command.
  public static func run<Root: AsyncParsableCommand>(_ root: Root.Type) async -> Never {
    do {
      var command = try root.parseAsRoot()
      try settings.load(into: diagnostics)
      if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
      exit(diagnostics.exitStatus)
    } catch {
      fail(error, root)
    }
  }

  private static func fail<Root: ParsableCommand>(_ error: any Error, _ root: Root.Type) -> Never {
    if let error = error as? any DiagnosticConvertible {
      diagnostics.emit(error.diagnostics)
      exit(1)
    }
    if root.exitCode(for: error) == .validationFailure {
      StandardStreams.printToStandardError(root.fullMessage(for: error))
      exit(2)
    }
    root.exit(withError: error)
  }
}
