import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitVersioning
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit bump build|version`.
struct BumpCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bump",
    abstract: "Raise build numbers or versions across many Info.plists at once, safely.",
    subcommands: [BumpBuild.self, BumpVersion.self]
  )
}

/// Options every bump shares.
struct BumpOptions: ParsableArguments {
  @Flag(help: "Print a unified diff of what would change (git apply takes it), and change nothing.")
  var dryRun = false

  @Flag(help: "Also take test bundles and test targets.")
  var includeTests = false

  @Option(
    help:
      "Only these targets (Xcode target or SwiftPM target names; repeatable); what they embed comes along."
  )
  var target: [String] = []

  @Flag(help: "Let a value go down (--to below the current number).")
  var allowLower = false

  @Flag(
    help:
      "Read and write settings files outside the paths given, where the project's settings, an #include, a workspace or a link lead (refused otherwise: a checkout may point anywhere)."
  )
  var allowOutside = false

  @OptionGroup var formatOptions: FormatOptions

  @Flag(help: "After the bump, commit the changed files with git.")
  var commit = false

  @Flag(help: "With --commit, also tag the commit (v<version>, or build-<number>).")
  var tag = false

  @Flag(help: "With --commit, commit on a detached HEAD too (refused otherwise).")
  var allowDetached = false

  func validate() throws {
    if tag && !commit { throw ValidationError("--tag tags the bump's commit: give --commit too") }
    if allowDetached && !commit {
      throw ValidationError("--allow-detached is for the bump's commit: give --commit too")
    }
    if commit && dryRun {
      throw ValidationError("--dry-run changes nothing, so there is nothing to commit")
    }
  }

  /// Plans the bump, then applies it (or with --dry-run prints the diff). Prints what changed.
  func run(_ bump: VersionBump, paths: [String], in run: ToolRun) throws {
    try formatOptions.reportingFailures(in: run) {
      try runReporting(bump, paths: paths, in: run)
    }
  }

  private func runReporting(_ bump: VersionBump, paths: [String], in run: ToolRun) throws {
    var bump = bump
    bump.allowLower = allowLower
    bump.allowOutside = allowOutside
    let planned: VersionBump.Plan
    // One recorder checks the repository before anything is written and commits after.
    let recorder = commit && !dryRun ? BumpCommit(allowDetached: allowDetached, tag: tag) : nil
    if dryRun {
      planned = try bump.plan(paths: paths, includeTests: includeTests, targets: target)
      if formatOptions.format(in: run) == .text {
        printDiff(planned.files, planned.values)
        return
      }
    } else {
      planned = try bump.apply(paths: paths, includeTests: includeTests, targets: target) {
        (plan) throws(VersioningError) in try recorder?.check(plan)
      }
    }
    for warning in planned.warnings { run.diagnostics.warning(warning) }
    switch formatOptions.format(in: run) {
    case .text:
      StandardStreams.printLines(
        planned.values.map {
          "\($0.key) \($0.old) -> \($0.new): \($0.bundles.joined(separator: ", "))"
        })
      if planned.values.isEmpty { StandardStreams.printLine("nothing to change") }
    case .json:
      StandardStreams.writeJSON(
        planned.values.map { $0.report(in: planned.files, show: Self.relative) })
    }
    if let recorder, !planned.files.isEmpty { try recorder.record(planned) }
  }

  /// The diff of every file (paths relative to the working folder, `a/` and `b/` as git
  /// writes them): a binary property list as a `GIT binary patch`, which `git apply` takes
  /// too; what changes in it goes to standard error, which is no part of the patch.
  private func printDiff(_ files: [VersionBump.FileChange], _ values: [VersionBump.ValueChange]) {
    for file in files {
      if file.isBinary {
        let changes = values.filter { $0.places.contains(where: { $0.file == file.path }) }
          .map { "\($0.key) \($0.old) -> \($0.new)" }
        StandardStreams.printToStandardError(
          "\(Self.relative(file.path)) is a binary property list: \(changes.joined(separator: ", "))"
        )
        StandardStreams.writeToStandardOutput(
          Array(
            GitBinaryPatch.make(old: file.old, new: file.new, path: Self.relative(file.path)).utf8))
      } else {
        StandardStreams.writeToStandardOutput(
          Array(UnifiedDiff.make(old: file.old, new: file.new, path: Self.relative(file.path)).utf8)
        )
      }
    }
  }

  /// `path` relative to the working folder when it lies below it.
  static func relative(_ path: String) -> String {
    guard path.hasPrefix("/") else { return InfoPlistDiscovery.normalized(path) }
    let current = FileManager.default.currentDirectoryPath
    return path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
  }
}

/// `bundlekit bump build [PATH...]`.
struct BumpBuild: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "build",
    abstract: "Raise CFBundleVersion: by one per file, to a number, or by a scheme.",
    discussion: """
      Schemes: increment (default: the last component + 1, per file), timestamp (UTC \
      YYMMDDHHMM), git-count (commits on HEAD; refused in shallow clones), env:VAR (a CI \
      build number). --sync gives every file the highest current number + 1. Every file is \
      read and checked first: one bad file and nothing is written. --claim REMOTE takes the \
      number on a git remote every pipeline shares: one past the highest of the files and \
      of the numbers claimed there, by creating refs/tags/build/<N> (--claim-ref) on the \
      remote, which only one pipeline can do; a number taken meanwhile is passed over.
      """
  )

  @Argument(help: "Info.plists, .xcodeproj folders, or folders to search (default: here).")
  var paths: [String] = ["."]

  @Option(help: "Set this build number.")
  var to: String?

  @Option(help: ArgumentHelp("\(VersionBump.SchemeName.help).", valueName: "scheme"))
  var scheme: VersionBump.SchemeName = .increment

  @Flag(help: "Set every file to the highest current number + 1.")
  var sync = false

  @Option(help: "Claim the number on this git remote (a name or URL) so no other pipeline gets it.")
  var claim: String?

  @Option(help: "With --claim, the refs that hold claimed numbers, * for the number.")
  var claimRef = "refs/tags/build/*"

  @Flag(
    help:
      "With --claim, take a number more than 1,000 above the files' even so (refused otherwise: a stray ref on the remote would take every later claim with it)."
  )
  var allowJump = false

  @OptionGroup var options: BumpOptions

  func validate() throws {
    if let to, BundleVersion(to) == nil {
      throw ValidationError(BundleVersion.problem(with: to) ?? "invalid --to")
    }
    if claim != nil, to != nil || scheme != .increment {
      throw ValidationError("--claim chooses the number: leave out --to and --scheme")
    }
    if claimRef.filter({ $0 == "*" }).count != 1 || !claimRef.hasPrefix("refs/") {
      throw ValidationError(
        "--claim-ref is a ref pattern with one * for the number: refs/tags/build/*")
    }
  }

  func run(_ run: ToolRun) throws {
    let buildScheme = to.flatMap(BundleVersion.init).map { .to($0) } ?? scheme.scheme
    if let claim {
      try runClaiming(on: claim, in: run)
      return
    }
    try options.run(VersionBump(.build(buildScheme), sync: sync), paths: paths, in: run)
  }

  /// `--claim`: the next number after the files' and the remote's, claimed on the remote,
  /// then written to every file as `--to` would.
  private func runClaiming(on remote: String, in run: ToolRun) throws {
    let local = try options.formatOptions.reportingFailures(in: run) {
      try BuildNumberClaim.localNext(
        paths: paths, includeTests: options.includeTests, targets: options.target)
    }
    var claim = BuildNumberClaim(
      remote: remote, pattern: claimRef, folder: BuildNumberClaim.repositoryFolder(for: paths))
    if allowJump { claim.maximumJump = nil }
    let number = try options.formatOptions.reportingFailures(in: run) {
      try options.dryRun ? claim.next(atLeast: local) : claim.claim(atLeast: local)
    }
    if !options.dryRun {
      StandardStreams.printToStandardError(
        "claimed build \(number) on \(remote) (\(claim.ref(number)))")
    }
    try options.run(
      VersionBump(.build(.to(BundleVersion(components: [UInt64(number)])))), paths: paths, in: run)
  }
}

/// `bundlekit bump version major|minor|patch|X.Y.Z [PATH...]`.
struct BumpVersion: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "version",
    abstract: "Raise CFBundleShortVersionString: major, minor, patch, or a given X.Y.Z."
  )

  @Argument(help: "major, minor, patch, or a version such as 2.1.0.")
  var change: String

  @Argument(help: "Info.plists, .xcodeproj folders, or folders to search (default: here).")
  var paths: [String] = ["."]

  @Flag(
    help: "Also set build numbers to 1 (lowering them is what this asks: no --allow-lower needed).")
  var resetBuild = false

  @OptionGroup var options: BumpOptions

  func validate() throws {
    if BundleVersion.Part(rawValue: change) == nil, BundleVersion(change) == nil {
      throw ValidationError(
        "'\(change)' is neither major, minor, patch nor a version such as 2.1.0")
    }
  }

  func run(_ run: ToolRun) throws {
    let bump = VersionBump(
      .version(part: BundleVersion.Part(rawValue: change), to: BundleVersion(change)),
      resetBuild: resetBuild)
    try options.run(bump, paths: paths, in: run)
  }
}

// Parsed once, by the argument parser: `--scheme` takes the names the library knows.
extension VersionBump.SchemeName: ExpressibleByArgument {
  /// The scheme the argument names.
  public init?(argument: String) { self.init(argument) }

  /// The name, as `--help` shows the default.
  public var defaultValueDescription: String { description }
}

extension BumpBuild: ReportsFindingsInFormat {
  var formatOptions: FormatOptions { options.formatOptions }
}

extension BumpVersion: ReportsFindingsInFormat {
  var formatOptions: FormatOptions { options.formatOptions }
}
