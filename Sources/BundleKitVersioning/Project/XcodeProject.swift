import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList

/// An Xcode project's `project.pbxproj`, read with the position of every value so build
/// settings can be changed in place, every other byte untouched.
public struct XcodeProject: Sendable {
  /// The `.xcodeproj` folder.
  public var path: String
  /// The `project.pbxproj` inside it.
  var pbxprojPath: String { path + "/project.pbxproj" }
  /// The file's bytes.
  public var bytes: [UInt8]
  /// The parsed file.
  public var tree: OpenStepSourceTree
  /// Every object by its identifier.
  var objects: [String: OpenStepSourceTree] = [:]
  /// The group (or variant group) holding each file reference and group.
  private var parents: [String: String] = [:]
  /// The offset where each line starts, for lines of many values without rescanning.
  private var lineStarts: [Int] = []
  /// Every target, in the project's order: worked out once (callers ask per target, and a
  /// project may have thousands).
  private(set) var targetList: [Target] = []

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
    /// The file reference of the `.xcconfig` it is based on, if any.
    var baseConfigurationReference: String?
    /// Xcode 16's form for an `.xcconfig` inside a synchronized folder, if so.
    var baseConfigurationAnchor: Anchor?
  }

  /// A file inside a synchronized folder (`PBXFileSystemSynchronizedRootGroup`), as Xcode 16
  /// attaches an `.xcconfig`: `baseConfigurationReferenceAnchor` and
  /// `baseConfigurationReferenceRelativePath`.
  struct Anchor: Sendable, Hashable {
    /// The synchronized folder's object identifier.
    public var group: String
    /// The file's path inside the folder.
    public var relativePath: String
  }

  /// A target: what it builds and with which configurations.
  public struct Target: Sendable, Hashable {
    /// The object identifier.
    public var id: String
    /// The name Xcode shows.
    public var name: String
    /// `com.apple.product-type.application` and the like (nil for aggregate targets).
    var productType: String?
    /// The file reference of the product it builds.
    var productReference: String?
    /// Its configurations.
    var configurations: [Configuration]
    /// The product references its Copy Files phases embed (extensions, watch apps).
    var embeddedProducts: [String]
    /// Whether it builds a product: not an aggregate or external-build target.
    var buildsProduct = true

    /// How a product carries a version.
    public enum Versioning: Sendable, Hashable {
      /// No bundle version: a static or dynamic library, an instruments package, an
      /// aggregate or external-build target.
      case none
      /// A number of its own: an app, a framework, an XPC service, a helper tool, a login
      /// item, a system extension (macOS replaces those by their own numbers).
      case own
      /// Its app's number at any depth: app extensions, widgets, watch apps and App Clips
      /// (the App Store refuses an upload where they differ).
      case withHost
    }

    /// How its product carries a version, by its product type.
    var versioning: Versioning {
      Self.versioning(productType: productType, buildsProduct: buildsProduct)
    }

    /// How a product of `productType` carries a version.
    static func versioning(productType: String?, buildsProduct: Bool) -> Versioning {
      guard buildsProduct else { return .none }
      // A native target without a type (hand-written projects) is taken as an app would be.
      guard let productType else { return .own }
      let unversioned = [
        ".library.static", ".library.dynamic", ".instruments-package", ".objfile",
        ".metal-library",
      ]
      if unversioned.contains(where: productType.hasSuffix) { return .none }
      let withHost = [
        "app-extension", "extensionkit-extension", "watchapp", "watchkit",
        "on-demand-install-capable",
      ]
      return withHost.contains(where: productType.contains) ? .withHost : .own
    }

    /// Whether it builds a command-line tool, versioned only when it has an Info.plist (a
    /// privileged helper's, linked into its binary).
    var isTool: Bool { productType?.hasSuffix(".tool") == true }

    /// The configuration an export reads its settings in: Release, else the last.
    var exportConfiguration: Configuration? {
      configurations.last { $0.name == "Release" } ?? configurations.last
    }

    /// Whether it builds tests (unit or UI test bundles, `.xctest`).
    var isTest: Bool { productType.map(Self.isTest(productType:)) ?? false }

    /// Whether `productType` builds tests.
    static func isTest(productType: String) -> Bool {
      productType.hasSuffix(".unit-test") || productType.hasSuffix(".ui-testing")
        || productType.contains("xctest")
    }
  }

  /// Reads a project folder (or its `project.pbxproj`). Two objects with one identifier are
  /// an error: Xcode would read one of them, and which one is not defined.
  public init(path: String) throws(VersioningError) {
    let file = Self.folder(of: path) + "/project.pbxproj"
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(file)
    } catch {
      throw .file(error)
    }
    try self.init(path: path, bytes: bytes)
  }

  /// The project folder a path names (the folder, or its `project.pbxproj`).
  static func folder(of path: String) -> String {
    var folder = path
    if folder.hasSuffix("/project.pbxproj") {
      folder = String(folder.dropLast("/project.pbxproj".count))
    }
    while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
    return folder
  }

  /// A project from its `project.pbxproj` bytes, as if read from `path`.
  init(path: String, bytes: [UInt8]) throws(VersioningError) {
    let folder = Self.folder(of: path)
    self.path = folder
    let file = folder + "/project.pbxproj"
    self.bytes = bytes
    tree = try OpenStepSourceTree.parse(bytes, path: file)
    guard case .dictionary(let entries)? = tree["objects"] else {
      throw .unreadable(
        path: file, line: nil, message: "no 'objects' dictionary: not an Xcode project")
    }
    for entry in entries {
      if objects[entry.key] != nil {
        throw .unreadable(
          path: file, line: Self.line(of: entry.keyRange.lowerBound, in: bytes),
          message:
            "the object identifier \(entry.key) is used twice; Xcode would read only one (resolve the merge by hand)"
        )
      }
      objects[entry.key] = entry.value
    }
    for (id, object) in objects {
      guard case .array(let children)? = object["children"] else { continue }
      for child in children { if let child = child.string { parents[child] = id } }
    }
    targetList = readTargets()
    lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
  }

  /// The 1-based line of a byte offset of the project file (a binary search: a project of
  /// thousands of targets asks for every value's line).
  func line(of offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count
    while low < high {
      let middle = (low + high) / 2
      if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return max(low, 1)
  }

  /// The 1-based line of a byte offset.
  static func line(of offset: Int, in bytes: [UInt8]) -> Int {
    var line = 1
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
    return line
  }

  /// The project object.
  private var projectObject: OpenStepSourceTree? {
    guard let root = tree["rootObject"]?.string else {
      return objects.values.first { $0["isa"]?.string == "PBXProject" }
    }
    return objects[root]
  }

  private func configurations(list id: String?, target: String?) -> [Configuration] {
    guard let id, let list = objects[id], case .array(let ids)? = list["buildConfigurations"] else {
      return []
    }
    return ids.compactMap { item in
      guard let configurationID = item.string, let object = objects[configurationID],
        let settings = object["buildSettings"]
      else { return nil }
      return Configuration(
        id: configurationID, name: object["name"]?.string ?? "?", target: target,
        settings: settings,
        baseConfigurationReference: object["baseConfigurationReference"]?.string,
        baseConfigurationAnchor: object["baseConfigurationReferenceAnchor"]?.string.flatMap {
          group in
          object["baseConfigurationReferenceRelativePath"]?.string.map {
            Anchor(group: group, relativePath: $0)
          }
        })
    }
  }

  /// The project's own configurations (the level below every target's).
  var projectConfigurations: [Configuration] {
    configurations(list: projectObject?["buildConfigurationList"]?.string, target: nil)
  }

  private func readTargets() -> [Target] {
    var ids: [String] = []
    if case .array(let items)? = projectObject?["targets"] {
      ids = items.compactMap(\.string)
    } else {
      ids = objects.keys.sorted().filter {
        ["PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"].contains(
          objects[$0]?["isa"]?.string ?? "")
      }
    }
    return ids.compactMap { id in
      guard let object = objects[id] else { return nil }
      let name = object["name"]?.string ?? id
      let embedded = phaseReferences(ofTarget: id, isa: "PBXCopyFilesBuildPhase")
      return Target(
        id: id, name: name, productType: object["productType"]?.string,
        productReference: object["productReference"]?.string,
        configurations: configurations(
          list: object["buildConfigurationList"]?.string, target: name),
        embeddedProducts: embedded,
        buildsProduct: object["isa"]?.string.map { $0 == "PBXNativeTarget" } ?? true)
    }
  }

  /// Every build configuration, the project's and each target's.
  var configurations: [Configuration] {
    projectConfigurations + targetList.flatMap(\.configurations)
  }

  /// The target names.
  public var targets: [String] { targetList.map(\.name) }

  /// The folder Xcode calls `SRCROOT` and `PROJECT_DIR`: the one holding the `.xcodeproj`,
  /// moved by the project's `projectDirPath` when it has one.
  var sourceRoot: String {
    let folder = Paths.parent(path)
    guard let extra = projectObject?["projectDirPath"]?.string, !extra.isEmpty else {
      return folder
    }
    return extra.hasPrefix("/") ? extra : Paths.join(folder, extra)
  }

  /// The project's name (`App` for `App.xcodeproj`).
  public var name: String { Paths.removingExtension(Paths.lastComponent(path)) }

  /// The path of a file reference, through the groups holding it (`<group>`), from the
  /// source root (`SOURCE_ROOT`) or absolute; nil for products and SDK files.
  ///
  /// Walked up the groups one at a time, at most ``maximumGroupDepth`` of them: a project
  /// of 100,000 nested groups is refused, not recursed through.
  public func filePath(of id: String) -> String? {
    var components: [String] = []
    var current = id
    var base: String?
    for _ in 0...Self.maximumGroupDepth {
      guard let object = objects[current] else { return nil }
      let path = object["path"]?.string ?? ""
      switch object["sourceTree"]?.string ?? "<group>" {
      case "<absolute>":
        base = path
      case "SOURCE_ROOT":
        base = Paths.join(sourceRoot, path)
      case "<group>":
        if !path.isEmpty { components.append(path) }
        guard let parent = parents[current] else {
          // The main group: its path starts from the source root.
          base = sourceRoot
          break
        }
        current = parent
        continue
      default:
        return nil
      }
      break
    }
    guard var result = base else { return nil }
    for component in components.reversed() { result = Paths.join(result, component) }
    return result
  }

  /// The file references of a target's build phases of `isa` (`PBXSourcesBuildPhase`,
  /// `PBXResourcesBuildPhase`, `PBXCopyFilesBuildPhase`), in order: a file's, or a variant
  /// group's (a localized resource).
  func phaseReferences(ofTarget id: String, isa: String) -> [String] {
    guard case .array(let phases)? = objects[id]?["buildPhases"] else { return [] }
    var references: [String] = []
    for phase in phases.compactMap(\.string) where objects[phase]?["isa"]?.string == isa {
      guard case .array(let files)? = objects[phase]?["files"] else { continue }
      references += files.compactMap(\.string).compactMap { objects[$0]?["fileRef"]?.string }
    }
    return references
  }

  /// The names of the files a target copies as resources (its Copy Bundle Resources
  /// phase): a localized table is one variant group, named as the table (`InfoPlist.strings`).
  func resourceNames(of target: Target) -> Set<String> {
    Set(
      phaseReferences(ofTarget: target.id, isa: "PBXResourcesBuildPhase").compactMap {
        (objects[$0]?["name"]?.string ?? objects[$0]?["path"]?.string).map(Paths.lastComponent)
      })
  }

  /// Every project under `paths` (named, found in folders, or listed by a workspace there,
  /// inside `scope`), each once, CocoaPods' left out; one that cannot be read is a warning
  /// in `warnings` with the note `unread` (what is not done for it).
  static func projects(
    in paths: [String], scope: SettingsScope, unread: String, warnings: inout [Diagnostic]
  ) throws(VersioningError) -> [XcodeProject] {
    var projectPaths: [String] = []
    for item in try InfoPlistDiscovery.find(in: paths) {
      switch item {
      case .project(let path): projectPaths.append(path)
      case .workspace(let path):
        guard FileIO.exists(Paths.join(path, "contents.xcworkspacedata")) else { continue }
        projectPaths += try XcodeWorkspace.projects(in: path).filter(scope.contains)
      case .infoPlist, .spec: break
      }
    }
    var seen: Set<String> = []
    var projects: [XcodeProject] = []
    for path in projectPaths where seen.insert(path).inserted {
      // CocoaPods' project is generated, its pods theirs.
      guard FileIO.exists(Paths.join(path, "project.pbxproj")),
        Paths.parent(path).split(separator: "/").last != "Pods"
      else { continue }
      do {
        projects.append(try XcodeProject(path: path))
      } catch {
        warnings += error.diagnostics.map {
          var diagnostic = $0
          diagnostic.severity = .warning
          diagnostic.notes.append(unread)
          return diagnostic
        }
      }
    }
    return projects
  }

  /// The path of the `language` variant (else Base's) of a localized resource the target
  /// copies (a variant group named `name`, such as `InfoPlist.strings`), or nil.
  func localizedResource(named name: String, of target: Target, language: String) -> String? {
    for reference in phaseReferences(ofTarget: target.id, isa: "PBXResourcesBuildPhase") {
      guard let group = objects[reference], group["isa"]?.string == "PBXVariantGroup",
        group["name"]?.string == name, case .array(let children)? = group["children"]
      else { continue }
      let variants = children.compactMap(\.string)
      for wanted in [language, "Base"] {
        for child in variants {
          let object = objects[child]
          let path = object?["path"]?.string ?? ""
          if object?["name"]?.string == wanted || path.hasPrefix("\(wanted).lproj/") {
            return filePath(of: child)
          }
        }
      }
    }
    return nil
  }

  /// The files of a target's build phase of `isa` (`PBXSourcesBuildPhase`,
  /// `PBXResourcesBuildPhase`): each file reference's path, a variant group's variants each.
  func phaseFiles(of target: Target, isa: String) -> [String] {
    phaseReferences(ofTarget: target.id, isa: isa).flatMap { reference -> [String] in
      if objects[reference]?["isa"]?.string == "PBXVariantGroup",
        case .array(let children)? = objects[reference]?["children"]
      {
        return children.compactMap(\.string).compactMap(filePath(of:))
      }
      return filePath(of: reference).map { [$0] } ?? []
    }
  }

  /// The folders Xcode 16 keeps in step with a target (`fileSystemSynchronizedGroups`): every
  /// file below one is the target's.
  func synchronizedFolders(of target: Target) -> [String] {
    guard case .array(let groups)? = objects[target.id]?["fileSystemSynchronizedGroups"] else {
      return []
    }
    return groups.compactMap(\.string).compactMap(filePath(of:))
  }

  /// The Swift files a target compiles by name: its Compile Sources phase's, and those Xcode
  /// 16 adds to it from synchronized folders it does not hold (its own synchronized folders'
  /// files aside: ``synchronizedFolders(of:)``).
  func swiftSources(of target: Target) -> [String] {
    (phaseFiles(of: target, isa: "PBXSourcesBuildPhase") + synchronizedAdditions(of: target))
      .filter { $0.hasSuffix(".swift") }
  }

  /// The files Xcode 16 adds to a target from synchronized folders it does not hold: a
  /// folder's exception set for that target lists them (`membershipExceptions`, paths from
  /// the folder), as Xcode writes a file of a shared folder that one more target compiles.
  func synchronizedAdditions(of target: Target) -> [String] {
    var own: Set<String> = []
    if case .array(let groups)? = objects[target.id]?["fileSystemSynchronizedGroups"] {
      own = Set(groups.compactMap(\.string))
    }
    var files: [String] = []
    for (id, object) in objects
    where object["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" && !own.contains(id) {
      guard case .array(let exceptions)? = object["exceptions"], let folder = filePath(of: id)
      else { continue }
      for exception in exceptions.compactMap(\.string) {
        guard let set = objects[exception], set["target"]?.string == target.id,
          case .array(let members)? = set["membershipExceptions"]
        else { continue }
        files += members.compactMap(\.string).map { Paths.join(folder, $0) }
      }
    }
    return files.sorted()
  }

  /// How many groups deep a file reference may sit.
  static let maximumGroupDepth = 256

  /// The Info.plist a configuration names (`INFOPLIST_FILE`), as a path from the working
  /// folder, without resolving other references: for Info.plists found outside a project.
  func infoPlistPath(_ configuration: Configuration) -> String? {
    guard var value = configuration.settings["INFOPLIST_FILE"]?.string else { return nil }
    for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"]
    where value.hasPrefix(prefix) {
      value = String(value.dropFirst(prefix.count))
    }
    return InfoPlistDiscovery.normalized(sourceRoot + "/" + value)
  }
}
