import Foundation

/// An Xcode target as the build-tool plugins see it (XcodeProjectPlugin's `XcodeTarget` and
/// `XcodeProject`), in plain values, so what the plugins do in Xcode is tested on Linux.
struct XcodeTargetFacts {
  /// What the target builds (`XcodeProduct.Kind`).
  enum Product: Equatable {
    case application, executable, framework, library
    case other(String)
    /// A target without a product (an aggregate).
    case none
  }

  /// The target's name as Xcode shows it.
  var name: String
  /// What it builds.
  var product: Product
  /// The files the target compiles or copies (its input files).
  var files: [URL]
  /// The folder holding the `.xcodeproj` (`SRCROOT`).
  var projectFolder: URL
  /// The project's name (`Travel` for `Travel.xcodeproj`).
  var projectName: String
  /// The plugin's work folder.
  var workFolder: URL
}

/// What the build-tool plugins run in an Xcode target, and why it differs from a package:
///
/// - **CompileStrings** lints only. Xcode compiles `.strings`, `.stringsdict` and
///   `.xcstrings` in its own resource phase; a plugin producing the same `<lang>.lproj`
///   outputs would fail the build with "Multiple commands produce". Findings still reach the
///   build log, and errors still fail the build.
/// - **GenerateStrings** reads from the bundle of the target's own code (`--bundle token`):
///   Xcode targets have no `Bundle.module`.
/// - **BuildInfo** reads the versions as Xcode resolves them for the target
///   (`--xcode-project`, `--target`): its `INFOPLIST_FILE`, or `MARKETING_VERSION` and
///   `CURRENT_PROJECT_VERSION` for a generated Info.plist.
enum XcodeTargets {
  /// CompileStrings in an Xcode target: the tables checked, nothing compiled.
  static func compileStrings(_ target: XcodeTargetFacts, configuration: PluginConfiguration)
    -> PlannedCommand?
  {
    let tables = StringsTables.tables(in: target.files)
    guard !tables.isEmpty else { return nil }
    return StringsTables.lint(
      tables, stampIn: target.workFolder, targetName: target.name, configuration: configuration)
  }

  /// GenerateStrings in an Xcode target: accessors reading the target's own bundle.
  static func generateStrings(_ target: XcodeTargetFacts, configuration: PluginConfiguration)
    -> PlannedCommand?
  {
    let tables = StringsTables.tables(in: target.files)
    guard !tables.isEmpty else { return nil }
    // An app's code is in the main bundle; a framework's in its own, which Bundle(for:) a
    // class of it finds (and which is the main bundle again for an app).
    let bundle = target.product == .application ? "main" : "token"
    return StringsTables.generate(
      tables, into: target.workFolder, targetName: target.name, bundle: bundle,
      configuration: configuration)
  }

  /// BuildInfo in an Xcode target. `projectEntries` are the names in the project folder
  /// (to find the `.xcodeproj`); the project file and every Info.plist it names are inputs,
  /// so a bump reruns it.
  static func buildInfo(_ target: XcodeTargetFacts, projectEntries: [String]) -> PlannedCommand {
    let output = target.workFolder.appending(path: "BuildInfo.swift")
    var arguments = [
      "build-info", "--output", output.path, "--git-folder", target.projectFolder.path,
    ]
    var inputs: [URL] = []
    if let project = projectFile(
      in: target.projectFolder, named: target.projectName,
      entries: projectEntries)
    {
      arguments += ["--xcode-project", project.path, "--target", target.name]
      let pbxproj = project.appending(path: "project.pbxproj")
      inputs.append(pbxproj)
      let text = (try? String(contentsOf: pbxproj, encoding: .utf8)) ?? ""
      inputs += infoPlists(named: text, projectFolder: target.projectFolder).filter {
        FileManager.default.fileExists(atPath: $0.path)
      }
    } else if let plist = target.files.first(where: { $0.lastPathComponent.hasSuffix("Info.plist") }
    ) {
      // No project file to resolve the settings through: the Info.plist the target lists.
      arguments += ["--info-plist", plist.path]
      inputs.append(plist)
    }
    return BuildInfoPlan.command(
      arguments: arguments, inputs: inputs + BuildInfoPlan.gitInputs(above: target.projectFolder),
      output: output, targetName: target.name)
  }

  /// The `.xcodeproj` of a project: the one named after it, else the only one in its folder.
  static func projectFile(in folder: URL, named name: String, entries: [String]) -> URL? {
    let projects = entries.filter { $0.hasSuffix(".xcodeproj") }
    if projects.contains("\(name).xcodeproj") {
      return folder.appending(path: "\(name).xcodeproj")
    }
    return projects.count == 1 ? folder.appending(path: projects[0]) : nil
  }

  /// Every `INFOPLIST_FILE` a project file names, as paths under `projectFolder`
  /// (`$(SRCROOT)` and `$(PROJECT_DIR)` resolved; other settings left to the tool).
  static func infoPlists(named pbxproj: String, projectFolder: URL) -> [URL] {
    var found: [URL] = []
    for line in pbxproj.split(separator: "\n") {
      let text = line.trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix("INFOPLIST_FILE = "), text.hasSuffix(";") else { continue }
      var value = String(text.dropFirst("INFOPLIST_FILE = ".count).dropLast())
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
      }
      for root in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"]
      where value.hasPrefix(root) {
        value = String(value.dropFirst(root.count))
      }
      guard !value.isEmpty, !value.contains("$") else { continue }
      let url =
        value.hasPrefix("/") ? URL(fileURLWithPath: value) : projectFolder.appending(path: value)
      if !found.contains(url) { found.append(url) }
    }
    return found
  }
}
