import Foundation
import PackagePlugin

/// `swift package scan-resources [--format json]`: what the package's targets hold, from
/// `bundlekit scan`.
@main
struct ScanResources: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    // The package is already described to the plugin: the tool walks Sources/ and Tests/.
    try ToolRunner.run(
      context.tool(named: "bundlekit").url,
      ["scan", context.package.directoryURL.path, "--no-describe"] + arguments)
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
