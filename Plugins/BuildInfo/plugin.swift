import Foundation
import PackagePlugin

/// Generates `BuildInfo.swift` for a target: version and build number (from its Info.plist,
/// when it has one; in an Xcode target, as Xcode resolves them through `INFOPLIST_FILE` or
/// the version build settings), git commit and build date (`SOURCE_DATE_EPOCH` honoured),
/// so an app can show its exact build.
///
/// Only works out paths; `bundlekit build-info` does the work.
@main
struct BuildInfo: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let plan = BuildInfoPlan.package(
      targetName: target.name, targetFolder: target.directoryURL,
      files: target.sourceFiles.map(\.url), packageFolder: context.package.directoryURL,
      workFolder: context.pluginWorkDirectoryURL)
    return [plan.buildCommand(tool: try context.tool(named: "bundlekit").url)]
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension BuildInfo: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let facts = XcodeTargetFacts(context: context, target: target)
      let entries =
        (try? FileManager.default.contentsOfDirectory(atPath: facts.projectFolder.path)) ?? []
      let plan = XcodeTargets.buildInfo(facts, projectEntries: entries)
      return [plan.buildCommand(tool: try context.tool(named: "bundlekit").url)]
    }
  }
#endif
