import Foundation
import PackagePlugin

/// The package's targets as the plugin knows them, written for the tool's `--targets`: the
/// tool must never run `swift package describe` from inside a plugin, which would wait
/// forever for the lock the running `swift package` holds.
enum DeclaredTargets {
  /// Writes `[{"name", "path", "resources"}]` for the package's source targets (those named
  /// in `names`, when it is not empty; an unknown name is an error) into the plugin's work
  /// folder and returns the file.
  static func write(_ package: Package, only names: [String] = [], to folder: URL) throws -> URL {
    var rows: [[String: Any]] = []
    let targets = names.isEmpty ? package.targets : try package.targets(named: names)
    for target in targets {
      guard let module = target as? SourceModuleTarget else { continue }
      let resources = module.sourceFiles.filter { $0.type == .resource }.map(\.url.path)
      rows.append([
        "name": module.name, "path": module.directoryURL.path, "resources": resources,
      ])
    }
    let data = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys])
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appending(path: "targets.json")
    try data.write(to: file, options: .atomic)
    return file
  }
}
