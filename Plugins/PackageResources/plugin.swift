import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory package-resources [--target T ...]
/// [--output DIR] [--format tar.gz]`: for each target with resources, a reproducible archive
/// of them, strings tables compiled to binary plists, named with the version and build number
/// of the target's Info.plist when it has one, under `dist/`.
///
/// It is `bundlekit release --bump none` on the targets asked for: the tool decides which
/// files are a target's resources and what the archive is called (`ResourceArchive`), the
/// same way for both.
@main
struct PackageResources: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let names = extractor.extractOption(named: "target")
    let output = extractor.extractOption(named: "output").last
    let format = extractor.extractOption(named: "format").last
    // The targets come from the plugin's context: the tool must not ask SwiftPM, which
    // waits for the lock this `swift package` holds.
    let targets = try DeclaredTargets.write(
      context.package, only: names, to: context.pluginWorkDirectoryURL)
    var command = [
      "release", context.package.directoryURL.path, "--targets", targets.path, "--bump", "none",
    ]
    if let output { command += ["--output", output] }
    if let format { command += ["--archive-format", format] }
    if !extractor.remainingArguments.contains("--config") {
      command += PluginConfiguration.load(from: [context.package.directoryURL]).arguments
    }
    try ToolRunner.run(
      context.tool(named: "bundlekit").url, command + extractor.remainingArguments)
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension PackageResources: XcodeCommandPlugin {
    /// Each target's resource files (Copy Bundle Resources), archived by target.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      var extractor = ArgumentExtractor(arguments)
      let names = Set(extractor.extractOption(named: "target"))
      let output =
        extractor.extractOption(named: "output").last
        ?? context.xcodeProject.directoryURL.appending(path: "dist").path
      let format = extractor.extractOption(named: "format").last ?? "tar.gz"
      let tool = try context.tool(named: "bundlekit").url
      // Named as the SwiftPM variant names them (`Target-VERSION-BUILD.tar.gz`), from the
      // version Xcode builds into each target.
      let project = context.xcodeProject.directoryURL.appending(
        path: "\(context.xcodeProject.displayName).xcodeproj"
      ).path
      for target in context.xcodeProject.targets
      where names.isEmpty || names.contains(target.displayName) {
        let resources = target.inputFiles.filter { $0.type == .resource }.map(\.url.path)
        guard !resources.isEmpty else { continue }
        try ToolRunner.run(
          tool,
          ["archive", "create"] + resources.sorted()
            + [
              "-o", "\(output)/\(target.displayName).\(format)", "--compile-strings",
              "--print-path", "--version-from", project, "--version-target", target.displayName,
            ]
            + extractor.remainingArguments)
      }
    }
  }
#endif
