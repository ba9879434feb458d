import BundleKitFileSystem
import BundleKitPropertyList

/// An XcodeGen project spec (`project.yml`): what a repository that commits no `.xcodeproj`
/// holds instead. Versions resolve from it as the project XcodeGen generates would resolve
/// them, and a bump edits the spec (or the `.xcconfig` it names), never the generated
/// project.
///
/// Read as XcodeGen reads it (``SpecNode``): `include` (a path or a list, merged under this
/// spec, paths relative to each file unless `relativePaths: false`), `targetTemplates`,
/// multi-platform targets, `settingGroups`; `name`, `configs`, `settings` and `configFiles`
/// of the project and of each target (configuration settings matched by part of the
/// configuration's name, as XcodeGen does), each target's `type`, `info` (the Info.plist
/// XcodeGen generates: its defaults, `properties` over them), `sources` (where XcodeGen finds
/// an Info.plist for a target without `info`), `dependencies` (what an app embeds), and the
/// settings XcodeGen's presets give frameworks.
struct XcodeGenSpec: Sendable {
  /// A setting's value and where it is written: nil for a value XcodeGen makes itself (its
  /// generated Info.plist's defaults, its presets, a template's substitution), which a bump
  /// cannot edit in place.
  struct Setting: Sendable {
    var value: String
    var place: VersionPlace?
    var line: Int
    var file: String
  }

  /// Settings for all configurations and per configuration.
  struct Settings: Sendable {
    var base: [String: Setting] = [:]
    /// Per configuration variant, by its name lowercased.
    private(set) var configs: [String: [String: Setting]] = [:]
    /// Whether a variant applies to every configuration whose name contains it (XcodeGen:
    /// `debug` applies to `Staging Debug`), or only to the one it names (Tuist).
    var matchesByPart = false

    /// The settings of `configuration` (any case), among the project's `configurations`.
    func settings(for configuration: String, among configurations: [String] = []) -> [String:
      Setting]
    {
      let lowered = configuration.lowercased()
      guard matchesByPart else { return configs[lowered] ?? [:] }
      var result: [String: Setting] = [:]
      for (variant, settings) in configs.sorted(by: { $0.key < $1.key })
      where lowered.contains(variant) {
        // A variant that is the exact name of another configuration is that one's alone.
        if variant != lowered, configurations.contains(where: { $0.lowercased() == variant }) {
          continue
        }
        result.merge(settings) { _, new in new }
      }
      return result
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

    /// These settings over `under` (a setting group's): theirs first, these winning.
    func over(_ under: Settings) -> Settings {
      var result = under
      result.matchesByPart = matchesByPart
      result.merge(self)
      return result
    }
  }

  /// One target.
  struct Target: Sendable {
    var name: String
    var type: String?
    var settings = Settings()
    var configFiles: [String: String] = [:]
    var infoPath: String?
    /// Where the target's own `info:` mapping is written (its file and key path), when the
    /// target's own entry in a spec file holds it: where a bump adds `properties` to write a
    /// value XcodeGen would otherwise generate.
    var infoOrigin: (file: String, keyPath: [String])?
    /// An Info.plist the target keeps itself (Tuist's `infoPlist: "path"`): its own values
    /// count, as with `INFOPLIST_FILE`.
    var infoPlistFile: String?
    var properties: [String: Setting] = [:]
    var dependencies: [String] = []
    /// Whether XcodeGen generates its Info.plist (`info:`), whose defaults
    /// (`CFBundleShortVersionString` 1.0, `CFBundleVersion` 1) `properties` override.
    var generatesInfoPlist = false
    /// The settings XcodeGen's presets give the target (frameworks: `CURRENT_PROJECT_VERSION`
    /// 1), under its own and left out where an `.xcconfig` of its configuration sets them.
    var presets: [String: Setting] = [:]
    /// The folders of its `sources`, where XcodeGen looks for an Info.plist when the target
    /// has neither `info` nor `INFOPLIST_FILE`.
    var sources: [String] = []

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
  /// What a Tuist manifest builds by code (a helper, a variable): named, not read.
  var builtByCode: [String] = []
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
    let root = try Self.merged(
      file, base: Paths.parent(file), stack: stack, seen: &seen, scope: scope)
    read(SpecResolution.resolve(root))
  }

