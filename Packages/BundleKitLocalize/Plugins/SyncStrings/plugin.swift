import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory sync-strings [--target T ...]
/// [--check]`: brings each target's String Catalogs (or development-language `.strings`
/// tables) up to date with its Swift sources, with `bundlekit-localize sync`. Without
/// `--target`, every Swift target that has a catalog or a `.strings` table.
@main
struct SyncStrings: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let names = extractor.extractOption(named: "target")
    let targets =
      names.isEmpty
      ? context.package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter { target in
        target.kind != .test
          && target.sourceFiles.contains { file in
            ["xcstrings", "strings"].contains(file.url.pathExtension)
          }
      }
      : try context.package.targets(named: names)
    guard !targets.isEmpty else {
      Diagnostics.warning(
        "sync-strings: no target has a String Catalog or a .strings table; name one with --target"
      )
      return
    }
    let tool = try context.tool(named: "bundlekit-localize").url
    for target in targets {
      try ToolRunner.run(
        tool, ["sync", target.directoryURL.path] + extractor.remainingArguments)
    }
  }
}
