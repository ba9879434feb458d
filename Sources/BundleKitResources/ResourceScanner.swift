import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitVersioning
import Foundation

/// What a package's targets hold: strings tables per language, Info.plists, static bundles,
/// asset catalogs, images and other files.
public struct ResourceScan: Sendable {
  /// An Info.plist of a target, with its versions.
  public struct InfoPlist: Sendable, Hashable {
    /// Its path below the target's folder.
    public var path: String
    /// CFBundleShortVersionString, resolved, when it has one.
    public var version: String?
    /// CFBundleVersion, resolved, when it has one.
    public var build: String?
  }

  /// A resource file of a target.
  public struct File: Sendable, Hashable, Encodable {
    /// Its path below the target's folder.
    public var path: String
    /// Its size in bytes.
    public var size: Int64
  }

  /// One target (or, without a package, the folder).
  public struct Target: Sendable {
    /// The target's name.
    public var name: String
    /// Its folder.
    public var path: String
    /// Strings tables: table name → language → key count (nil when the file does not parse).
    public var tables: [String: [String: Int?]] = [:]
    /// Strings tables: table name → language → its keys (absent when the file does not
    /// parse), to say which keys a language lacks, not only how many.
    public var tableKeys: [String: [String: Set<String>]] = [:]
    /// The kinds of file each table comes in (`strings`, `stringsdict`, `xcstrings`).
    public var tableKinds: [String: Set<String>] = [:]
    /// Info.plists with their versions.
    public var infoPlists: [InfoPlist] = []
    /// `.bundle` folders inside the target: invisible to the build, never compiled.
    public var staticBundles: [String] = []
    /// `.xcassets` folders.
    public var assetCatalogs: [String] = []
    /// Images with their sizes.
    public var images: [File] = []
    /// Other files with their sizes.
    public var otherFiles: [File] = []
    /// The target's resources as SwiftPM declares them (absolute paths), when the package
    /// was described; nil when targets were found by convention.
    public var declaredResources: [String]?
  }

  /// The development language the tables are compared with.
  public var developmentLanguage: String
  /// The targets, by name.
  public var targets: [Target]

  static let imageExtensions: Set<String> = [
    "png", "jpg", "jpeg", "gif", "pdf", "svg", "heic", "webp", "tiff", "ico",
  ]

  /// A target as the package declares it, handed over by whoever knows the package (a
  /// command plugin has `context.package`): SwiftPM is never called back for it.
  public struct DeclaredTarget: Codable, Sendable, Hashable {
    /// The target's name.
    public var name: String
    /// Its folder.
    public var path: String
    /// Its resource files, as SwiftPM lists them.
    public var resources: [String]?

    /// A declared target.
    public init(name: String, path: String, resources: [String]?) {
      self.name = name
      self.path = path
      self.resources = resources
    }
  }

  /// Scans `folder`: the `declared` targets when given; else the targets of its
  /// `Package.swift` (from `swift package describe`, or Sources/ and Tests/ when that is not
  /// available), else the folder itself. A command plugin must pass `declared`: `swift
  /// package describe` waits for the lock the running `swift package` holds.
  public init(
    folder: String, developmentLanguage: String = "en", describe: Bool = true,
    declared: [DeclaredTarget]? = nil
  ) {
    self.developmentLanguage = developmentLanguage
    var found: [(String, String, [String]?)] = []
    let manifest = Paths.join(folder, "Package.swift")
    if let declared {
      found = declared.map { ($0.name, $0.path, $0.resources) }.sorted { $0.0 < $1.0 }
    } else if FileManager.default.fileExists(atPath: manifest) {
      found = (describe ? Self.describedTargets(folder) : nil) ?? Self.conventionalTargets(folder)
    }
    if found.isEmpty {
      found = [
        (
          Paths.lastComponent(folder == "." ? FileManager.default.currentDirectoryPath : folder),
          folder, nil
        )
      ]
    }
    targets = found.map { name, path, resources in
      var target = Self.scan(name: name, path: path)
      target.declaredResources = resources
      return target
    }
  }

  /// Targets from `swift package describe --type json`.
  static func describedTargets(_ folder: String) -> [(String, String, [String]?)]? {
    guard
      let result = ToolOutput.run([
        "swift", "package", "--package-path", folder, "describe", "--type", "json",
      ])
    else { return nil }
    let data = result.output
    // Foundation's JSON reader: the description holds nulls, which have no property-list form.
    guard result.status == 0,
      let json = try? JSONSerialization.jsonObject(
        with: Data(data.drop { $0 != UInt8(ascii: "{") }))
        as? [String: Any],
      let targets = json["targets"] as? [[String: Any]]
    else { return nil }
    return targets.compactMap { target in
      guard let name = target["name"] as? String, let path = target["path"] as? String else {
        return nil
      }
      let resources = (target["resources"] as? [[String: Any]])?.compactMap {
        $0["path"] as? String
      }
      return (name, Paths.join(folder, path), resources ?? [])
    }.sorted { $0.0 < $1.0 }
  }

