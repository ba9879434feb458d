import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory release [bundlekit release options]`:
/// the whole chain on the package (lint, compile, bump, archive, report) with `bundlekit
/// release`; in Xcode, on the project's folder.
@main
struct Release: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    // The targets come from the plugin's context: the tool must not ask SwiftPM, which
    // waits for the lock this `swift package` holds.
    let targets = try DeclaredTargets.write(context.package, to: context.pluginWorkDirectoryURL)
    // The package's bundlekit.json applies, as it does to the build plugins.
    let configuration =
      arguments.contains("--config")
      ? [] : PluginConfiguration.load(from: [context.package.directoryURL]).arguments
    try ToolRunner.run(
      context.tool(named: "bundlekit").url,
      ["release", context.package.directoryURL.path, "--targets", targets.path] + configuration
        + arguments)
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension Release: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      try ToolRunner.run(
        context.tool(named: "bundlekit").url,
        ["release", context.xcodeProject.directoryURL.path] + arguments)
    }
  }
#endif
