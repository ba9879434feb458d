import Foundation
import PackagePlugin

/// `swift package scan-resources [--format json]`: what the package's targets hold, from
/// `bundlekit scan`.
@main
struct ScanResources: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    // The package is already described to the plugin: its targets go to the tool, which
    // must not ask SwiftPM (that waits for the lock this `swift package` holds).
    let targets = try DeclaredTargets.write(context.package, to: context.pluginWorkDirectoryURL)
    try ToolRunner.run(
      context.tool(named: "bundlekit").url,
      ["scan", context.package.directoryURL.path, "--targets", targets.path] + arguments)
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension ScanResources: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      try ToolRunner.run(
        context.tool(named: "bundlekit").url,
        ["scan", context.xcodeProject.directoryURL.path, "--no-describe"] + arguments)
    }
  }
#endif
