import ArgumentParser
import Foundation
import PropertyList
import Versioning

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
  @Flag(help: "Print a unified diff of what would change, and change nothing.")
  var dryRun = false

  @Flag(help: "Also take test bundles.")
  var includeTests = false

  @Option(help: "Only these targets of Xcode projects (repeatable).")
  var target: [String] = []

  /// Plans the bump, then applies it (or with --dry-run prints the diff). Prints what changed.
  func run(_ bump: VersionBump, paths: [String]) throws {
    if dryRun {
      let planned = try Self.plan(bump, paths: paths, includeTests: includeTests, targets: target)
      for file in planned.files {
        if file.isBinary {
          Diagnostics.printLine("binary \(file.path):")
          for value in planned.values where value.places.contains(where: { $0.file == file.path }) {
            Diagnostics.printLine("  \(value.key): \(value.old) -> \(value.new)")
          }
        } else {
          Diagnostics.writeToStandardOutput(
            Array(UnifiedDiff.make(old: file.old, new: file.new, path: file.path).utf8))
        }
      }
      return
    }
    let values = try Self.apply(bump, paths: paths, includeTests: includeTests, targets: target)
    for value in values {
      Diagnostics.printLine(
        "\(value.key) \(value.old) -> \(value.new): \(value.bundles.joined(separator: ", "))")
    }
    if values.isEmpty { Diagnostics.printLine("nothing to change") }
  }

  /// What the bump would change in the Info.plists found under `paths`.
  static func plan(
    _ bump: VersionBump, paths: [String], includeTests: Bool, targets: [String] = [],
    found known: [InfoPlistDiscovery.Found]? = nil
  ) throws -> (values: [VersionBump.ValueChange], files: [VersionBump.FileChange]) {
    let found = try known ?? InfoPlistDiscovery.find(in: paths, includeTests: includeTests)
    let inventory = try VersionInventory(
      found: found, targets: targets.isEmpty ? nil : Set(targets))
    guard !inventory.bundles.isEmpty else { throw VersioningError.nothingFound(paths: paths) }
    return try bump.plan(inventory)
  }

  /// Applies the bump under folder locks, planning again once the locks are held so
  /// concurrent runs never lose an increment. Returns the values changed.
  static func apply(
    _ bump: VersionBump, paths: [String], includeTests: Bool, targets: [String] = []
  ) throws -> [VersionBump.ValueChange] {
    let found = try InfoPlistDiscovery.find(in: paths, includeTests: includeTests)
    // Lock the folders of everything found, then read and plan: no other run can change
    // these files between our reading and our writing. Files found through references in
    // other folders (an .xcconfig above) widen the locks and the plan is made again.
    var folders = Set(
      found.map { item -> String in
        if case .project(let path) = item { return path }
        return VersionInventory.parentFolder(of: item.path)
      })
    var locks = try FolderLocks(folders: folders)
    defer { locks.release() }
    // The files are read under the locks; what was found stays found (a file added by
    // someone else meanwhile is left for the next run, as it would be had it come later).
    var planned = try plan(
      bump, paths: paths, includeTests: includeTests, targets: targets, found: found)
    while !Self.folders(of: planned.files).isSubset(of: folders) {
      locks.release()
      folders.formUnion(Self.folders(of: planned.files))
      locks = try FolderLocks(folders: folders)
      planned = try plan(
        bump, paths: paths, includeTests: includeTests, targets: targets, found: found)
    }
    try VersionBump.write(planned.files)
    return planned.values
  }

  static func folders(of files: [VersionBump.FileChange]) -> Set<String> {
    Set(files.map { VersionInventory.parentFolder(of: $0.path) })
  }
}

/// `bundlekit bump build [PATH...]`.
struct BumpBuild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "build",
    abstract: "Raise CFBundleVersion: by one per file, to a number, or by a scheme.",
    discussion: """
      Schemes: increment (default: the last component + 1, per file), timestamp (UTC \
      YYMMDDHHMM), git-count (commits on HEAD; refused in shallow clones), env:VAR (a CI \
      build number). --sync gives every file the highest current number + 1. Every file is \
      read and checked first: one bad file and nothing is written.
      """
  )

  @Argument(help: "Info.plists, .xcodeproj folders, or folders to search (default: here).")
  var paths: [String] = ["."]

  @Option(help: "Set this build number.")
  var to: String?

  @Option(help: "increment, timestamp, git-count or env:VAR.")
  var scheme: String = "increment"

  @Flag(help: "Set every file to the highest current number + 1.")
  var sync = false

  @OptionGroup var options: BumpOptions

  func validate() throws {
    if let to, BundleVersion(to) == nil {
      throw ValidationError(BundleVersion.problem(with: to) ?? "invalid --to")
    }
    if !["increment", "timestamp", "git-count"].contains(scheme), !scheme.hasPrefix("env:") {
      throw ValidationError(
        "unknown scheme '\(scheme)': use increment, timestamp, git-count or env:VAR")
    }
  }

  func run() throws {
    let buildScheme: VersionBump.BuildScheme
    if let to, let version = BundleVersion(to) {
      buildScheme = .to(version)
    } else if scheme == "timestamp" {
      let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(Double.init)
      buildScheme = .timestamp(epoch.map { Date(timeIntervalSince1970: $0) } ?? Date())
    } else if scheme == "git-count" {
      buildScheme = .gitCount
    } else if scheme.hasPrefix("env:") {
      buildScheme = .environment(String(scheme.dropFirst(4)))
    } else {
      buildScheme = .increment
    }
    try options.run(VersionBump(.build(buildScheme), sync: sync), paths: paths)
  }
}

/// `bundlekit bump version major|minor|patch|X.Y.Z [PATH...]`.
struct BumpVersion: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "version",
    abstract: "Raise CFBundleShortVersionString: major, minor, patch, or a given X.Y.Z."
  )

  @Argument(help: "major, minor, patch, or a version such as 2.1.0.")
  var change: String

  @Argument(help: "Info.plists, .xcodeproj folders, or folders to search (default: here).")
  var paths: [String] = ["."]

  @Flag(help: "Also set build numbers to 1.")
  var resetBuild = false

  @OptionGroup var options: BumpOptions

  func validate() throws {
    if BundleVersion.Part(rawValue: change) == nil, BundleVersion(change) == nil {
      throw ValidationError(
        "'\(change)' is neither major, minor, patch nor a version such as 2.1.0")
    }
  }

  func run() throws {
    let bump = VersionBump(
      .version(part: BundleVersion.Part(rawValue: change), to: BundleVersion(change)),
      resetBuild: resetBuild)
    try options.run(bump, paths: paths)
  }
}
