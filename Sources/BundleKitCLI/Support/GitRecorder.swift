import FileSystem
import Foundation
import PropertyListXML
import Versioning

/// `bump --commit --tag`: the bump recorded in git, as agvtool and fastlane offer.
///
/// Everything git could refuse is asked before a file is written (`check`): a bump that
/// cannot be committed is not made. Only the bumped files go into the commit, and each must
/// have no edits of its own, so the commit holds the bump's hunks and nothing else.
struct GitRecorder {
  /// Whether a detached HEAD may get the commit.
  var allowDetached = false
  /// Whether to tag the commit.
  var tag = false

  /// The repository's checks, run with the plan before anything is written.
  func check(_ plan: VersionBump.Plan) throws(VersioningError) {
    guard let first = plan.files.first?.path else { return }
    let folder = Paths.parent(first)
    let top = try Self.output(["-C", folder, "rev-parse", "--show-toplevel"], path: first) {
      "is not in a git repository, so --commit cannot record the bump"
    }
    // One repository: a bump reaching into another (a submodule, a sibling clone) cannot be
    // one commit.
    for file in plan.files.dropFirst() {
      let other = try Self.output(
        ["-C", Paths.parent(file.path), "rev-parse", "--show-toplevel"], path: file.path
      ) { "is not in a git repository, so --commit cannot record the bump" }
      guard other == top else {
        throw .refused(
          path: file.path,
          reason: "is in the repository \(other), not \(top): one commit cannot hold it")
      }
    }
    for state in ["MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"] {
      let marker = try Self.output(["-C", top, "rev-parse", "--git-path", state], path: top) {
        "git could not read the repository"
      }
      let place = marker.hasPrefix("/") ? marker : top + "/" + marker
      if FileManager.default.fileExists(atPath: place) {
        throw .refused(
          path: top,
          reason:
            "a \(state == "MERGE_HEAD" ? "merge" : state.hasPrefix("rebase") ? "rebase" : "cherry-pick or revert") is in progress; finish it before --commit"
        )
      }
    }
    if !allowDetached, Self.git(["-C", top, "symbolic-ref", "-q", "HEAD"])?.status != 0 {
      throw .refused(
        path: top,
        reason:
          "HEAD is detached, so the bump's commit would belong to no branch; check out a branch, or give --allow-detached"
      )
    }
    let hasHead = Self.git(["-C", top, "rev-parse", "-q", "--verify", "HEAD"])?.status == 0
    for file in plan.files {
      let absolute = Self.absolute(file.path)
      guard Self.git(["-C", top, "ls-files", "--error-unmatch", "--", absolute])?.status == 0 else {
        throw .refused(
          path: file.path, reason: "is not tracked by git; add it first, or bump without --commit")
      }
      // Staged or not, any edit of the file's own would go into the bump's commit.
      if hasHead, Self.git(["-C", top, "diff", "--quiet", "HEAD", "--", absolute])?.status != 0 {
        throw .refused(
          path: file.path,
          reason:
            "has changes of its own not yet committed, which --commit would record with the bump; commit or stash them first"
        )
      }
    }
    if tag {
      let name = try Self.tagName(plan.values)
      if Self.git(["-C", top, "rev-parse", "-q", "--verify", "refs/tags/" + name])?.status == 0 {
        throw .refused(path: top, reason: "the tag \(name) exists already")
      }
      if Self.git(["-C", top, "check-ref-format", "refs/tags/" + name])?.status != 0 {
        throw .refused(path: top, reason: "\(name) is not a name git takes for a tag")
      }
    }
  }

  /// Commits exactly the bumped files (nothing else staged goes in) with a message naming
  /// the new values; with `tag`, tags it `v<version>` or `build-<number>`.
  func record(_ plan: VersionBump.Plan) throws {
    guard let first = plan.files.first?.path else { return }
    let folder = Paths.parent(first)
    let values = plan.values
    let summary = Dictionary(grouping: values, by: \.key).keys.sorted().map { key in
      let news = Set(values.filter { $0.key == key }.map(\.new)).sorted()
      return "\(key == "CFBundleVersion" ? "build" : "version") \(news.joined(separator: ", "))"
    }.joined(separator: ", ")
    let absolute = plan.files.map { Self.absolute($0.path) }
    try Self.run(
      ["-C", folder, "commit", "--quiet", "-m", "Bump \(summary)", "--"] + absolute,
      after: "the files were bumped but not committed")
    guard tag else { return }
    try Self.run(
      ["-C", folder, "tag", try Self.tagName(values)], after: "committed, not tagged")
  }

  /// `v<version>` when the version changed, else `build-<number>`; one value for all.
  static func tagName(_ values: [VersionBump.ValueChange]) throws(VersioningError) -> String {
    let key =
      values.contains { $0.key == "CFBundleShortVersionString" }
      ? "CFBundleShortVersionString" : "CFBundleVersion"
    let news = Set(values.filter { $0.key == key }.map(\.new))
    guard news.count == 1, let new = news.first else {
      throw .refused(
        path: nil,
        reason:
          "the targets get different numbers (\(news.sorted().joined(separator: ", "))), so no one tag names them; bump them to one value, or leave out --tag"
      )
    }
    return key == "CFBundleVersion" ? "build-\(new)" : "v\(new)"
  }

  private static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  private static func git(_ arguments: [String]) -> ToolOutput.Result? {
    ToolOutput.run(["git"] + arguments, capturingErrors: true)
  }

  /// git's output, trimmed; when git fails, `reason` with git's own message.
  private static func output(
    _ arguments: [String], path: String, _ reason: () -> String
  ) throws(VersioningError) -> String {
    guard let result = git(arguments) else {
      throw .refused(path: nil, reason: "git could not be started")
    }
    guard result.status == 0 else {
      throw .refused(path: path, reason: reason() + said(result))
    }
    return String(decoding: result.output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs git after the files are written: a failure says what stands (`after`) and what git
  /// said (a hook, a lock).
  private static func run(_ arguments: [String], after: String) throws {
    guard let result = git(arguments) else {
      throw CLIError.invalidValue(value: "git", type: "program", reason: "git could not be started")
    }
    guard result.status == 0 else {
      throw CLIError.invalidValue(
        value: "git " + arguments.dropFirst(2).joined(separator: " "), type: "git command",
        reason: "exit \(result.status); \(after)" + said(result))
    }
  }

  /// `: ` and git's standard error on one line, when it printed any.
  private static func said(_ result: ToolOutput.Result) -> String {
    let text = String(decoding: result.errorOutput.prefix(2000), as: UTF8.self)
      .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: " ")
    return text.isEmpty ? "" : " (git: \(text))"
  }
}
