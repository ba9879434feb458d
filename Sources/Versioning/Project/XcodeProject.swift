import PropertyList

/// An Xcode project's `project.pbxproj`, read with the position of every value so build
/// settings can be changed in place, every other byte untouched.
public struct XcodeProject: Sendable {
  /// The `.xcodeproj` folder.
  public var path: String
  /// The `project.pbxproj` inside it.
  public var pbxprojPath: String { path + "/project.pbxproj" }
  /// The file's bytes.
  public var bytes: [UInt8]
  /// The parsed file.
  public var tree: OpenStepSourceTree

  /// A build configuration (`Debug`, `Release` ...) of a target or of the project.
  public struct Configuration: Sendable, Hashable {
    /// The object identifier.
    public var id: String
    /// The configuration name.
    public var name: String
    /// The target's name, or nil for the project's own configurations.
    public var target: String?
    /// The build settings dictionary.
    public var settings: OpenStepSourceTree
  }

  /// Reads a project folder (or its `project.pbxproj`).
  public init(path: String) throws(VersioningError) {
    var folder = path
    if folder.hasSuffix("/project.pbxproj") {
      folder = String(folder.dropLast("/project.pbxproj".count))
    }
    self.path = folder
    let file = folder + "/project.pbxproj"
    do {
      bytes = try FileIO.read(file)
    } catch {
      throw .propertyList(error.inFile(file))
    }
    tree = try OpenStepSourceTree.parse(bytes, path: file)
  }

  /// Every build configuration, the project's and each native target's.
  public var configurations: [Configuration] {
    guard case .dictionary(let objects)? = tree["objects"] else { return [] }
    var byID: [String: OpenStepSourceTree] = [:]
    for entry in objects { byID[entry.key] = entry.value }
    func configurations(list id: String?, target: String?) -> [Configuration] {
      guard let id, let list = byID[id], case .array(let ids)? = list["buildConfigurations"] else {
        return []
      }
      return ids.compactMap { item in
        guard let configurationID = item.string, let object = byID[configurationID],
          let settings = object["buildSettings"]
        else { return nil }
        return Configuration(
          id: configurationID, name: object["name"]?.string ?? "?", target: target,
          settings: settings)
      }
    }
    var result: [Configuration] = []
    for entry in objects where entry.value["isa"]?.string == "PBXProject" {
      result += configurations(list: entry.value["buildConfigurationList"]?.string, target: nil)
    }
    for entry in objects
    where ["PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"].contains(
      entry.value["isa"]?.string ?? "")
    {
      result += configurations(
        list: entry.value["buildConfigurationList"]?.string,
        target: entry.value["name"]?.string ?? entry.key)
    }
    return result
  }

  /// The target names.
  public var targets: [String] {
    var seen: [String] = []
    for configuration in configurations {
      if let target = configuration.target, !seen.contains(target) { seen.append(target) }
    }
    return seen
  }

  /// The folder that `$(SRCROOT)` and relative paths in settings start from.
  public var sourceRoot: String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
  }

  /// The Info.plist a configuration names (`INFOPLIST_FILE`), as a path from the working folder.
  public func infoPlistPath(_ configuration: Configuration) -> String? {
    guard var value = configuration.settings["INFOPLIST_FILE"]?.string else { return nil }
    for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"]
    where value.hasPrefix(prefix) {
      value = String(value.dropFirst(prefix.count))
    }
    return InfoPlistDiscovery.normalized(sourceRoot + "/" + value)
  }
}
