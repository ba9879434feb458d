import BundleKitFileSystem
import Foundation

/// `bump --commit --tag`: the bump recorded in git, as agvtool and fastlane offer.
///
/// Everything git could refuse is asked before a file is written (`check`): a bump that
/// cannot be committed is not made. Only the bumped files go into the commit, and each must
/// have no edits of its own, so the commit holds the bump's hunks and nothing else.
public struct BumpCommit: Sendable {
  /// Whether a detached HEAD may get the commit.
  public var allowDetached = false
  /// Whether to tag the commit.
  public var tag = false

  /// A commit of the bump, tagged when `tag`, on a detached HEAD only when `allowDetached`.
  public init(allowDetached: Bool = false, tag: Bool = false) {
    self.allowDetached = allowDetached
    self.tag = tag
  }

  /// The repository's checks, run with the plan before anything is written.
  public func check(_ plan: VersionBump.Plan) throws(VersioningError) {
    guard let first = plan.files.first?.path else { return }
    let folder = Paths.parent(first)
    let top = try Self.output(["-C", folder, "rev-parse", "--show-toplevel"], path: first) {
      "is not in a git repository, so the bump cannot be committed"
    }
    // One repository: a bump reaching into another (a submodule, a sibling clone) cannot be
    // one commit.
    for file in plan.files.dropFirst() {
      let other = try Self.output(
        ["-C", Paths.parent(file.path), "rev-parse", "--show-toplevel"], path: file.path
      ) { "is not in a git repository, so the bump cannot be committed" }
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
            "a \(state == "MERGE_HEAD" ? "merge" : state.hasPrefix("rebase") ? "rebase" : "cherry-pick or revert") is in progress; finish it before committing a bump"
        )
      }
    }
    if !allowDetached, Self.git(["-C", top, "symbolic-ref", "-q", "HEAD"])?.status != 0 {
      throw .refused(
        path: top,
        reason:
          "HEAD is detached, so the bump's commit would belong to no branch; check out a branch, or allow a detached HEAD"
      )
    }
    let hasHead = Self.git(["-C", top, "rev-parse", "-q", "--verify", "HEAD"])?.status == 0
    for file in plan.files {
      let absolute = Self.absolute(file.path)
      if let listed = Self.git(["-C", top, "ls-files", "--error-unmatch", "--", absolute]),
        listed.status != 0
      {
        throw .refused(
          path: file.path,
          reason: "is not tracked by git; add it first, or bump without committing"
            + listed.reason(of: "git"))
      }
      // Staged or not, any edit of the file's own would go into the bump's commit.
      if hasHead, Self.git(["-C", top, "diff", "--quiet", "HEAD", "--", absolute])?.status != 0 {
        throw .refused(
          path: file.path,
          reason:
            "has changes of its own not yet committed, which the bump's commit would take along; commit or stash them first"
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
  public func record(_ plan: VersionBump.Plan) throws(VersioningError) {
    guard let first = plan.files.first?.path else { return }
    let folder = Paths.parent(first)
    let values = plan.values
    let summary = Self.message(values)
    let absolute = plan.files.map { Self.absolute($0.path) }
    let written = plan.files.map(\.path).joined(separator: " ")
    try Self.run(
      ["-C", folder, "commit", "--quiet", "-m", "Bump \(summary)", "--"] + absolute,
      after:
        "the bump is written but not committed: \(written) hold the new values; commit them, or undo with git checkout -- \(written)"
    )
    guard tag else { return }
    let name = try Self.tagName(values)
    let head =
      Self.git(["-C", folder, "rev-parse", "--short", "HEAD"]).map {
        String(decoding: $0.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      } ?? "HEAD"
    try Self.run(
      ["-C", folder, "tag", name],
      after: "the bump is committed as \(head), not tagged; tag it with git tag \(name) \(head)")
  }

  /// The commit message after "Bump ": `build 13`, or with several numbers each with its
  /// targets, `build 835 (Studio.xcodeproj (Studio)), 2 (Studio.xcodeproj (Engine))`.
  public static func message(_ values: [VersionBump.ValueChange]) -> String {
    Dictionary(grouping: values, by: \.key).keys.sorted().map { key in
      let changes = values.filter { $0.key == key }
      let news = Set(changes.map(\.new)).sorted()
      let word = key == "CFBundleVersion" ? "build" : "version"
      guard news.count > 1 else { return "\(word) \(news.joined())" }
      return word + " "
        + news.map { new in
          let targets = changes.filter { $0.new == new }.flatMap(\.bundles)
          return "\(new) (\(targets.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }.joined(separator: ", ")
  }

  /// `v<version>` when the version changed, else `build-<number>`: the one new value, or
  /// when frameworks and helpers got numbers of their own, the applications' one.
  static func tagName(_ values: [VersionBump.ValueChange]) throws(VersioningError) -> String {
    let key =
      values.contains { $0.key == "CFBundleShortVersionString" }
      ? "CFBundleShortVersionString" : "CFBundleVersion"
    var news = Set(values.filter { $0.key == key }.map(\.new))
    if news.count > 1 {
      let apps = Set(values.filter { $0.key == key && $0.isApplications }.map(\.new))
      if apps.count == 1 { news = apps }
    }
    guard news.count == 1, let new = news.first else {
      throw .refused(
        path: nil,
        reason:
          "the targets get different numbers (\(news.sorted().joined(separator: ", "))), so no one tag names them; bump them to one value, or do not tag"
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
      throw .refused(path: path, reason: reason() + result.reason(of: "git"))
    }
    return String(decoding: result.output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs git after the files are written: a failure says what stands (`after`) and what git
  /// said (a hook, a lock).
  private static func run(_ arguments: [String], after: String) throws(VersioningError) {
    guard let result = git(arguments) else {
      throw .notRecorded(message: "git could not be started; \(after)")
    }
    guard result.status == 0 else {
      throw .notRecorded(
        message:
          "git \(arguments.dropFirst(2).joined(separator: " ")) failed (exit \(result.status)); \(after)"
          + result.reason(of: "git"))
    }
  }

}
