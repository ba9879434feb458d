import Foundation
import PackagePlugin

/// `swift package scan-resources [--format json]`: what the package's targets hold, from
/// `bundlekit scan`.
@main
struct ScanResources: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let process = Process()
    process.executableURL = try context.tool(named: "bundlekit").url
    // The package is already described to the plugin: the tool walks Sources/ and Tests/.
    process.arguments = ["scan", context.package.directoryURL.path, "--no-describe"] + arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Diagnostics.error("bundlekit scan failed")
      return
    }
  }
}
