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
  /// The executable beside the test bundle, if it was built.
  public static let path: String? = {
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    for folder in candidates {
      let path = folder.appendingPathComponent("bundlekit").path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }()

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
