import BundleKitFileSystem
import Foundation

/// A build number taken on a git remote every pipeline shares, so that two CI runs never
/// upload the same one (`bump build --claim REMOTE`).
///
/// A number is claimed by creating a ref for it on the remote (`refs/tags/build/<N>`),
/// pointing at a tag object made for this claim alone (so a push over an existing ref is
/// never "up to date"), with `--force-with-lease=<ref>:` (taken only while the ref does not
/// exist). A ref update is atomic on the remote: of two pipelines pushing the same number one
/// wins and the other goes on with the next. A run killed after its claim
/// leaves that number claimed and unused: later runs never take it again.
public struct BuildNumberClaim: Sendable {
  /// The remote: a name (`origin`) or a URL.
  public var remote: String
  /// The refs, `*` standing for the number: `refs/tags/build/*` by default.
  public var pattern: String
  /// The repository to push from (its HEAD is what a claim points at).
  public var folder: String
  /// How many taken numbers in a row are passed over before giving up.
  public var maximumAttempts = 200
  /// How far above the files' next number the remote's highest claim may lead (nil: any
  /// distance): one stray `refs/tags/build/4294967294` on the remote would otherwise make
  /// the next claim 4294967295 and every later one fail.
  public var maximumJump: UInt32? = 1_000

  /// A claim on `remote`, from the repository holding `folder`.
  public init(remote: String, pattern: String = "refs/tags/build/*", folder: String) {
    self.remote = remote
    self.pattern = pattern
    self.folder = folder
  }

  /// The ref of number `number`.
  public func ref(_ number: UInt32) -> String {
    pattern.replacingOccurrences(of: "*", with: String(number))
  }

  /// The highest number claimed on the remote, nil when none is.
  func highestClaimed() throws(VersioningError) -> UInt32? {
    let listed = try git(["ls-remote", "--refs", remote, pattern]) {
      "cannot read the claimed build numbers from \(remote)"
    }
    guard let star = pattern.firstIndex(of: "*") else { return nil }
    let prefix = pattern[..<star]
    let suffix = pattern[pattern.index(after: star)...]
    var highest: UInt32?
    for line in listed.split(separator: "\n") {
      guard let tab = line.firstIndex(of: "\t") else { continue }
      let name = line[line.index(after: tab)...]
      guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { continue }
      let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
      if let number = UInt32(digits), number > (highest ?? 0) || highest == nil {
        highest = number
      }
    }
    return highest
  }

  /// The number a claim would start from: `start`, or one past the highest claimed.
  public func next(atLeast start: UInt32) throws(VersioningError) -> UInt32 {
    guard let highest = try highestClaimed() else { return start }
    if let maximumJump, highest >= start, highest - start >= maximumJump {
      throw .claimJump(remote: remote, ref: ref(highest), claimed: highest, files: start)
    }
    guard highest < UInt32.max else {
      throw .scheme(message: "\(remote) has claimed build number \(highest), the largest there is")
    }
    return max(start, highest + 1)
  }

  /// Claims the first free number from `start` (or past the highest claimed) and returns
  /// it. Nothing is claimed when the remote cannot be reached (an error).
  public func claim(atLeast start: UInt32) throws(VersioningError) -> UInt32 {
    let head = try git(["rev-parse", "--verify", "HEAD^{commit}"]) {
      "\(folder) has no commit to claim a build number with"
    }.trimmingCharacters(in: .whitespacesAndNewlines)
    var number = try next(atLeast: start)
    var lastRefusal = ""
    for _ in 0..<maximumAttempts {
      let ref = ref(number)
      // A tag object of this claim's own: pushed where the ref exists (even from the same
      // commit) it can never be "up to date", so only a creation succeeds.
      let tag = try tagObject(for: number, commit: head)
      let pushed = ToolOutput.run(
        [
          "git", "-C", folder, "push", "--quiet", "--no-verify", "--force-with-lease=\(ref):",
          remote, "\(tag):\(ref)",
        ], capturingErrors: true)
      guard let pushed else { throw .scheme(message: "git could not be started") }
      if pushed.status == 0 { return number }
      lastRefusal = pushed.reason(of: "git")
      // Taken (by a pipeline faster than this one) or refused for another reason: the
      // remote tells which.
      let exists = try git(["ls-remote", "--refs", remote, ref]) {
        "cannot claim build number \(number) on \(remote)\(lastRefusal)"
      }
      guard !exists.isEmpty else {
        throw .scheme(
          message: "\(remote) refused the claim of build number \(number)\(lastRefusal)")
      }
      guard number < UInt32.max else { break }
      number += 1
    }
    throw .scheme(
      message:
        "no free build number on \(remote) after \(maximumAttempts) attempts\(lastRefusal)")
  }

  /// A new annotated tag object (no ref) for a claim of `number` on `commit`: unique to this
  /// process and moment.
  private func tagObject(for number: UInt32, commit: String) throws(VersioningError) -> String {
    let seconds = Int(Date().timeIntervalSince1970)
    let nonce = UInt64.random(in: 0...UInt64.max)
    let name = pattern.replacingOccurrences(of: "*", with: String(number))
      .split(separator: "/").dropFirst(2).joined(separator: "/")
    let text = """
      object \(commit)
      type commit
      tag \(name)
      tagger BundleKit <bundlekit@localhost> \(seconds) +0000

      build number \(number), claimed by bundlekit (process \(getpid()), \(String(nonce, radix: 16)))

      """
    guard
      let made = ToolOutput.run(
        ["git", "-C", folder, "mktag"], capturingErrors: true, input: Data(text.utf8))
    else { throw .scheme(message: "git could not be started") }
    guard made.status == 0 else {
      throw .scheme(message: "git could not make the claim's tag" + made.reason(of: "git"))
    }
    return String(decoding: made.output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// git's output; when it fails, `reason` with git's own message.
  private func git(_ arguments: [String], _ reason: () -> String) throws(VersioningError)
    -> String
  {
    guard
      let result = ToolOutput.run(["git", "-C", folder] + arguments, capturingErrors: true)
    else {
      throw .scheme(message: "git could not be started")
    }
    guard result.status == 0 else {
      throw .scheme(message: reason() + result.reason(of: "git"))
    }
    return String(decoding: result.output, as: UTF8.self)
  }

}

extension BuildNumberClaim {
  /// The number every file under `paths` would get next, one for all (`bump build --sync`):
  /// what a claim starts from. Refused unless it is one whole number.
  ///
  /// - Parameters:
  ///   - paths: Info.plists, `.xcodeproj` folders, or folders to search.
  ///   - includeTests: Whether test bundles and test targets are taken too.
  ///   - targets: Only these targets (and what they embed); all when empty.
  public static func localNext(
    paths: [String], includeTests: Bool = false, targets: [String] = []
  ) throws(VersioningError) -> UInt32 {
    let planned = try VersionBump(.build(.increment), sync: true).plan(
      paths: paths, includeTests: includeTests, targets: targets)
    let news = Set(planned.values.filter { $0.key == "CFBundleVersion" }.map(\.new))
    guard news.count == 1, let text = news.first, let number = UInt32(text) else {
      throw .scheme(
        message:
          "--claim takes whole build numbers; these files would get \(news.sorted().joined(separator: ", "))"
      )
    }
    return number
  }

  /// The repository a claim for `paths` pushes from: the first path, or its folder when it
  /// is a file.
  public static func repositoryFolder(for paths: [String]) -> String {
    let first = paths.first ?? "."
    var info = stat()
    let isFolder = stat(first, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    return isFolder ? first : Paths.parent(first)
  }
}
