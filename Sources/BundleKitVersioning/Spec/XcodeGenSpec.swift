import BundleKitFileSystem
import BundleKitPropertyList

/// An XcodeGen project spec (`project.yml`): what a repository that commits no `.xcodeproj`
/// holds instead. Versions resolve from it as the project XcodeGen generates would resolve
/// them, and a bump edits the spec (or the `.xcconfig` it names), never the generated
/// project.
///
/// Read: `name`, `include` (specs merged under this one), `configs`, `settings` and
/// `configFiles` of the project and of each target (`base` and per-configuration `configs`,
/// or a flat map of settings), each target's `type`, `info` (`path`, `properties`) and
/// `dependencies` (what an app embeds).
struct XcodeGenSpec: Sendable {
  /// A setting's value and where it is written.
  struct Setting: Sendable {
    var value: String
    var place: VersionPlace
    var line: Int
    var file: String
  }

  /// Settings for all configurations and per configuration.
  struct Settings: Sendable {
    var base: [String: Setting] = [:]
    /// Per configuration, by its name lowercased: XcodeGen matches configuration names
    /// without regard to case, and a lookup per target and configuration must not scan them.
    private(set) var configs: [String: [String: Setting]] = [:]

    /// The settings of `configuration` (any case).
    func settings(for configuration: String) -> [String: Setting] {
      configs[configuration.lowercased()] ?? [:]
    }

    /// Sets the settings of configuration `name`.
    mutating func set(_ settings: [String: Setting], for name: String) {
      configs[name.lowercased(), default: [:]].merge(settings) { _, new in new }
    }

    mutating func merge(_ other: Settings) {
      base.merge(other.base) { _, new in new }
      for (name, settings) in other.configs {
        configs[name, default: [:]].merge(settings) { _, new in new }
      }
    }
  }

  /// One target.
  struct Target: Sendable {
    var name: String
    var type: String?
    var settings = Settings()
    var configFiles: [String: String] = [:]
    var infoPath: String?
    /// An Info.plist the target keeps itself (Tuist's `infoPlist: "path"`): its own values
    /// count, as with `INFOPLIST_FILE`.
    var infoPlistFile: String?
    var properties: [String: Setting] = [:]
    var dependencies: [String] = []

    /// `com.apple.product-type.<type>`, as the generated project says.
    var productType: String? { type.map { "com.apple.product-type." + $0 } }
  }

  /// The spec file.
  var path: String
  /// The project's name (the generated `<name>.xcodeproj`).
  var name: String?
  /// The configurations (`Debug` and `Release` unless `configs` says otherwise).
  var configurations: [String] = ["Debug", "Release"]
  var settings = Settings()
  var configFiles: [String: String] = [:]
  var targets: [Target] = []
  /// Each target's place in `targets`, by name: a spec of 100,000 targets is merged in one
  /// pass.
  private var targetIndex: [String: Int] = [:]

  /// How many specs `include` may chain.
  static let maximumIncludes = 32

