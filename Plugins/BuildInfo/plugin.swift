import Foundation
import PackagePlugin

/// Generates `BuildInfo.swift` for a target: version and build number (from its Info.plist,
/// when it has one), git commit and build date (`SOURCE_DATE_EPOCH` honoured), so an app can
/// show its exact build.
///
/// Only works out paths; `bundlekit build-info` does the work.
@main
struct BuildInfo: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
    let package = context.package.directoryURL
    var arguments = ["build-info", "--output", output.path, "--git-folder", package.path]
    var inputs: [URL] = []
    // SwiftPM refuses an Info.plist as a resource, so targets exclude it: look in the folder.
    let excluded = target.directoryURL.appending(path: "Info.plist")
    let plist =
      target.sourceFiles.map(\.url).first { $0.lastPathComponent.hasSuffix("Info.plist") }
      ?? (FileManager.default.fileExists(atPath: excluded.path) ? excluded : nil)
    if let plist {
      arguments += ["--info-plist", plist.path]
      inputs.append(plist)
    }
    // A new commit changes HEAD or the branch it points to: rebuild then.
    let git = package.appending(path: ".git")
    let head = git.appending(path: "HEAD")
    if FileManager.default.fileExists(atPath: head.path) {
      inputs.append(head)
      if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
        let reference = git.appending(
          path: text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        if FileManager.default.fileExists(atPath: reference.path) { inputs.append(reference) }
      }
    }
    var environment: [String: String] = [:]
    if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] {
      environment["SOURCE_DATE_EPOCH"] = epoch
    }
    return [
      .buildCommand(
        displayName: "Generating build information for \(target.name)",
        executable: try context.tool(named: "bundlekit").url,
        arguments: arguments,
        environment: environment,
        inputFiles: inputs,
        outputFiles: [output]
      )
    ]
  }
}
