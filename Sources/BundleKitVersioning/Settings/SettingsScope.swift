import BundleKitFileSystem
import Foundation

/// The trees a run reads build settings from: the folders it was asked about, links
/// followed. A checkout is input from strangers, and an `.xcconfig` may `#include
/// "../../../proc/self/environ"`, an XcodeGen `configFiles:` or a Tuist `xcconfig:` may name
/// `~/.aws/credentials`: a file outside these trees is never read as settings (nor is
/// anything under `/proc`, `/sys` or `/dev` but the RAM disk `/dev/shm`, wherever the trees
/// are), so no value of it can reach a table, a message or JSON.
public struct SettingsScope: Sendable, Hashable {
  /// The real paths of the trees.
  public private(set) var roots: [String]
  /// Whether files outside the trees may be read too (`--allow-outside`: the user trusts
  /// the checkout). System folders stay out, and files are still checked to be settings.
  public var allowsOutside = false

  /// Folders whose files are never settings, whatever the trees: the kernel's views of
  /// processes and devices.
  static let systemFolders = ["/proc", "/sys", "/dev"]

  /// The folders below a system folder where files are files: a RAM disk (a CI job's
  /// checkout on `/dev/shm`). Below one, files count as anywhere else.
  static let filesInSystemFolders = ["/dev/shm"]

  /// The trees of `paths` as a command takes them: the git checkout a path is in (the
  /// nearest folder at or above it holding `.git`), else the path itself: a folder is its own
  /// tree; a file, an `.xcodeproj`, an `.xcworkspace` or a spec stands for the folder holding
  /// it. A checkout is one tree (an XcodeGen spec may include `../shared.yml` of it); what
  /// lies outside it (the user's home, `/proc`) is never its settings.
  public init(paths: [String], allowingOutside: Bool = false) {
    roots = []
    allowsOutside = allowingOutside
    for path in paths {
      let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
      let isBundle =
        trimmed.hasSuffix(".xcodeproj") || trimmed.hasSuffix(".xcworkspace")
        || !Self.isFolder(trimmed)
      guard let real = FileIO.realPath(isBundle ? Paths.parent(trimmed) : trimmed) else {
        continue
      }
      let root = Self.checkout(containing: real) ?? real
      if !roots.contains(root) { roots.append(root) }
    }
  }

  /// The nearest folder at or above `folder` (a real path) that holds `.git`.
  static func checkout(containing folder: String) -> String? {
    var current = folder
    for _ in 0..<256 {
      if FileIO.exists(Paths.join(current, ".git")) { return current }
      let parent = Paths.parent(current)
      guard parent != current else { return nil }
      current = parent
    }
    return nil
  }

  /// The folders of what a search found: each Info.plist's, project's or spec's folder.
  init(found: [InfoPlistDiscovery.Found]) {
    self.init(paths: found.map(\.path))
  }

  private static func isFolder(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// Whether `path`, links followed, lies in one of the trees (and in no system folder). A
  /// path that does not exist (yet) counts by the nearest folder above it that does.
  public func contains(_ path: String) -> Bool {
    guard let real = Self.realPath(path) else { return false }
    // `/proc/self/environ` is no tree's, even with `--allow-outside` or a tree at `/`; a
    // checkout on the RAM disk is.
    if Self.systemFolders.contains(where: { Self.isWithin(real, $0) }),
      !Self.filesInSystemFolders.contains(where: { real.hasPrefix($0 + "/") })
    {
      return false
    }
    return allowsOutside || roots.contains { root in root == "/" || Self.isWithin(real, root) }
  }

  /// Whether `path` is `folder` or lies below it (both real paths).
  private static func isWithin(_ path: String, _ folder: String) -> Bool {
    path == folder || path.hasPrefix(folder + "/")
  }

  /// `path` with links followed as far as it exists, the rest (no link can be there yet)
  /// joined as written; nil when that rest holds `.` or `..`.
  static func realPath(_ path: String) -> String? {
    var missing: [String] = []
    var existing = path
    for _ in 0..<256 {
      if let real = FileIO.realPath(existing) {
        // Below a folder that does not exist, `..` means nothing the kernel would follow.
        guard !missing.contains(".."), !missing.contains(".") else { return nil }
        return missing.reversed().reduce(real) { Paths.join($0, $1) }
      }
      let parent = Paths.parent(existing)
      guard parent != existing else { return nil }
      missing.append(Paths.lastComponent(existing))
      existing = parent
    }
    return nil
  }

  /// Throws, naming `path` and why, unless `path` lies in the trees: for a file about to
  /// be read as settings (`what` says as what: "#include", "configFiles" ...).
  func check(_ path: String, as what: String, from origin: (file: String, line: Int?)? = nil)
    throws(VersioningError)
  {
    guard !contains(path) else { return }
    let trees = roots.isEmpty ? "no folder" : roots.joined(separator: ", ")
    throw .readOutside(
      path: origin?.file ?? path, line: origin?.line,
      message:
        "\(what) \(path) is outside the folders being read (\(trees)): not read as settings")
  }
}
