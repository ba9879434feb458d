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
    let inputs = EmbeddedFiles.files(in: folder)
    guard !inputs.isEmpty else { return [] }
    return [
      Self.command(
        tool: try context.tool(named: "bundlekit").url, folder: folder, inputs: inputs,
        into: context.pluginWorkDirectoryURL, targetName: target.name)
    ]
  }

  static func command(tool: URL, folder: URL, inputs: [URL], into work: URL, targetName: String)
    -> Command
  {
    let output = work.appending(path: "EmbeddedResources.swift")
    return .buildCommand(
      displayName: "Embedding \(inputs.count) files in \(targetName)",
      executable: tool,
      arguments: ["embed", folder.path, "--output", output.path],
      inputFiles: inputs.sorted { $0.path < $1.path },
      outputFiles: [output]
    )
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension EmbedResources: XcodeBuildToolPlugin {
    /// The target's files inside a folder named `Embedded`.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let candidates = target.inputFiles.map(\.url).filter {
        $0.pathComponents.contains("Embedded")
      }
      guard let first = candidates.first,
        let index = first.pathComponents.lastIndex(of: "Embedded")
      else { return [] }
      let folder = URL(fileURLWithPath: first.pathComponents[...index].joined(separator: "/"))
      // The tool's rule, on the path below the Embedded folder.
      let inputs = candidates.filter { url in
        guard let at = url.pathComponents.lastIndex(of: "Embedded") else { return false }
        return EmbeddedFiles.isEmbedded(
          relativePath: url.pathComponents[(at + 1)...].joined(separator: "/"))
      }
      guard !inputs.isEmpty else { return [] }
      return [
        Self.command(
          tool: try context.tool(named: "bundlekit").url, folder: folder, inputs: inputs,
          into: context.pluginWorkDirectoryURL, targetName: target.displayName)
      ]
    }
  }
#endif
