import FileSystem
import Foundation
import PropertyListXML
import Versioning

/// `bump --commit --tag`: the bump recorded in git, as agvtool and fastlane offer.
enum GitRecorder {
  /// Commits exactly `files` (nothing else staged goes in) with a message naming the new
  /// values; with `tag`, tags it `v<version>` or `build-<number>`.
  static func record(_ values: [VersionBump.ValueChange], files: [String], tag: Bool) throws {
    let folder = Paths.parent(files[0])
    let summary = Dictionary(grouping: values, by: \.key).keys.sorted().map { key in
      let news = Set(values.filter { $0.key == key }.map(\.new)).sorted()
      return "\(key == "CFBundleVersion" ? "build" : "version") \(news.joined(separator: ", "))"
    }.joined(separator: ", ")
    let absolute = files.map {
      $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0
    }
    try git(["-C", folder, "commit", "--quiet", "-m", "Bump \(summary)", "--"] + absolute)
    guard tag else { return }
    let key =
      values.contains { $0.key == "CFBundleShortVersionString" }
      ? "CFBundleShortVersionString" : "CFBundleVersion"
    let news = Set(values.filter { $0.key == key }.map(\.new))
    guard news.count == 1, let new = news.first else {
      throw CLIError.invalidValue(
        value: news.sorted().joined(separator: ", "), type: "tag",
        reason: "the targets got different numbers, so no one tag names them; committed, not tagged"
      )
    }
    try git(["-C", folder, "tag", key == "CFBundleVersion" ? "build-\(new)" : "v\(new)"])
  }

  private static func git(_ arguments: [String]) throws {
    guard let result = ToolOutput.run(["git"] + arguments) else {
      throw CLIError.invalidValue(value: "git", type: "program", reason: "git could not be started")
    }
    guard result.status == 0 else {
      throw CLIError.invalidValue(
        value: "git " + arguments.dropFirst(2).joined(separator: " "), type: "git command",
        reason: "exit \(result.status); the files were bumped but not committed")
    }
  }
}
