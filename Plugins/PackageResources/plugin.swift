import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory package-resources [--target T ...]
/// [--output DIR] [--format tar.gz]`: for each target with resources, a reproducible archive
/// of them, strings tables compiled to binary plists, named with the version and build number
/// of the target's Info.plist when it has one, under `dist/`.
@main
struct PackageResources: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let names = extractor.extractOption(named: "target")
    let output =
      extractor.extractOption(named: "output").last
      ?? context.package.directoryURL.appending(path: "dist").path
    let format = extractor.extractOption(named: "format").last ?? "tar.gz"
    let targets =
      names.isEmpty ? context.package.targets : try context.package.targets(named: names)
    let tool = try context.tool(named: "bundlekit").url
    var made = 0
    for case let target as SourceModuleTarget in targets {
      // The top-level folders and files that hold the target's resources.
      let base = target.directoryURL.standardizedFileURL.path
      var roots: [String] = []
      for file in target.sourceFiles where file.type == .resource {
        let path = file.url.standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { continue }
        let first =
          path.dropFirst(base.count + 1).split(separator: "/").first.map(String.init) ?? ""
        let root = base + "/" + first
        if !first.isEmpty, !roots.contains(root) { roots.append(root) }
      }
      guard !roots.isEmpty else { continue }
      var arguments =
        ["archive", "create"] + roots.sorted() + [
          "-o", "\(output)/\(target.name).\(format)", "--compile-strings",
        ]
      let plist = target.directoryURL.appending(path: "Info.plist")
      if FileManager.default.fileExists(atPath: plist.path) {
        arguments += ["--version-from", plist.path]
      }
      try ToolRunner.run(tool, arguments + extractor.remainingArguments + ["--print-path"])
      made += 1
    }
    if made == 0 { Diagnostics.warning("no target with resources") }
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
      for target in context.xcodeProject.targets
      where names.isEmpty || names.contains(target.displayName) {
        let resources = target.inputFiles.filter { $0.type == .resource }.map(\.url.path)
        guard !resources.isEmpty else { continue }
        try ToolRunner.run(
          tool,
          ["archive", "create"] + resources.sorted()
            + [
              "-o", "\(output)/\(target.displayName).\(format)", "--compile-strings",
              "--print-path",
            ]
            + extractor.remainingArguments)
      }
    }
  }
#endif
