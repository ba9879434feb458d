import Foundation
import PackagePlugin

/// Compiles a target's `.strings`, `.stringsdict` and `.xcstrings` tables to binary property
/// lists in its resource bundle, on Linux as on macOS, so `Bundle.module` finds every
/// language. What CoreFoundation reads compiles; other findings show as warnings in the build
/// log, with `file:line:` (a `bundlekit.json` can raise them to errors). In an Xcode target,
/// which compiles its tables itself, it checks them only (see `XcodeTargets`).
///
/// Only works out paths; `bundlekit strings compile` (or `lint`) does the work.
@main
struct CompileStrings: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let tables = StringsTables.tables(in: target.sourceFiles.map(\.url))
    guard !tables.isEmpty else { return [] }
    let plan = try StringsTables.compile(
      tables, into: context.pluginWorkDirectoryURL, targetName: target.name,
      configuration: .load(from: [target.directoryURL, context.package.directoryURL]))
    return [plan.buildCommand(tool: try context.tool(named: "bundlekit").url)]
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension CompileStrings: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let facts = XcodeTargetFacts(context: context, target: target)
      let configuration = PluginConfiguration.load(from: [facts.projectFolder])
      guard let plan = XcodeTargets.compileStrings(facts, configuration: configuration) else {
        return []
      }
      return [plan.buildCommand(tool: try context.tool(named: "bundlekit").url)]
    }
  }
#endif
