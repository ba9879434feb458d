import BundleKitArchiving
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitResources
import BundleKitStringsTable
import BundleKitVersioning
import Foundation

/// The whole release of a package, in order and stopping at the first failure: lint every
/// strings table, compile them into staging copies, archive each target's resources, raise
/// the build number (or version) across the Info.plists, and move the archives into place
/// under names with the new values.
///
/// A failure at any step leaves every file as it was: tables are compiled in copies, the
/// archives are written to a locked scratch folder and moved into place together (all or
/// none, across a crash too), and the bump is one journaled batch. `bundlekit release` and
/// the `release` command plugin run it.
public struct ReleasePipeline: Sendable {
  /// The package folder (it holds `Package.swift`).
  public var packageDirectory: String
  /// What to raise; nil raises nothing.
  public var bump: VersionBump.Change? = .build(.increment)
  /// The format of each target's archive.
  public var archiveFormat = ArchiveFormat.tarGzip
  /// Where the archives go; nil for `dist/` in the package.
  public var outputFolder: String?
  /// The language the others are compared with.
  public var developmentLanguage = "en"
  /// Severities of lint findings: by default what the build compiles, the release takes.
  public var policy = SeverityPolicy.compile
  /// Whether to read and check everything and change nothing.
  public var dryRun = false
  /// Leave out of the archives each language translated under this share (0...1) of the
  /// development language's keys; nil keeps every language.
  public var pruneBelow: Double?
  /// The package's targets as a command plugin knows them; nil to ask SwiftPM (`swift package
  /// describe`), which a plugin must never make the tool do.
  public var declaredTargets: [ResourceScan.DeclaredTarget]?

  /// A release of the package in `packageDirectory`.
  public init(packageDirectory: String) {
    self.packageDirectory = packageDirectory
  }

  /// Runs the release.
  ///
  /// - Parameters:
  ///   - step: Called as each of the four steps starts, with its label.
  ///   - findings: Called once with the lint findings (warnings; errors stop the run).
  /// - Returns: What was checked, compiled, bumped and written.
  /// - Throws: ``ReleaseError`` when the folder is no package or tables have errors; the
  ///   error of the step that failed otherwise. Nothing was changed then.
  public func run(
    step: (String) -> Void = { _ in }, findings: ([Diagnostic]) -> Void = { _ in }
  ) throws -> ReleaseReport {
    let package = packageDirectory
    guard FileManager.default.fileExists(atPath: Paths.join(package, "Package.swift")) else {
      throw ReleaseError.notAPackage(path: package)
    }
    var report = ReleaseReport(package: package, dryRun: dryRun)

    // 1. Lint: errors stop the run before anything is written.
    step("checking strings tables")
    let scan = ResourceScan(
      folder: package, developmentLanguage: developmentLanguage, declared: declaredTargets)
    let targets = scan.targets.filter { !$0.path.contains("/Tests/") }
    let tables = try TableDiscovery.tables(in: targets.map(\.path))
    let found = policy.apply(StringsLinter(developmentLanguage: developmentLanguage).lint(tables))
    findings(found)
    report.tablesChecked = tables.count
    report.errors = found.filter { $0.severity == .error }.count
    report.warnings = found.count - report.errors
    guard report.errors == 0 else { throw ReleaseError.stopped(errors: report.errors) }

    // 2. Compile, into staging copies: the sources stay as they are. Done before the bump so
    // a table that does not compile stops the run with every file unchanged.
    step("compiling strings tables")
    var staged: [(target: ResourceScan.Target, staging: ResourceStaging)] = []
    defer { for stage in staged { stage.staging.remove() } }
    for target in targets {
      let roots = ResourceArchive.roots(of: target)
      guard !roots.isEmpty else { continue }
      let staging = try ResourceStaging(
        copying: roots, developmentLanguage: developmentLanguage, policy: policy,
        pruneBelow: pruneBelow)
      staged.append((target, staging))
      report.tablesCompiled += staging.compiled.count
      for (language, share) in staging.pruned.sorted(by: { $0.key < $1.key }) {
        report.pruned.append(
          ReleaseReport.Pruned(target: target.name, language: language, share: share))
      }
    }

    // 3. Archive each target's resources into a hidden folder of the output: a failure here
    // leaves every Info.plist as it was.
    step("archiving resources")
    let folder = outputFolder ?? Paths.join(package, "dist")
    let plists = targets.flatMap { target in
      target.infoPlists.map { Paths.join(target.path, $0.path) }
    }
    let versionBump = bump.map { VersionBump($0) }
    if let versionBump, !plists.isEmpty {
      report.bumped = try versionBump.plan(paths: plists).values
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
      var options = ArchiveCreateOptions(format: archiveFormat)
      options.reproducible = true
      _ = try ArchiveCreator.create(
        staging.paths, to: Paths.join(scratch.path, target.name), options: options
      ) { _, _ in }
    }

    // 4. Bump, then move the archives in place under names with the new version and build.
    step("bumping")
    if let versionBump, !plists.isEmpty, !dryRun {
      report.bumped = try versionBump.apply(paths: plists).values
    }
    var moves: [FileMoves.FileMove] = []
    for (target, _) in staged {
      let plist = target.infoPlists.first.map { Paths.join(target.path, $0.path) }
      let name = try ResourceArchive.name(
        target.name + "." + archiveFormat.rawValue, format: archiveFormat, versionFrom: plist,
        bumped: dryRun ? report.bumped : [])
      let path = Paths.join(folder, name)
      guard let scratch else {
        report.archives.append(.init(target: target.name, path: path, size: nil, sha256: nil))
        continue
      }
      moves.append(FileMoves.FileMove(source: Paths.join(scratch.path, target.name), target: path))
    }
    // Every archive into place at once (all or none, across a crash too).
    if let scratch { try FileMoves.perform(moves, transaction: scratch.transaction) }
    for (move, (target, _)) in zip(moves, staged) {
      let bytes = try FileIO.read(move.target)
      report.archives.append(
        .init(target: target.name, path: move.target, size: bytes.count, sha256: SHA256.hex(bytes)))
    }
    return report
  }
}

/// Why a release stopped; nothing was changed.
public enum ReleaseError: DiagnosticConvertible, Sendable, Equatable {
  /// The folder has no `Package.swift`.
  case notAPackage(path: String)
  /// Strings tables have errors (they were reported as findings).
  case stopped(errors: Int)

  /// One error.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .notAPackage(let path):
      [.error(path, "not a package folder: it has no Package.swift")]
    case .stopped(let errors):
      [
        .error(
          nil,
          "release stopped: \(errors) error\(errors == 1 ? "" : "s") in strings tables; nothing was changed"
        )
      ]
    }
  }
}
