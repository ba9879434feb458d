import Foundation

/// What a command printed and how it ended.
public struct CommandResult: Sendable {
  /// The exit status.
  public var status: Int32
  /// Standard output.
  public var stdout: String
  /// Standard error.
  public var stderr: String

  /// A result.
  public init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }
}

/// The built `bundlekit` executable, run as a user runs it.
public enum BundleKitTool {
  /// The executable the tests run: the one `BUNDLEKIT_TEST_TOOL` names, else the one beside
  /// the test bundle, if it was built.
  ///
  /// Scripts/test.sh names the release build it makes for the artifact bundle (with the
  /// helpers of this build beside it): the tests run `bundlekit` thousands of times, and a
  /// debug build spends four times the CPU on them. The checks are the same; the sources have
  /// no `assert` or `#if DEBUG`.
  public static let path: String? = {
    if let named = ProcessInfo.processInfo.environment["BUNDLEKIT_TEST_TOOL"], !named.isEmpty {
      // Named and missing is a broken setup, not a tool that was not built: no fallback.
      return FileManager.default.isExecutableFile(atPath: named) ? named : nil
    }
    guard let folder = buildFolder else { return nil }
    return folder.appendingPathComponent("bundlekit").path
  }()

  /// The build folder beside the test bundle that holds `bundlekit` (and the modules and
  /// helpers built with it), if it was built.
  public static let buildFolder: URL? = {
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    return candidates.first {
      FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("bundlekit").path)
    }
  }()

  /// Copies `bundlekit` to `destination` with `cp`, in a process of its own, for a test that
  /// runs a copy.
  ///
  /// Not `FileManager.copyItem`: that writes the copy through a descriptor of the test
  /// process, and a command another test starts at that moment inherits the descriptor, so
  /// running the copy while that child still holds it fails with ETXTBSY ("Text file busy":
  /// once in CI, with 400 tests starting commands beside it). `cp`'s descriptor lives and
  /// dies in `cp`.
  public static func copy(to destination: String) throws {
    guard let path else {
      throw CocoaError(
        .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "bundlekit was not built"])
    }
    let copied = try Tool.run("/bin/cp", [path, destination])
    guard copied.status == 0 else {
      throw CocoaError(
        .fileWriteUnknown,
        userInfo: [NSLocalizedDescriptionKey: "cp \(path) \(destination): \(copied.stderr)"])
    }
  }

  /// Runs `bundlekit` with `arguments`, in `folder` when given.
  public static func run(_ arguments: [String], in folder: String? = nil) throws -> CommandResult {
    guard let path else {
      throw CocoaError(
        .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "bundlekit was not built"])
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let result = try Tool.run(process: process)
    return CommandResult(
      status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self),
      stderr: result.stderr)
  }
}