  /// A spec from its parts (a Tuist manifest read into the same model).
  init(
    path: String, name: String?, configurations: [String], settings: Settings,
    configFiles: [String: String], targets: [Target]
  ) {
    self.path = path
    self.name = name
    self.configurations = configurations
    self.settings = settings
    self.configFiles = Dictionary(
      configFiles.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    self.targets = targets
    for (index, target) in targets.enumerated() { targetIndex[target.name] = index }
  }

  /// The most spec files one spec may bring in through `include`, all levels together.
  static let maximumIncludedFiles = 64

  /// Reads the spec at `path` and what it includes, from the trees of `scope` only.
  init(path: String, scope: SettingsScope? = nil) throws(VersioningError) {
    self.path = path
    var seen: Set<String> = []
    try load(path, stack: [], seen: &seen, scope: scope ?? SettingsScope(paths: [path]))
  }

  private mutating func load(
    _ file: String, stack: [String], seen: inout Set<String>, scope: SettingsScope
  ) throws(VersioningError) {
    // A file is itself whatever path reaches it (`a/./x`, two links to one folder): known by
    // its real path. One included again (two specs sharing a base) is merged once; one that
    // includes itself, through any path, is a circle.
    let identity = FileIO.realPath(file) ?? file
    if stack.contains(identity) {
      throw .unreadable(
        path: file, line: nil,
        message: "include goes round in a circle (\(stack.count) specs deep)")
    }
    guard stack.count <= Self.maximumIncludes else {
      throw .unreadable(
        path: file, line: nil, message: "include nests deeper than \(Self.maximumIncludes) specs")
    }
    guard seen.insert(identity).inserted else { return }
    guard seen.count <= Self.maximumIncludedFiles else {
      throw .unreadable(
        path: file, line: nil,
        message: "include brings in more than \(Self.maximumIncludedFiles) spec files")
    }
    let bytes: [UInt8]
    do { bytes = try FileIO.read(file) } catch { throw .file(error) }
    let tree: YAMLTree
    do {
      tree = try YAMLTree(bytes: bytes)
    } catch {
      throw .unreadable(path: file, line: error.line, message: error.message)
    }
    let folder = Paths.parent(file)
    let root = tree.root
    // Included specs first: this one's values win.
    // `include:` is a list, or one path as a string, as XcodeGen takes it.
    let includes = root["include"].map { $0.text != nil ? [$0] : $0.items } ?? []
    for item in includes {
      guard let relative = item.text ?? item["path"]?.text, !relative.isEmpty else { continue }
      let included = InfoPlistDiscovery.normalized(
        relative.hasPrefix("/") ? relative : Paths.join(folder, relative))
      var line: Int?
      if case .scalar(_, _, let at, _) = item["path"] ?? item { line = at }
      try scope.check(included, as: "include", from: (file, line))
      try load(included, stack: stack + [identity], seen: &seen, scope: scope)
    }
    if let name = root["name"]?.text { self.name = name }
    let configs = root["configs"]?.entries.map(\.key) ?? []
    if !configs.isEmpty { configurations = configs }
    settings.merge(Self.settings(root["settings"], file: file, keyPath: ["settings"]))
    configFiles.merge(Self.configFiles(root["configFiles"], folder: folder)) { _, new in new }
    for (name, node) in root["targets"]?.entries ?? [] {
      var target = Target(name: name)
      let keyPath = ["targets", name]
      target.type = node["type"]?.text
      target.settings = Self.settings(node["settings"], file: file, keyPath: keyPath + ["settings"])
      target.configFiles = Self.configFiles(node["configFiles"], folder: folder)
      if let info = node["info"] {
        target.infoPath = info["path"]?.text.map {
          InfoPlistDiscovery.normalized($0.hasPrefix("/") ? $0 : Paths.join(folder, $0))
        }
        for (key, value) in info["properties"]?.entries ?? [] {
          guard case .scalar(let text, _, let line, _) = value else { continue }
          target.properties[key] = Setting(
            value: text,
            place: .spec(path: file, keyPath: keyPath + ["info", "properties", key]),
            line: line, file: file)
        }
      }
      target.dependencies = (node["dependencies"]?.items ?? []).compactMap { $0["target"]?.text }
      if let index = targetIndex[name] {
        // A target an included spec defined: this spec's values on top.
        var merged = targets[index]
        merged.type = target.type ?? merged.type
        merged.settings.merge(target.settings)
        merged.configFiles.merge(target.configFiles) { _, new in new }
        merged.infoPath = target.infoPath ?? merged.infoPath
        merged.properties.merge(target.properties) { _, new in new }
        if !target.dependencies.isEmpty { merged.dependencies = target.dependencies }
        targets[index] = merged
      } else {
        targetIndex[name] = targets.count
        targets.append(target)
      }
    }
  }

  /// `settings:` as XcodeGen reads it: `base` and `configs`, or a flat map of settings.
  private static func settings(_ node: YAMLTree.Node?, file: String, keyPath: [String])
    -> Settings
  {
    var result = Settings()
    guard let node else { return result }
    func read(_ node: YAMLTree.Node?, _ path: [String]) -> [String: Setting] {
      var settings: [String: Setting] = [:]
      for (key, value) in node?.entries ?? [] {
        guard case .scalar(let text, _, let line, _) = value else { continue }
        settings[key] = Setting(
          value: text, place: .spec(path: file, keyPath: path + [key]), line: line, file: file)
      }
      return settings
    }
    let structured = node["base"] != nil || node["configs"] != nil || node["groups"] != nil
    if structured {
      result.base = read(node["base"], keyPath + ["base"])
      for (name, settings) in node["configs"]?.entries ?? [] {
        result.set(read(settings, keyPath + ["configs", name]), for: name)
      }
    } else {
      result.base = read(node, keyPath)
    }
    return result
  }

  private static func configFiles(_ node: YAMLTree.Node?, folder: String) -> [String: String] {
    var result: [String: String] = [:]
    for (name, value) in node?.entries ?? [] {
      guard let relative = value.text, !relative.isEmpty else { continue }
      // By the configuration's name lowercased, as `Settings` keeps them.
      result[name.lowercased()] = InfoPlistDiscovery.normalized(
        relative.hasPrefix("/") ? relative : Paths.join(folder, relative))
    }
    return result
  }

  /// Whether `configuration` has settings or an `.xcconfig` of its own, for `target` or the
  /// project: if not, every setting resolves for it as for any other such configuration.
  func hasOwnSettings(_ target: Target, configuration: String) -> Bool {
    let lowered = configuration.lowercased()
    return !target.settings.settings(for: lowered).isEmpty
      || !settings.settings(for: lowered).isEmpty || target.configFiles[lowered] != nil
      || configFiles[lowered] != nil
  }

  /// The value of `setting` for a target and configuration, as the generated project gives
  /// it: the target's settings (the configuration's, then `base`), the target's `.xcconfig`,
  /// the project's settings, the project's `.xcconfig`; `$(inherited)` goes on down, a value
  /// that is only `$(OTHER)` is followed. Nil when nothing defines it.
  func resolve(
    _ setting: String, target: Target, configuration: String, chains: XcconfigChains,
    depth: Int = 0
  ) throws(VersioningError) -> Setting? {
    guard depth < 16 else {
      throw .unreadable(
        path: path, line: nil, message: "\(setting) refers to itself through other settings")
    }
    let lowered = configuration.lowercased()
    func configs(_ settings: Settings) -> [String: Setting] {
      settings.settings(for: lowered)
    }
    func file(_ files: [String: String]) throws(VersioningError) -> Setting? {
      guard let path = files[lowered] else { return nil }
      // Named at the spec that names it: `configFiles:` (or Tuist's `xcconfig:`) may point
      // anywhere.
      try chains.scope.check(path, as: "the .xcconfig", from: (self.path, nil))
      guard
        let assignment = try chains.assignments(of: path).last(where: { $0.setting == setting })
      else { return nil }
      return Setting(
        value: assignment.value, place: assignment.place, line: assignment.line,
        file: assignment.file)
    }
    // In the order Xcode weighs them, strongest first; an .xcconfig is read only when the
    // levels above it do not decide.
    for level in 0..<6 {
      let candidate: Setting?
      switch level {
      case 0: candidate = configs(target.settings)[setting]
      case 1: candidate = target.settings.base[setting]
      case 2: candidate = try file(target.configFiles)
      case 3: candidate = configs(self.settings)[setting]
      case 4: candidate = self.settings.base[setting]
      default: candidate = try file(self.configFiles)
      }
      guard let found = candidate else { continue }
      let trimmed = found.value.trimmingCharacters(in: [" ", "\t"])
      if trimmed == "$(inherited)" || trimmed == "${inherited}" { continue }
      if let other = buildSettingReference(in: trimmed) {
        return try resolve(
          other, target: target, configuration: configuration, chains: chains, depth: depth + 1)
      }
      return found
    }
    return nil
  }
}