  /// The spec at `file` with what it includes merged under it, as XcodeGen merges them
  /// (`SpecFile.resolvedDictionary`): the includes in order (a later one over an earlier),
  /// then this file over them. Paths of an included spec stay relative to its own folder,
  /// or to `base` with `relativePaths: false`.
  private static func merged(
    _ file: String, base: String, stack: [String], seen: inout Set<String>,
    scope: SettingsScope
  ) throws(VersioningError) -> SpecNode {
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
    guard seen.insert(identity).inserted else { return .mapping([]) }
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
    let own = SpecNode(tree.root, file: file, base: base)
    let folder = Paths.parent(file)
    // `include:` is a list, or one path as a string, as XcodeGen takes it; an item may be
    // `{path:, relativePaths:, enable:}`.
    let includes = own["include"].map { $0.text != nil ? [$0] : $0.items } ?? []
    var under = SpecNode.mapping([])
    for item in includes {
      guard let relative = item.text ?? item["path"]?.text, !relative.isEmpty else { continue }
      if item["enable"]?.text.map(Self.isFalse) == true { continue }
      let relativePaths = !(item["relativePaths"]?.text.map(Self.isFalse) ?? false)
      let included = InfoPlistDiscovery.normalized(
        relative.hasPrefix("/") ? relative : Paths.join(folder, relative))
      try scope.check(included, as: "include", from: (file, (item["path"] ?? item).origin?.line))
      let node = try merged(
        included, base: relativePaths ? Paths.parent(included) : base, stack: stack + [identity],
        seen: &seen, scope: scope)
      under = node.merged(onto: under)
    }
    return own.merged(onto: under)
  }

  private static func isFalse(_ text: String) -> Bool {
    ["false", "no", "off", "0"].contains(text.lowercased())
  }

  /// The project and its targets from the resolved spec.
  private mutating func read(_ root: SpecNode) {
    if let name = root["name"]?.text { self.name = name }
    let configs = root["configs"]?.entries.map(\.key) ?? []
    if !configs.isEmpty { configurations = configs }
    var groups: [String: SpecNode] = [:]
    for (name, node) in root["settingGroups"]?.entries ?? root["settingPresets"]?.entries ?? [] {
      groups[name] = node
    }
    settings = Self.settings(root["settings"], groups: groups)
    configFiles = Self.configFiles(root["configFiles"])
    // XcodeGen's presets apply to targets unless `options.settingPresets` says otherwise.
    let presets = root["options"]?["settingPresets"]?.text?.lowercased() ?? "all"
    let applyPresets = presets == "all" || presets == "targets"
    for (name, node) in root["targets"]?.entries ?? [] {
      var target = Target(name: name)
      target.type = node["type"]?.text
      target.settings = Self.settings(node["settings"], groups: groups)
      target.configFiles = Self.configFiles(node["configFiles"])
      if let info = node["info"] {
        target.generatesInfoPlist = true
        target.infoPath = info["path"].flatMap(Self.path)
        // Only the target's own entry: a template's or a preset's is shared with others.
        if let origin = info["path"]?.origin, origin.keyPath.count == 4,
          origin.keyPath.starts(with: ["targets", name, "info"])
        {
          target.infoOrigin = (origin.file, Array(origin.keyPath.dropLast()))
        }
        for (key, value) in info["properties"]?.entries ?? [] {
          guard let setting = Self.setting(value) else { continue }
          target.properties[key] = setting
        }
      }
      if applyPresets, target.type == "framework" || target.type == "framework.static" {
        // Written in no file: a bump adds it to the target's own `settings`, which XcodeGen
        // takes over its preset (one entry for every platform of a multi-platform target).
        let place = Self.ownSettingPlace(of: node, setting: "CURRENT_PROJECT_VERSION")
        target.presets["CURRENT_PROJECT_VERSION"] = Setting(
          value: "1", place: place, line: 1, file: place?.file ?? path)
      }
      let sources = node["sources"].map { $0.text != nil ? [$0] : $0.items } ?? []
      target.sources = sources.compactMap { item -> String? in
        let path: SpecNode = item["path"] ?? item
        return Self.path(path)
      }
      target.dependencies = (node["dependencies"]?.items ?? []).compactMap { $0["target"]?.text }
      if let index = targetIndex[name] {
        targets[index] = target
      } else {
        targetIndex[name] = targets.count
        targets.append(target)
      }
    }
  }

  /// Where a setting that the target's entry does not write yet goes: under its own
  /// `settings` (`settings.base` when it has `base`, `configs` or `groups`), in the file and
  /// under the key its own scalars are written at; nil when no scalar of the target comes
  /// from its own entry (a target a template writes whole).
  private static func ownSettingPlace(of node: SpecNode, setting: String) -> VersionPlace? {
    guard
      let origin = node.entries.lazy.compactMap({ $0.value.origin }).first(where: {
        $0.keyPath.count == 3 && $0.keyPath[0] == "targets"
      })
    else { return nil }
    let keys = Set(node["settings"]?.entries.map(\.key) ?? [])
    let settings =
      keys.contains("base") || keys.contains("configs") || keys.contains("groups")
      ? ["settings", "base"] : ["settings"]
    return .spec(
      path: origin.file, keyPath: Array(origin.keyPath.prefix(2)) + settings + [setting])
  }

