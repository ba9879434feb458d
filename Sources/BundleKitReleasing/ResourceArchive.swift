import BundleKitArchiving
import BundleKitFileSystem
import BundleKitResources
import BundleKitVersioning
import Foundation

/// A target's resources as one archive: which of its top-level files and folders hold them,
/// and the name the archive carries (`Target-VERSION-BUILD.tar.gz`).
///
/// `bundlekit release`, the `release` and `package-resources` plugins (through `release`)
/// and `bundlekit archive create --version-from` all go through it, so an archive is named
/// the same way whichever made it.
public enum ResourceArchive {
  /// The top-level files and folders of a target that hold its resources: those SwiftPM
  /// declares when the package could be described, else anything but sources, Info.plist and
  /// hidden files.
  ///
  /// - Parameter target: The target as a scan found it.
  /// - Returns: Paths below the target's folder, sorted.
  public static func roots(of target: ResourceScan.Target) -> [String] {
    let folder = target.path
    if let declared = target.declaredResources {
      // SwiftPM names resources by absolute path; a scan may have a relative folder.
      let absolute = Paths.join(FileManager.default.currentDirectoryPath, folder)
      var roots: [String] = []
      for path in declared {
        let prefix = [folder, absolute].first { path.hasPrefix($0 + "/") }
        guard let prefix,
          let first = path.dropFirst(prefix.count + 1).split(separator: "/").first
        else { continue }
        let root = Paths.join(folder, String(first))
        if !roots.contains(root) { roots.append(root) }
      }
      return roots.sorted()
    }
    // One walk that follows no link: a link loop (`a -> .`) or a link out of the target is
    // an entry, never a folder to go into.
    var holding: Set<String> = []
    DirectoryWalker.walk(folder) { entry in
      let top = String(entry.relativePath.prefix { $0 != "/" })
      if holding.contains(top) { return .skip }
      if !entry.isFolder, isResource(entry.name) { holding.insert(top) }
      return .descend
    }
    return holding.sorted().map { Paths.join(folder, $0) }
  }

  /// Source files a target compiles: never resources.
  static let sourceExtensions: Set<String> = [
    "swift", "c", "h", "m", "mm", "cpp", "cc", "s", "modulemap",
  ]

  /// Whether a file called `name` is a resource: not a source, not Info.plist, not hidden.
  static func isResource(_ name: String) -> Bool {
    let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    return !name.hasPrefix(".") && name != "Info.plist" && !sourceExtensions.contains(ext)
  }

  /// `name` with `-VERSION-BUILD` from `plist` put before its archive extension
  /// (`dist/App.tar.gz` becomes `dist/App-2.4.0-46.tar.gz`), or after it when it has none.
  ///
  /// - Parameters:
  ///   - name: The archive's name or path.
  ///   - format: The archive's format, whose extension `name` may end with.
  ///   - plist: The Info.plist with the version and build, or an Xcode project (`.xcodeproj`)
  ///     whose `target` has them in its build settings; nil leaves `name` as it is.
  ///   - target: The project's target (the first when nil).
  ///   - bumped: Values a bump is raising: the name carries the new ones.
  /// - Returns: The name; unchanged when the plist holds neither value.
  public static func name(
    _ name: String, format: ArchiveFormat, versionFrom plist: String?, target: String? = nil,
    bumped: [VersionBump.ValueChange] = []
  ) throws -> String {
    guard let plist else { return name }
    let bundle: VersionedBundle?
    if plist.hasSuffix(".xcodeproj") {
      // The version Xcode builds into the target (its settings or its Info.plist), as
      // `bundlekit version` shows it; the Xcode package-resources plugin names archives so.
      let bundles = try VersionInventory(found: [.project(plist)]).bundles
      bundle = target.map { name in bundles.first { $0.target == name } } ?? bundles.first
      if let target, bundle == nil {
        throw VersioningError.unreadable(
          path: plist, line: nil, message: "no target named \(target) in the project")
      }
    } else {
      bundle = try VersionInventory(found: [.infoPlist(plist)]).bundles.first
    }
    var parts: [String] = []
    for (key, current) in [
      ("CFBundleShortVersionString", bundle?.version?.current),
      ("CFBundleVersion", bundle?.build?.current),
    ] {
      let raised = bumped.first { $0.key == key && $0.places.contains { $0.file == plist } }
      if let value = raised?.new ?? current { parts.append(value) }
    }
    guard !parts.isEmpty else { return name }
    let suffix = "." + format.rawValue
    let hasSuffix = name.lowercased().hasSuffix(suffix)
    let stem = hasSuffix ? String(name.dropLast(suffix.count)) : name
    return stem + "-" + parts.joined(separator: "-") + (hasSuffix ? suffix : "")
  }
}
