import Foundation
import PackagePlugin

/// Generates typed Swift accessors (`L10n.Localizable.greeting(name)`) for a target's strings
/// tables, calling BundleKit's Localization runtime. Attach it with CompileStrings and add
/// the `BundleKitLocalization` product to the target's dependencies. A `bundlekit.json` sets the
/// access level, enum name, template and development language. In an Xcode target the
/// accessors read the target's own bundle (Xcode targets have no `Bundle.module`).
///
/// Only works out paths; `bundlekit strings generate` does the work.
@main
struct GenerateStrings: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let tables = StringsTables.tables(in: target.sourceFiles.map(\.url))
    guard !tables.isEmpty else { return [] }
    let plan = StringsTables.generate(
      tables, into: context.pluginWorkDirectoryURL, targetName: target.name,
      configuration: .load(from: [target.directoryURL, context.package.directoryURL]))
    return [plan.buildCommand(tool: try context.tool(named: "bundlekit").url)]
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension GenerateStrings: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let facts = XcodeTargetFacts(context: context, target: target)
      let configuration = PluginConfiguration.load(from: [facts.projectFolder])
      guard let plan = XcodeTargets.generateStrings(facts, configuration: configuration) else {
        return []
      }
      return [plan.buildCommand(tool: try context.tool(named: "bundlekit").url)]
    }
  }
#endif
