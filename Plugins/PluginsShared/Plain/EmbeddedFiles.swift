import Foundation

/// The files of an `Embedded` folder that `bundlekit embed` embeds, as the EmbedResources
/// plugin lists them for the build: the tool's own walk rule (BundleKitFileSystem's
/// `SkippedFolders`), so the build reruns for exactly the files that end up in the code.
/// Hidden names, build products and dependencies are skipped, as folders and as files.
enum EmbeddedFiles {
  /// The names every BundleKit walk skips (`SkippedFolders.names`; a test keeps them equal).
  static let skippedNames: Set<String> = [
    ".build", ".git", ".swiftpm", "DerivedData", "Pods", "Carthage", "node_modules",
  ]

  /// Whether the walk skips a folder or file of this name: a listed name, or a hidden one.
  static func skips(_ name: String) -> Bool {
    skippedNames.contains(name) || (name.hasPrefix(".") && name != "." && name != "..")
  }

  /// Whether the file at `relativePath` below the folder is embedded: no component of its
  /// path is skipped.
  static func isEmbedded(relativePath: String) -> Bool {
    !relativePath.split(separator: "/").contains { skips(String($0)) }
  }

  /// The embedded files below `folder`, sorted by path.
  static func files(in folder: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var files: [URL] = []
    while let relative = walker.nextObject() as? String {
      let url = folder.appending(path: relative)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
        continue
      }
      if isFolder.boolValue {
        if skips(url.lastPathComponent) { walker.skipDescendants() }
      } else if isEmbedded(relativePath: relative) {
        files.append(url)
      }
    }
    return files.sorted { $0.path < $1.path }
  }
}
