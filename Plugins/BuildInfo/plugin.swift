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
    return [
      Self.command(
        tool: try context.tool(named: "bundlekit").url, arguments: arguments, inputs: inputs,
        output: output, targetName: target.name)
    ]
  }

  /// The command, `SOURCE_DATE_EPOCH` passed on for reproducible builds.
  static func command(
    tool: URL, arguments: [String], inputs: [URL], output: URL, targetName: String
  ) -> Command {
    var environment: [String: String] = [:]
    if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] {
      environment["SOURCE_DATE_EPOCH"] = epoch
    }
    return .buildCommand(
      displayName: "Generating build information for \(targetName)",
      executable: tool,
      arguments: arguments,
      environment: environment,
      inputFiles: inputs,
      outputFiles: [output]
    )
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension BuildInfo: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
      let project = context.xcodeProject.directoryURL
      var arguments = ["build-info", "--output", output.path, "--git-folder", project.path]
      let plist = target.inputFiles.map(\.url).first {
        $0.lastPathComponent.hasSuffix("Info.plist")
      }
      if let plist { arguments += ["--info-plist", plist.path] }
      return [
        Self.command(
          tool: try context.tool(named: "bundlekit").url, arguments: arguments,
          inputs: plist.map { [$0] } ?? [], output: output, targetName: target.displayName)
      ]
    }
  }
#endif
