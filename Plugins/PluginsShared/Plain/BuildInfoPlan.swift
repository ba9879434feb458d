import Foundation

/// The BuildInfo plugin's command, for package and Xcode targets.
enum BuildInfoPlan {
  /// The command, `SOURCE_DATE_EPOCH` passed on for reproducible builds.
  static func command(
    arguments: [String], inputs: [URL], output: URL, targetName: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> PlannedCommand {
    var passed: [String: String] = [:]
    if let epoch = environment["SOURCE_DATE_EPOCH"] { passed["SOURCE_DATE_EPOCH"] = epoch }
    return PlannedCommand(
      displayName: "Generating build information for \(targetName)",
      arguments: arguments, environment: passed, inputs: inputs, outputs: [output])
  }

  /// A package target: its Info.plist is among its files, or (SwiftPM refusing an Info.plist
  /// as a resource) excluded in its folder.
  static func package(
    targetName: String, targetFolder: URL, files: [URL], packageFolder: URL, workFolder: URL
  ) -> PlannedCommand {
    let output = workFolder.appending(path: "BuildInfo.swift")
    var arguments = ["build-info", "--output", output.path, "--git-folder", packageFolder.path]
    var inputs: [URL] = []
    let excluded = targetFolder.appending(path: "Info.plist")
    let plist =
      files.first { $0.lastPathComponent.hasSuffix("Info.plist") }
      ?? (FileManager.default.fileExists(atPath: excluded.path) ? excluded : nil)
    if let plist {
      arguments += ["--info-plist", plist.path]
      inputs.append(plist)
    }
    return command(
      arguments: arguments, inputs: inputs + gitInputs(above: packageFolder), output: output,
      targetName: targetName)
  }

  /// The files a new commit changes: `HEAD` and the branch it points to, of the repository
  /// holding `folder` (it or one of its parents, up to 32 levels).
  static func gitInputs(above folder: URL) -> [URL] {
    var current = folder.standardizedFileURL
    for _ in 0..<32 {
      let git = current.appending(path: ".git")
      let head = git.appending(path: "HEAD")
      if FileManager.default.fileExists(atPath: head.path) {
        var inputs = [head]
        if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
          let reference = git.appending(
            path: text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
          if FileManager.default.fileExists(atPath: reference.path) { inputs.append(reference) }
        }
        return inputs
      }
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { break }
      current = parent
    }
    return []
  }
}
