import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory bump-version major|minor|patch|X.Y.Z
/// [--target T ...] [--reset-build]`: raises CFBundleShortVersionString with `bundlekit bump
/// version`; in Xcode, on the project.
@main
struct BumpVersion: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targets = extractor.extractOption(named: "target")
    var rest = extractor.remainingArguments
    let change = try Self.change(&rest)
    let paths =
      targets.isEmpty
      ? [context.package.directoryURL.path]
      : try context.package.targets(named: targets).map(\.directoryURL.path)
    try ToolRunner.run(
      context.tool(named: "bundlekit").url, ["bump", "version", change] + paths + rest)
  }

  /// The first argument: major, minor, patch or a version.
  static func change(_ arguments: inout [String]) throws -> String {
    guard !arguments.isEmpty else {
      Diagnostics.error("bump-version needs major, minor, patch or a version such as 2.1.0")
      throw PluginFailure(status: 2)
    }
    return arguments.removeFirst()
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension BumpVersion: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      var rest = arguments
      let change = try Self.change(&rest)
      try ToolRunner.run(
        context.tool(named: "bundlekit").url,
        ["bump", "version", change, context.xcodeProject.directoryURL.path] + rest)
    }
  }
#endif
