import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// Finds strings tables under files and folders.
public enum TableDiscovery {
  /// Every `.strings`, `.stringsdict` and `.xcstrings` file in `paths` (files are taken as
  /// they are; folders are searched), sorted and without repeats.
  public static func tables(in paths: [String]) throws(DiagnosticsError) -> [TableLocation] {
    try files(in: paths, taking: { StringsTableKind(path: $0) != nil }).compactMap(
      TableLocation.init(path:))
  }

  /// Every storyboard and XIB in a `.lproj` folder in `paths` (files are taken as they are;
  /// folders are searched), sorted: the Interface Builder documents Xcode exports strings of.
  static func interfaceDocuments(in paths: [String]) throws(DiagnosticsError) -> [String] {
    try files(in: paths, taking: DocumentStrings.isDocument).filter {
      DocumentStrings.isDocument($0)
        && Paths.lastComponent(Paths.parent($0)).hasSuffix(".lproj")
    }
  }

  /// The files named in `paths`, and those below its folders whose names `take` accepts,
  /// sorted and without repeats.
  private static func files(
    in paths: [String], taking take: (String) -> Bool
  ) throws(DiagnosticsError) -> [String] {
    var found: [String] = []
    var outside: [Diagnostic] = []
    let manager = FileManager.default
    // A batch a killed run left half-written in these folders is finished first when this
    // run writes them (the walk below finishes those inside); never above them.
    ScratchRecovery.recover(atRoots: paths)
    for path in paths {
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw DiagnosticsError([Diagnostic(.error, .syntax, path, "no such file or folder")])
      }
      guard isFolder.boolValue else {
        found.append(path)
        continue
      }
      let realRoot = FileIO.realPath(path) ?? path
      DirectoryWalker.walk(path) { entry in
        let name = entry.name
        if SkippedFolders.skips(name) { return .skip }
        // An exported localization catalog holds copies of the tables for a translator, not
        // the project's own (Xcode never builds them): a table inside one is taken only
        // when named.
        if name.hasSuffix(".xcloc") { return .skip }
        if take(name) {
          let relative = entry.relativePath
          let file =
            path == "." ? relative : (path.hasSuffix("/") ? path + relative : path + "/" + relative)
          // A link found in the tree is followed only when it stays inside it: a planted
          // `Main.storyboard -> ~/.aws/credentials` is not read into an export. (A link to
          // a device or FIFO is the reader's to refuse, as any such file.)
          var info = stat()
          var target = stat()
          if lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
            stat(file, &target) == 0, target.st_mode & S_IFMT == S_IFREG,
            !(FileIO.realPath(file).map { realRoot == "/" || $0.hasPrefix(realRoot + "/") }
              ?? false)
          {
            outside.append(
              Diagnostic(.error, .syntax, file, "is a link that leads out of \(path): not read"))
          } else {
            found.append(file)
          }
        }
        return .descend
      }
    }
    if !outside.isEmpty { throw DiagnosticsError(outside) }
    var seen: Set<String> = []
    return found.sorted().filter { seen.insert($0).inserted }
  }
}
