import Foundation
import PackagePlugin

/// Compiles a target's `.strings`, `.stringsdict` and `.xcstrings` tables to binary property
/// lists in its resource bundle, on Linux as on macOS, so `Bundle.module` finds every
/// language. What CoreFoundation reads compiles; other findings show as warnings in the build
/// log, with `file:line:` (a `bundlekit.json` can raise them to errors).
///
/// Only works out paths; `bundlekit strings compile` does the work.
@main
struct CompileStrings: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let tables = StringsTables.tables(in: target.sourceFiles.map(\.url))
    guard !tables.isEmpty else { return [] }
    return [
      try StringsTables.compileCommand(
        tool: try context.tool(named: "bundlekit").url, tables: tables,
        into: context.pluginWorkDirectoryURL, targetName: target.name,
        configuration: try .load(from: [target.directoryURL, context.package.directoryURL]))
    ]
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension CompileStrings: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let tables = StringsTables.tables(in: target.inputFiles.map(\.url))
      guard !tables.isEmpty else { return [] }
      return [
        try StringsTables.compileCommand(
          tool: try context.tool(named: "bundlekit").url, tables: tables,
          into: context.pluginWorkDirectoryURL, targetName: target.displayName,
          configuration: try .load(from: [context.xcodeProject.directoryURL]))
      ]
    }
  }
#endif
