import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A user's package that depends on this checkout, built and run through SwiftPM as its user
/// would, in the scratch folder of the build these tests came from.
///
/// Built in a folder of its own, each such package compiled BundleKit (and, for the localize
/// package, swift-syntax) again from nothing: a minute and a half each on two cores. In the
/// tests' own scratch folder it compiles only its own targets, as the commands for everything
/// it shares with the tests are the same, and SwiftPM finds them done (Scripts/test.sh gives
/// SwiftPM's plugin-tools phase, which keeps a database of its own, the builds' database, and
/// runs builds and tests in one environment, on which SwiftPM's caches of compiled plugins and
/// manifests are keyed). The running
/// `swift test` holds that folder's lock until it ends, so these runs pass `--ignore-lock`
/// and take a lock of their own instead: one consumer run at a time in a scratch folder, from
/// any test process. Nothing else writes there while the tests run.
public struct ConsumerPackage: Sendable {
  /// The package's folder.
  public let path: String

  /// The consumer package at `path`.
  public init(path: String) { self.path = path }

  /// The scratch folder (SwiftPM's `.build`) holding the running test bundle, or nil when
  /// the tests were not built by SwiftPM: the first folder above the bundle that holds
  /// `workspace-state.json`.
  public static let testsScratchFolder: String? = {
    for bundle in [Bundle.main] + Bundle.allBundles {
      var folder = bundle.bundleURL.deletingLastPathComponent()
      while folder.path != "/" {
        if FileManager.default.fileExists(
          atPath: folder.appendingPathComponent("workspace-state.json").path)
        {
          return folder.path
        }
        folder.deleteLastPathComponent()
      }
    }
    return nil
  }()

  /// The folder of the package's debug products: its executables and resource bundles.
  public var products: String {
    (Self.testsScratchFolder ?? path + "/.build") + "/debug"
  }

  /// `swift COMMAND` (`build`, `package`, ...) on this package with `arguments`, stopped after
  /// `timeout` seconds (exit 124), in the tests' scratch folder.
  public func swift(
    _ command: String, _ arguments: [String] = [], timeout: Int = 600,
    environment: [String: String]? = nil
  ) throws -> Tool.Result {
    var options = [command, "--package-path", path]
    guard let scratch = Self.testsScratchFolder else {
      return try Tool.swift(options + arguments, timeout: timeout, environment: environment)
    }
    options += ["--scratch-path", scratch, "--ignore-lock"] + Tool.buildFlags
    let lock = open(
      scratch + "/bundlekit-consumer-packages.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard lock >= 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: scratch])
    }
    defer { close(lock) }
    while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
    defer { flock(lock, LOCK_UN) }
    // SwiftPM may take the plan it keeps for the package it built last for this one's:
    // dropped, it plans this package (the compiled modules stay).
    unlink(scratch + "/debug.yaml")
    unlink(scratch + "/debug/description.json")
    return try Tool.swift(options + arguments, timeout: timeout, environment: environment)
  }
}
