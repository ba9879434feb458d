import Foundation
import PropertyList

/// Where one version value is written.
public enum VersionPlace: Sendable, Hashable, CustomStringConvertible {
  /// A top-level key of an Info.plist.
  case plist(path: String, key: String)
  /// A setting in an `.xcconfig` file.
  case xcconfig(path: String, setting: String)
  /// A setting in one build configuration of an Xcode project.
  case project(path: String, configurationID: String, setting: String)

  /// The file that holds it.
  public var file: String {
    switch self {
    case .plist(let path, _), .xcconfig(let path, _): path
    case .project(let path, _, _): path + "/project.pbxproj"
    }
  }

  /// A short description: the file and, for projects, the setting.
  public var description: String {
    switch self {
    case .plist(let path, let key): "\(path) \(key)"
    case .xcconfig(let path, let setting): "\(path) \(setting)"
    case .project(let path, let id, let setting): "\(path) \(setting) (configuration \(id))"
    }
  }
}

/// One logical version value (a bundle's build number, say) and every place it is written:
/// the Info.plist itself, or the `.xcconfig` files or project configurations its
/// `$(SETTING)` reference points to.
public struct VersionValue: Sendable, Hashable {
  /// `CFBundleVersion` or `CFBundleShortVersionString`.
  public var key: String
  /// The current value (the highest, when its places disagree).
  public var current: String
  /// Where it is written.
  public var places: [VersionPlace]
}

/// One Info.plist (or one target of a project without one) and its versions.
public struct VersionedBundle: Sendable, Hashable {
  /// The Info.plist, or the `.xcodeproj` for targets without one.
  public var path: String
  /// The target or folder name.
  public var target: String
  /// The file's format (`xml1`, `binary1`, `openstep`) or `project`.
  public var format: String
  /// `CFBundleShortVersionString`.
  public var version: VersionValue?
  /// `CFBundleVersion`.
  public var build: VersionValue?
}

/// Reads the versions of every Info.plist and project found, resolving `$(SETTING)`
/// references to the `.xcconfig` files beside an Info.plist or the Xcode project above it.
public struct VersionInventory: Sendable {
  /// The bundles found, sorted by path.
  public var bundles: [VersionedBundle] = []
  /// The bytes of each Info.plist as read, so a bump edits exactly what was checked.
  public var contents: [String: [UInt8]] = [:]

  /// The build-setting names Xcode uses for the two keys.
  public static let settings = [
    "CFBundleVersion": "CURRENT_PROJECT_VERSION", "CFBundleShortVersionString": "MARKETING_VERSION",
  ]

  /// Reads everything under `paths`. `targets` narrows project configurations to those
  /// targets (nil: all).
  public init(paths: [String], includeTests: Bool = false, targets: Set<String>? = nil)
    throws(VersioningError)
  {
    let found = try InfoPlistDiscovery.find(in: paths, includeTests: includeTests)
    try self.init(found: found, targets: targets)
  }

