import ArgumentParser
import BundleKitArchiving
import BundleKitDiagnostics
import BundleKitPropertyList
import BundleKitReleasing
import BundleKitResources
import BundleKitStringsTable
import BundleKitVersioning
import _BundleKitCommandLineTool

#if canImport(Glibc)
  import Glibc
#endif

/// `bundlekit release [PACKAGE_DIR]`: the whole chain — lint, compile, bump, archive, report.
struct ReleaseCommand: ToolCommand {
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

  @OptionGroup var languageOptions: LanguageOptions

  @Flag(help: "Read and check everything, print the report, change nothing.")
  var dryRun = false

  @OptionGroup var formatOptions: FormatOptions

  @OptionGroup var severity: SeverityOptions

  @Option(
    help: ArgumentHelp(
      "Leave out of the archives each language translated under this share (0 to 1).",
      valueName: "share"))
  var pruneBelow: Double?

  @Option(
    help:
      "A JSON file of the package's targets ([{name, path, resources}]), as the plugins write it: SwiftPM is then not asked."
  )
  var targets: String?

  func run(_ run: ToolRun) throws {
    var pipeline = ReleasePipeline(packageDirectory: packageDirectory)
    if let targets { pipeline.declaredTargets = try ResourceScan.DeclaredTarget.read(targets) }
    pipeline.bump = bump.change
    pipeline.archiveFormat = archiveFormat
    pipeline.outputFolder = output
    pipeline.developmentLanguage = languageOptions.developmentLanguage(in: run)
    pipeline.policy = try severity.apply(
      in: run, base: .compile)
    pipeline.dryRun = dryRun
    pipeline.pruneBelow = run.setting(pruneBelow, \.pruneBelow)
    let progress = ReleaseProgress(steps: 4)
    defer { progress.finish() }
    let report = try pipeline.run(step: progress.step, findings: run.diagnostics.emit)
    switch formatOptions.format(in: run) {
    case .text: StandardStreams.printLine(report.text)
    case .json: StandardStreams.writeJSON(report)
    }
  }
}

/// Step-by-step progress on standard error, only when it is a terminal.
final class ReleaseProgress {
  private let enabled = StandardStreams.colorsAllowed(on: STDERR_FILENO)
  private let steps: Int
  private var done = 0

  init(steps: Int) { self.steps = steps }

  func step(_ label: String) {
    done += 1
    guard enabled else { return }
    StandardStreams.writeToStandardError("\r\u{1B}[2K[\(done)/\(steps)] \(label)…")
  }

  func finish() {
    if enabled { StandardStreams.writeToStandardError("\r\u{1B}[2K") }
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

extension ReleaseCommand: ReportsFindingsInFormat {}