  /// Sources/<Target> and Tests/<Target> folders.
  static func conventionalTargets(_ folder: String) -> [(String, String, [String]?)] {
    var result: [(String, String, [String]?)] = []
    for parent in ["Sources", "Tests"] {
      let base = Paths.join(folder, parent)
      for name in ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).sorted()
      where !name.hasPrefix(".") {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: Paths.join(base, name), isDirectory: &isFolder),
          isFolder.boolValue
        {
          result.append((name, Paths.join(base, name), nil))
        }
      }
    }
    return result
  }

  static func scan(name: String, path: String) -> Target {
    var target = Target(name: name, path: path)
    // The walk every other reader takes: each folder's names in order (the same report on
    // every file system, where a folder's listing is by name hash on ext4 and newest first on
    // tmpfs), no link followed, a killed run's scratch files never listed.
    DirectoryWalker.walk(path) { entry in
      let component = entry.name
      let relative = entry.relativePath
      let full = Paths.join(path, relative)
      if SkippedFolders.names.contains(component) { return .skip }
      if component.hasSuffix(".bundle") {
        target.staticBundles.append(relative)
        return .skip
      }
      if component.hasSuffix(".xcassets") {
        target.assetCatalogs.append(relative)
        return .skip
      }
      if entry.isFolder { return .descend }
      var info = stat()
      guard entry.isDecodable, lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG
      else { return .descend }
      let size = Int64(info.st_size)
      if let location = TableLocation(path: full) {
        target.tableKinds[location.table, default: []].insert(location.kind.rawValue)
        let languages =
          location.kind == .catalog
          ? catalogKeys(full) : [(location.language ?? "-", keys(location))]
        for (language, keys) in languages {
          let previous = target.tables[location.table]?[language] ?? nil
          target.tables[location.table, default: [:]][language] =
            keys.map { $0.count + (previous ?? 0) } ?? previous
          if let keys {
            target.tableKeys[location.table, default: [:]][language, default: []].formUnion(keys)
          }
        }
        return .descend
      }
      let ext = (component.split(separator: ".").last.map(String.init) ?? "").lowercased()
      if InfoPlistDiscovery.isInfoPlist(component) {
        // Settings from the target's folder only; values shown as `version` shows them.
        let inventory = try? VersionInventory(
          found: [.infoPlist(full)], scope: SettingsScope(paths: [path]))
        let bundle = inventory?.bundles.first
        target.infoPlists.append(
          InfoPlist(
            path: relative, version: bundle?.version.map { ShownValue.of($0.current) },
            build: bundle?.build.map { ShownValue.of($0.current) }))
      } else if imageExtensions.contains(ext) {
        target.images.append(File(path: relative, size: size))
      } else if ext != "swift" && ext != "h" && ext != "c" && ext != "m" {
        target.otherFiles.append(File(path: relative, size: size))
      }
      return .descend
    }
    return target
  }

  static func keys(_ location: TableLocation) -> Set<String>? {
    switch location.kind {
    case .strings:
      return (try? StringsFile(contentsOfFile: location.path)).map { Set($0.dictionary.keys) }
    case .stringsdict:
      return (try? StringsdictFile(contentsOfFile: location.path)).map { Set($0.entries.keys) }
    case .catalog: return nil
    }
  }

  static func catalogKeys(_ path: String) -> [(String, Set<String>?)] {
    guard let catalog = try? StringCatalog(contentsOfFile: path) else { return [("?", nil)] }
    return catalog.languages.map { language in
      (
        language,
        Set(
          catalog.strings.filter {
            !$0.value.shouldTranslate || $0.value.localizations[language] != nil
              || language == catalog.sourceLanguage
          }.keys)
      )
    }
  }
}

extension ResourceScan.DeclaredTarget {
  /// The targets in a JSON file (`[{"name", "path", "resources"}]`), as the plugins write it
  /// for `--targets`.
  public static func read(_ path: String) throws -> [ResourceScan.DeclaredTarget] {
    try JSONDecoder().decode(
      [ResourceScan.DeclaredTarget].self, from: Data(try FileIO.read(path)))
  }
}
