import Foundation
import PackagePlugin

/// Embeds the files of a target's `Embedded/` folder in its code: `EmbeddedResources.styleCss
/// .data`, `.bytes`, `.string`. Exclude the folder from the target (`exclude: ["Embedded"]`).
///
/// Only works out paths; `bundlekit embed` does the work.
@main
struct EmbedResources: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let folder = target.directoryURL.appending(path: "Embedded")
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var inputs: [URL] = []
    while let relative = walker.nextObject() as? String {
      let url = folder.appending(path: relative)
      var isFolder: ObjCBool = false
      if !url.lastPathComponent.hasPrefix("."),
        FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        inputs.append(url)
      }
    }
    guard !inputs.isEmpty else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(inputs.count) files in \(target.name)",
        executable: try context.tool(named: "bundlekit").url,
        arguments: ["embed", folder.path, "--output", output.path],
        inputFiles: inputs.sorted { $0.path < $1.path },
        outputFiles: [output]
      )
    ]
  }
}
