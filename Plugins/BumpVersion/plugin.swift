import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory bump-version major|minor|patch|X.Y.Z
/// [--target T ...] [--reset-build]`: raises CFBundleShortVersionString in the package's (or
/// the targets') Info.plists with `bundlekit bump version`.
@main
struct BumpVersion: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targets = extractor.extractOption(named: "target")
    var rest = extractor.remainingArguments
    guard !rest.isEmpty else {
      Diagnostics.error("bump-version needs major, minor, patch or a version such as 2.1.0")
      throw PluginFailure(status: 2)
    }
    let change = rest.removeFirst()
    let paths =
      targets.isEmpty
      ? [context.package.directoryURL.path]
      : try context.package.targets(named: targets).map(\.directoryURL.path)
    try run(context.tool(named: "bundlekit").url, ["bump", "version", change] + paths + rest)
  }
}

/// Runs the tool and fails the command when it fails; its output goes to the terminal.
func run(_ tool: URL, _ arguments: [String]) throws {
  let process = Process()
  process.executableURL = tool
  process.arguments = arguments
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    Diagnostics.error("bundlekit \(arguments.prefix(2).joined(separator: " ")) failed")
    throw PluginFailure(status: process.terminationStatus)
  }
}

struct PluginFailure: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "bundlekit exited with status \(status)" }
}
