import Archiving
import ArgumentParser
import FileSystem
import Foundation
import PropertyListXML
import Resources
import StringsTable
import Versioning

#if canImport(Glibc)
  import Glibc
#endif

/// `bundlekit release [PACKAGE_DIR]`: the whole chain — lint, compile, bump, archive, report.
struct ReleaseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "release",
    abstract: "Lint and compile strings tables, bump the build, archive each target's resources.",
    discussion: """
      In order, stopping at the first failure: every strings table of the package is \
      checked (errors stop the run before anything changes); the build number (or version) \
      is raised across the package's Info.plists; each target's resources are archived \
      under dist/ with their tables compiled to binary plists, named with the target's \
      version and build. The report lists what was checked, compiled, bumped (old -> new) \
      and written, with sizes and SHA-256. --dry-run reads everything and changes nothing.
      """
  )

  /// What to raise.
  enum Bump: String, ExpressibleByArgument, CaseIterable {
    case build, patch, minor, major, none
  }

  @Argument(help: "The package folder (default: here).")
  var packageDirectory = "."

  @Option(
    help:
      "What to raise: build (the build number), patch, minor or major (the version; the build number stays), or none."
  )
  var bump = Bump.build

  @Option(help: "The archive format of each target's resources.")
  var archiveFormat = ArchiveFormat.tarGzip

  @Option(help: "Where the archives go (default: PACKAGE_DIR/dist).")
  var output: String?

  @Option(help: "The language the others are compared with.")
  var developmentLanguage = "en"

  @Flag(help: "Read and check everything, print the report, change nothing.")
  var dryRun = false

  @Option(help: "Report: text or json.")
  var format: OutputFormat = .text

  @OptionGroup var severity: SeverityOptions

  func run() throws {
    let package = packageDirectory
    guard FileManager.default.fileExists(atPath: Paths.join(package, "Package.swift")) else {
      throw CLIError.invalidValue(
        value: package, type: "package folder", reason: "it has no Package.swift")
    }
    let progress = ReleaseProgress(steps: 4)
    var report = ReleaseReport(package: package, dryRun: dryRun)

    // 1. Lint: errors stop the run before anything is written.
    progress.step("checking strings tables")
    let scan = ResourceScan(folder: package, developmentLanguage: developmentLanguage)
    let targets = scan.targets.filter { !$0.path.contains("/Tests/") }
    let tables: [TableLocation]
    do {
      tables = try TableDiscovery.tables(in: targets.map(\.path))
    } catch {
      error.diagnostics.forEach { Diagnostics.printToStandardError($0.description) }
      throw ExitCode(1)
    }
    // What the build compiles, the release takes: only unreadable or ambiguous tables stop
    // it, unless the user raises other findings.
    let findings = severity.policy(.compile).apply(
      StringsLinter(developmentLanguage: developmentLanguage).lint(tables))
    findings.forEach { Diagnostics.printToStandardError($0.description) }
    report.tablesChecked = tables.count
    report.errors = findings.filter { $0.severity == .error }.count
    report.warnings = findings.count - report.errors
    guard report.errors == 0 else {
      progress.finish()
      Diagnostics.printToStandardError(
        "error: release stopped: \(report.errors) error\(report.errors == 1 ? "" : "s") in strings tables; nothing was changed"
      )
      throw ExitCode(1)
    }

    // 2. Compile, into staging copies: the sources stay as they are. Done before the bump so
    // a table that does not compile stops the run with every file unchanged.
    progress.step("compiling strings tables")
    var staged: [(target: ResourceScan.Target, staging: TemporaryStaging)] = []
    defer { staged.forEach { $0.staging.remove() } }
    for target in targets {
      let roots = Self.resourceRoots(of: target)
      guard !roots.isEmpty else { continue }
      let staging = try TemporaryStaging(copying: roots)
      staged.append((target, staging))
      report.tablesCompiled += staging.compiled.count
    }

    // 3. Archive each target's resources into a hidden folder of the output: a failure here
    // leaves every Info.plist as it was.
    progress.step("archiving resources")
    let folder = output ?? Paths.join(package, "dist")
    let plists = targets.flatMap { target in
      target.infoPlists.map { Paths.join(target.path, $0.path) }
    }
    let versionBump = bump.change.map { VersionBump($0) }
    if let versionBump, !plists.isEmpty {
      report.bumped = try BumpOptions.plan(versionBump, paths: plists, includeTests: false).values
    }
    // A locked scratch folder: one left by a killed run is removed by the next.
    var scratch: ScratchFolder?
    if !dryRun {
      try FileIO.createFolder(folder)
      scratch = try ScratchFolder(beside: Paths.join(folder, "release"))
    }
    defer { scratch?.remove() }
    for (target, staging) in staged {
      guard let scratch else { break }
      let path = Paths.join(scratch.path, target.name)
      var options = ArchiveCreateOptions(format: archiveFormat)
      options.reproducible = true
      _ = try ArchiveCreator.create(staging.paths, to: path, options: options) { _, _ in }
    }

    // 4. Bump, then move the archives in place under names with the new version and build.
    progress.step("bumping \(bump.rawValue)")
    if let versionBump, !plists.isEmpty, !dryRun {
      report.bumped = try BumpOptions.apply(versionBump, paths: plists, includeTests: false).values
    }
    var moves: [(source: String, target: String)] = []
    for (target, _) in staged {
      let plist = target.infoPlists.first.map { Paths.join(target.path, $0.path) }
      let name = try Self.archiveName(
        target: target.name, plist: plist, format: archiveFormat,
        bumped: dryRun ? report.bumped : [])
      let path = Paths.join(folder, name)
      guard let scratch else {
        report.archives.append(.init(target: target.name, path: path, size: nil, sha256: nil))
        continue
      }
      moves.append((Paths.join(scratch.path, target.name), path))
    }
    // Every archive into place at once (all or none, across a crash too).
    if let scratch { try FileMoves.perform(moves, transaction: scratch.transaction) }
    for (move, (target, _)) in zip(moves, staged) {
      let bytes = try FileIO.read(move.target)
      report.archives.append(
        .init(target: target.name, path: move.target, size: bytes.count, sha256: SHA256.hex(bytes)))
    }
    progress.finish()

    switch format {
    case .text: Diagnostics.printLine(report.text)
    case .json: Diagnostics.writeToStandardOutput(try report.json.encoded(as: .json) + [0x0A])
    }
  }

  /// The top-level files and folders of a target that hold its resources: those SwiftPM
  /// declares when the package could be described, else anything but sources, Info.plist and
  /// hidden files.
  static func resourceRoots(of scanned: ResourceScan.Target) -> [String] {
    let target = scanned.path
    if let declared = scanned.declaredResources {
      let base = Paths.join(FileManager.default.currentDirectoryPath, target)
      var roots: [String] = []
      for path in declared {
        let prefix = [target, base].first { path.hasPrefix($0 + "/") }
        guard let prefix,
          let first = path.dropFirst(prefix.count + 1).split(separator: "/").first
        else { continue }
        let root = Paths.join(target, String(first))
        if !roots.contains(root) { roots.append(root) }
      }
      return roots.sorted()
    }
    let sourceExtensions: Set<String> = [
      "swift", "c", "h", "m", "mm", "cpp", "cc", "s", "modulemap",
    ]
    func isResource(_ path: String) -> Bool {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        return false
      }
      if !isFolder.boolValue {
        let name = Paths.lastComponent(path)
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return !name.hasPrefix(".") && name != "Info.plist" && !sourceExtensions.contains(ext)
      }
      let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return children.contains { isResource(Paths.join(path, $0)) }
    }
    let children = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
    return children.sorted().map { Paths.join(target, $0) }.filter(isResource)
  }

  /// `Target-VERSION-BUILD.tar.gz`, with the values after the bump.
  static func archiveName(
    target: String, plist: String?, format: ArchiveFormat, bumped: [VersionBump.ValueChange]
  ) throws -> String {
    var parts: [String] = []
    if let plist {
      let bundle = try VersionInventory(found: [.infoPlist(plist)]).bundles.first
      for (key, current) in [
        ("CFBundleShortVersionString", bundle?.version?.current),
        ("CFBundleVersion", bundle?.build?.current),
      ] {
        let raised = bumped.first { $0.key == key && $0.places.contains { $0.file == plist } }
        if let value = raised?.new ?? current { parts.append(value) }
      }
    }
    return ([target] + parts).joined(separator: "-") + "." + format.rawValue
  }
}

extension ReleaseCommand.Bump {
  /// The version change, nil for `none`.
  var change: VersionBump.Change? {
    switch self {
    case .build: .build(.increment)
    case .patch: .version(part: .patch, to: nil)
    case .minor: .version(part: .minor, to: nil)
    case .major: .version(part: .major, to: nil)
    case .none: nil
    }
  }
}
