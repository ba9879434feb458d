import Foundation
import PackagePlugin

/// Generates typed Swift accessors (`L10n.Localizable.greeting(name)`) for a target's strings
/// tables, calling BundleKit's Localization runtime. Attach it with CompileStrings and add
/// the `Localization` product to the target's dependencies.
///
/// Only works out paths; `bundlekit strings generate` does the work.
@main
struct GenerateStrings: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let tables = target.sourceFiles.map(\.url).filter {
      ["strings", "stringsdict", "xcstrings"].contains($0.pathExtension)
    }
    guard !tables.isEmpty else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "Strings+Generated.swift")
    return [
      .buildCommand(
        displayName: "Generating string accessors for \(target.name)",
        executable: try context.tool(named: "bundlekit").url,
        arguments: ["strings", "generate"] + tables.map(\.path) + ["--output", output.path],
        inputFiles: tables,
        outputFiles: [output]
      )
    ]
  }
}
