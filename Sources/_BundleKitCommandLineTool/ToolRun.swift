import ArgumentParser
import BundleKitDiagnostics
import Foundation

/// One invocation of a BundleKit tool: the engine its findings go into and the settings of its
/// `--config` file, made by ``ToolMain`` for each run and handed to the command, as
/// swift-format's frontend owns its diagnostics engine and configuration. Nothing of a run
/// outlives it in a global.
public final class ToolRun: Sendable {
  /// The engine the command emits its findings into; it decides the exit status.
  public let diagnostics: DiagnosticsEngine

  /// The settings of the `--config` file; empty without one.
  public let configuration: ToolConfiguration

  /// A run with `diagnostics` and `configuration`.
  public init(
    diagnostics: DiagnosticsEngine = DiagnosticsEngine(),
    configuration: ToolConfiguration = ToolConfiguration()
  ) {
    self.diagnostics = diagnostics
    self.configuration = configuration
  }

  /// The command line's value, else the `--config` file's: flag over file, merged here alone.
  public func setting<Value>(_ given: Value?, _ key: KeyPath<ToolConfiguration, Value?>)
    -> Value?
  {
    given ?? configuration[keyPath: key]
  }

  /// The `--config` file the command line names, recorded while it is parsed: the root
  /// command's option group is seen only by its `validate()`, which runs inside
  /// ``ToolMain``'s parse with this run's request in scope.
  final class ConfigurationRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: String?

    var path: String? {
      get { lock.withLock { recorded } }
      set { lock.withLock { recorded = newValue } }
    }

    /// The request of the parse under way.
    @TaskLocal static var current: ConfigurationRequest?
  }
}

/// A command that ``ToolMain`` runs with the run's engine and settings handed in.
public protocol ToolCommand: ParsableCommand {
  /// Does the command's work, its findings going into `run`'s engine.
  func run(_ run: ToolRun) throws
}

extension ToolCommand {
  /// Run outside ``ToolMain`` (a test, `main()`): a run of its own, without a configuration.
  public func run() throws { try run(ToolRun()) }
}

/// An asynchronous command that ``ToolMain`` runs with the run's engine and settings handed in.
public protocol AsyncToolCommand: AsyncParsableCommand {
  /// Does the command's work, its findings going into `run`'s engine.
  func run(_ run: ToolRun) async throws
}

extension AsyncToolCommand {
  /// Run outside ``ToolMain``: a run of its own, without a configuration.
  public func run() async throws { try await run(ToolRun()) }
}