  /// Reads the Info.plists and projects already found.
  public init(found: [InfoPlistDiscovery.Found], targets: Set<String>? = nil)
    throws(VersioningError)
  {
    var projects: [String: XcodeProject] = [:]
    func project(_ path: String) throws(VersioningError) -> XcodeProject {
      if let cached = projects[path] { return cached }
      let loaded = try XcodeProject(path: path)
      projects[path] = loaded
      return loaded
    }
    var plistsInProjects: Set<String> = []
    let plists = found.compactMap { item -> String? in
      guard case .infoPlist(let path) = item else { return nil }
      return path
    }
    // Each file is read and parsed on its own, so large inventories use every core.
    let loaded = WorkerThreads.map(plists.count) {
      index in
      Result { () throws(PropertyListError) in
        let bytes = try FileIO.read(plists[index])
        return (bytes, try PropertyListDocument(bytes: bytes))
      }
    }
    for (path, result) in zip(plists, loaded) {
      let document: PropertyListDocument
      switch result {
      case .success(let (bytes, parsed)):
        contents[path] = bytes
        document = parsed
      case .failure(let error):
        throw .propertyList(error.inFile(path))
      }
      var bundle = VersionedBundle(
        path: path, target: Self.folderName(of: path), format: document.format.rawValue,
        version: nil, build: nil)
      for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
        guard let raw = document.value[key]?.stringValue else { continue }
        var value = VersionValue(key: key, current: raw, places: [.plist(path: path, key: key)])
        if let setting = buildSettingReference(in: raw) {
          value = try Self.resolve(setting, key: key, for: path, targets: targets, project: project)
          if case .project(let projectPath, _, _)? = value.places.first {
            plistsInProjects.insert(projectPath)
          }
        }
        if key == "CFBundleVersion" { bundle.build = value } else { bundle.version = value }
      }
      bundles.append(bundle)
    }
    // Projects named directly: each target's own settings (Xcode 11+ projects need no Info.plist).
    for item in found {
      guard case .project(let path) = item else { continue }
      let loaded = try project(path)
      for target in loaded.targets where targets == nil || targets?.contains(target) == true {
        var bundle = VersionedBundle(
          path: path, target: target, format: "project", version: nil, build: nil)
        for (key, setting) in Self.settings {
          let configurations = loaded.configurations.filter {
            $0.target == target && $0.settings[setting]?.string != nil
          }
          guard !configurations.isEmpty else { continue }
          let value = Self.value(key: key, setting: setting, configurations, in: path)
          if key == "CFBundleVersion" { bundle.build = value } else { bundle.version = value }
        }
        if bundle.build != nil || bundle.version != nil { bundles.append(bundle) }
      }
    }
    bundles.sort { ($0.path, $0.target) < ($1.path, $1.target) }
    _ = plistsInProjects
  }

  /// The folder holding `path` ("." for a bare name).
  public static func parentFolder(of path: String) -> String { Paths.parent(path) }

  static func folderName(of path: String) -> String {
    let parts = path.split(separator: "/")
    return parts.count >= 2 ? String(parts[parts.count - 2]) : "."
  }

  /// A value spread over project configurations: the highest current value wins.
  static func value(
    key: String, setting: String, _ configurations: [XcodeProject.Configuration], in path: String
  ) -> VersionValue {
    let values = configurations.compactMap { $0.settings[setting]?.string }
    let current =
      values.max {
        (BundleVersion($0) ?? BundleVersion(components: [0]))
          < (BundleVersion($1) ?? BundleVersion(components: [0]))
      } ?? ""
    return VersionValue(
      key: key, current: current,
      places: configurations.map { .project(path: path, configurationID: $0.id, setting: setting) })
  }

  /// Where a `$(SETTING)` in an Info.plist is defined: `.xcconfig` files in its folder or the
  /// folders above, else the nearest Xcode project above that defines it.
  static func resolve(
    _ setting: String, key: String, for plist: String, targets: Set<String>?,
    project: (String) throws(VersioningError) -> XcodeProject
  ) throws(VersioningError) -> VersionValue {
    var folder = parentFolder(of: plist)
    let manager = FileManager.default
    for _ in 0..<6 {
      let names = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
      var places: [VersionPlace] = []
      var values: [String] = []
      for name in names where name.hasSuffix(".xcconfig") {
        let path = folder == "." ? name : folder + "/" + name
        guard let bytes = try? FileIO.read(path) else { continue }
        if let assignment = XcconfigFile(path: path, bytes: bytes).assignment(of: setting) {
          places.append(.xcconfig(path: path, setting: setting))
          values.append(assignment.value)
        }
      }
      if !places.isEmpty {
        let current =
          values.max {
            (BundleVersion($0) ?? BundleVersion(components: [0]))
              < (BundleVersion($1) ?? BundleVersion(components: [0]))
          } ?? ""
        return VersionValue(key: key, current: current, places: places)
      }
      for name in names where name.hasSuffix(".xcodeproj") {
        let loaded = try project(folder == "." ? name : folder + "/" + name)
        let all = loaded.configurations.filter { $0.settings[setting]?.string != nil }
        // The configurations of targets that use this Info.plist, else every one that defines it.
        let own = all.filter { configuration in
          loaded.configurations.contains {
            $0.target == configuration.target && $0.target != nil
              && loaded.infoPlistPath($0) == InfoPlistDiscovery.normalized(plist)
          }
        }
        var chosen = own.isEmpty ? all : own
        if let targets { chosen = chosen.filter { $0.target.map(targets.contains) ?? true } }
        if !chosen.isEmpty { return value(key: key, setting: setting, chosen, in: loaded.path) }
      }
      guard folder != "." && folder != "/" else { break }
      folder = parentFolder(of: folder)
    }
    throw .unresolvedReference(path: plist, key: key, setting: setting)
  }
}