  /// A scalar as a setting, placed where it is written (nil place for one XcodeGen made).
  private static func setting(_ node: SpecNode) -> Setting? {
    guard let text = node.text else { return nil }
    guard let origin = node.origin else {
      return Setting(value: text, place: nil, line: 1, file: "")
    }
    return Setting(
      value: text, place: .spec(path: origin.file, keyPath: origin.keyPath), line: origin.line,
      file: origin.file)
  }

  /// A path scalar made relative to the folder its file reads paths from.
  private static func path(_ node: SpecNode) -> String? {
    guard let text = node.text, !text.isEmpty else { return nil }
    let base = node.origin?.base ?? "."
    return InfoPlistDiscovery.normalized(text.hasPrefix("/") ? text : Paths.join(base, text))
  }

  /// `settings:` as XcodeGen reads it: `groups`, `base` and `configs`, or a flat map of
  /// settings; the groups' settings (`settingGroups`, recursively) under its own.
  private static func settings(
    _ node: SpecNode?, groups: [String: SpecNode], depth: Int = 0
  ) -> Settings {
    var result = Settings()
    result.matchesByPart = true
    guard let node, depth < 16 else { return result }
    func read(_ node: SpecNode?) -> [String: Setting] {
      var settings: [String: Setting] = [:]
      for (key, value) in node?.entries ?? [] {
        if let setting = setting(value) { settings[key] = setting }
      }
      return settings
    }
    let structured =
      node["base"] != nil || node["configs"] != nil || node["groups"] != nil
      || node["presets"] != nil
    guard structured else {
      result.base = read(node)
      return result
    }
    var under = Settings()
    under.matchesByPart = true
    for name in (node["groups"] ?? node["presets"])?.texts ?? [] {
      guard let group = groups[name] else { continue }
      under = settings(group, groups: groups, depth: depth + 1).over(under)
    }
    result.base = read(node["base"])
    for (name, settings) in node["configs"]?.entries ?? [] {
      result.set(read(settings), for: name)
    }
    return result.over(under)
  }

  private static func configFiles(_ node: SpecNode?) -> [String: String] {
    var result: [String: String] = [:]
    for (name, value) in node?.entries ?? [] {
      // By the configuration's name lowercased, as `Settings` keeps them.
      if let path = path(value) { result[name.lowercased()] = path }
    }
    return result
  }

  /// Whether `configuration` has settings or an `.xcconfig` of its own, for `target` or the
  /// project: if not, every setting resolves for it as for any other such configuration.
  func hasOwnSettings(_ target: Target, configuration: String) -> Bool {
    let lowered = configuration.lowercased()
    return !target.settings.settings(for: configuration, among: configurations).isEmpty
      || !settings.settings(for: configuration, among: configurations).isEmpty
      || target.configFiles[lowered] != nil || configFiles[lowered] != nil
  }

  /// The value of `setting` for a target and configuration, as the generated project gives
  /// it: the target's settings (the configuration's, then `base`, then XcodeGen's presets
  /// unless the configuration's `.xcconfig` sets it), the target's `.xcconfig`, the project's
  /// settings, the project's `.xcconfig`; `$(inherited)` goes on down, a value that is only
  /// `$(OTHER)` is followed. Nil when nothing defines it.
  func resolve(
    _ setting: String, target: Target, configuration: String, chains: XcconfigChains,
    followed: [String] = []
  ) throws(VersioningError) -> Setting? {
    if followed.contains(setting) {
      throw .unreadable(
        path: path, line: nil,
        message: "\(SettingAssignment.excerpt(setting)) refers to itself through other settings")
    }
    guard followed.count < SettingsStack.maximumDepth else {
      throw .unreadable(
        path: path, line: nil,
        message:
          "\(SettingAssignment.excerpt(setting)): references chain more than \(SettingsStack.maximumDepth) settings deep"
      )
    }
    let lowered = configuration.lowercased()
    func configs(_ settings: Settings) -> [String: Setting] {
      settings.settings(for: configuration, among: configurations)
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
    for level in 0..<7 {
      let candidate: Setting?
      switch level {
      case 0: candidate = configs(target.settings)[setting]
      case 1: candidate = target.settings.base[setting]
      case 2:
        // XcodeGen leaves a preset out of the project where an .xcconfig sets it.
        if let preset = target.presets[setting], try file(target.configFiles) == nil,
          try file(configFiles) == nil
        {
          candidate = preset
        } else {
          candidate = nil
        }
      case 3: candidate = try file(target.configFiles)
      case 4: candidate = configs(self.settings)[setting]
      case 5: candidate = self.settings.base[setting]
      default: candidate = try file(self.configFiles)
      }
      guard let found = candidate else { continue }
      let trimmed = found.value.trimmingCharacters(in: [" ", "\t"])
      if trimmed == "$(inherited)" || trimmed == "${inherited}" { continue }
      if let other = buildSettingReference(in: trimmed) {
        return try resolve(
          other, target: target, configuration: configuration, chains: chains,
          followed: followed + [setting])
      }
      return found
    }
    return nil
  }
}
