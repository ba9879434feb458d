import ArgumentParser
import BundleKitDiagnostics
import Foundation

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

  /// Records the file for ``ToolMain``, which reads it before the command runs.
  public func validate() throws {
    if let config { ToolMain.settings.path = config }
  }
}

/// The configuration of this run: the file `--config` named, read once before the command
/// runs.
public final class ConfigurationStore: @unchecked Sendable {
  private let lock = NSLock()
  private var file: String?
  private var settings = ToolConfiguration()

  init() {}

  /// The file `--config` named.
  public var path: String? {
    get { lock.withLock { file } }
    set { lock.withLock { file = newValue } }
  }

  /// The settings read from it; empty without `--config`.
  public var current: ToolConfiguration {
    get { lock.withLock { settings } }
    set { lock.withLock { settings = newValue } }
  }

  /// Reads the file `--config` named, when there is one; its warnings go to `diagnostics`.
  func load(into diagnostics: DiagnosticsEngine) throws {
    guard let path else { return }
    let (configuration, warnings) = try ToolConfiguration.load(path)
    diagnostics.emit(warnings)
    current = configuration
  }
}
