import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory bump-build-number [--target T ...]
/// [bump build options]`: raises CFBundleVersion with `bundlekit bump build`; in Xcode, on
/// the project (its targets by their Xcode names, with what they embed).
@main
struct BumpBuildNumber: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targets = extractor.extractOption(named: "target")
    let paths =
      targets.isEmpty
      ? [context.package.directoryURL.path]
      : try context.package.targets(named: targets).map(\.directoryURL.path)
    try ToolRunner.run(
      context.tool(named: "bundlekit").url,
      ["bump", "build"] + paths + extractor.remainingArguments)
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension BumpBuildNumber: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      // `--target NAME` goes to the tool, which knows Xcode's targets.
      try ToolRunner.run(
        context.tool(named: "bundlekit").url,
        ["bump", "build", context.xcodeProject.directoryURL.path] + arguments)
    }
  }
#endif
