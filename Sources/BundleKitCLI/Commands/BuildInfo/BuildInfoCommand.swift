import ArgumentParser
import BundleKitCodeGeneration
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitVersioning
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit build-info -o FILE.swift [--info-plist PATH] [--git-folder DIR]`: the Swift
/// file the BuildInfo plugin adds to a target.
struct BuildInfoCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "build-info",
    abstract: "Generate a Swift file with the version, build number, git commit and build date.",
    discussion: """
      The version and build number come from the Info.plist ($(SETTING) references resolved), \
      the commit from git when the folder is in a repository, the date from SOURCE_DATE_EPOCH \
      when set (reproducible builds) or the clock. The file is rewritten only when it changes.
      """
  )

  @Option(name: .shortAndLong, help: "The Swift file to write.")
  var output: String

  @Option(help: "The target's Info.plist.")
  var infoPlist: String?

  @Option(
    help: """
      An Xcode project (.xcodeproj) whose --target's versions are read as Xcode resolves \
      them: its INFOPLIST_FILE, or MARKETING_VERSION and CURRENT_PROJECT_VERSION for a \
      generated Info.plist.
      """)
  var xcodeProject: String?

  @Option(help: "The target of --xcode-project, by its Xcode name.")
  var target: String?

  @Option(help: "A folder inside the git repository.")
  var gitFolder = "."

  @Option(help: "The name of the generated enum.")
  var typeName = "BuildInfo"

  @Flag(help: "Make the generated enum public.")
  var `public` = false

  func validate() throws {
    if (xcodeProject == nil) != (target == nil) {
      throw ValidationError("--xcode-project and --target go together")
    }
    if xcodeProject != nil, infoPlist != nil {
      throw ValidationError("give --info-plist or --xcode-project, not both")
    }
    if let problem = Identifier.typeNameProblem(typeName) { throw ValidationError(problem) }
  }

  func run(_ run: ToolRun) throws {
    var version: String?
    var build: String?
    if let infoPlist {
      // Settings from the package (or project) being built, nothing outside it.
      let inventory = try VersionInventory(
        found: [.infoPlist(infoPlist)], scope: SettingsScope(paths: [gitFolder, infoPlist]))
      version = inventory.bundles.first?.version?.current
      build = inventory.bundles.first?.build?.current
    }
    if let xcodeProject, let target {
      let inventory = try VersionInventory(
        found: [.project(xcodeProject)], targets: [target],
        scope: SettingsScope(paths: [gitFolder, xcodeProject]))
      guard let bundle = inventory.bundles.first(where: { $0.target == target }) else {
        throw ToolError.unknownTarget(project: xcodeProject, target: target)
      }
      // A value the project leaves unresolved is left out of the file, and said.
      run.diagnostics.emit(
        bundle.problems.map {
          var warning = $0.diagnostic
          warning.severity = .warning
          return warning
        })
      version = bundle.version?.current
      build = bundle.build?.current
    }
    let epoch = BuildEnvironment.sourceDateEpoch()
    let date = epoch.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date()
    var source = BuildInfoSource(date: PropertyListValue.date(date).scalarText ?? "")
    source.typeName = typeName
    source.isPublic = `public`
    source.version = version
    source.build = build
    source.commit = Self.gitCommit(in: gitFolder)
    try FileIO.writeIfChanged(Array(source.code.utf8), to: output)
  }

  static func gitCommit(in folder: String) -> String? {
    guard let result = ToolOutput.run(["git", "-C", folder, "rev-parse", "HEAD"]) else {
      return nil
    }
    let text = String(decoding: result.output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return result.status == 0 && !text.isEmpty ? text : nil
  }
}
