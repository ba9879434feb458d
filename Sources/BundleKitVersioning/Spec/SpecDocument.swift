import BundleKitFileSystem

/// An XcodeGen spec as XcodeGen resolves it before it generates a project: every included
/// spec merged under the one that includes it (mappings merged key by key, lists joined,
/// `KEY:REPLACE` replacing), multi-platform targets expanded into one target per platform,
/// target templates applied with `${target_name}`, `${platform}` and their attributes.
///
/// Each scalar keeps where it is written (its file and its key path in that file), so a bump
/// edits the one place a value comes from; a value XcodeGen builds by substitution has no
/// such place and is not edited.
indirect enum SpecNode: Sendable {
  /// A scalar and where it is written, if it is written somewhere as itself.
  case scalar(String, origin: Origin?)
  /// A mapping, keys in order.
  case mapping([(key: String, value: SpecNode)])
  /// A list.
  case sequence([SpecNode])

  /// Where a scalar is written.
  struct Origin: Sendable, Hashable {
    /// The spec file.
    var file: String
    /// Its keys from the top of that file.
    var keyPath: [String]
    /// Its 1-based line.
    var line: Int
    /// The folder its paths are relative to: its own file's folder, or the including
    /// spec's for an `include` with `relativePaths: false`.
    var base: String
  }

  /// The value of `key` (the last one, as YAML readers keep).
  subscript(key: String) -> SpecNode? {
    guard case .mapping(let entries) = self else { return nil }
    return entries.last { $0.key == key }?.value
  }

  /// A scalar's text.
  var text: String? {
    guard case .scalar(let text, _) = self else { return nil }
    return text
  }

  /// A scalar's place.
  var origin: Origin? {
    guard case .scalar(_, let origin) = self else { return nil }
    return origin
  }

  /// A mapping's entries, or none.
  var entries: [(key: String, value: SpecNode)] {
    guard case .mapping(let entries) = self else { return [] }
    return entries
  }

  /// A list's items, or none.
  var items: [SpecNode] {
    guard case .sequence(let items) = self else { return [] }
    return items
  }

  /// A scalar or a list of scalars, as a list of their texts (`platform: iOS` or
  /// `platform: [iOS, tvOS]`).
  var texts: [String] {
    if let text { return [text] }
    return items.compactMap(\.text)
  }

  /// `node` read from `file`, every scalar placed at its key path.
  init(_ node: YAMLTree.Node, file: String, base: String, keyPath: [String] = []) {
    switch node {
    case .scalar(let text, _, let line, _):
      self = .scalar(text, origin: Origin(file: file, keyPath: keyPath, line: line, base: base))
    case .mapping(let entries):
      self = .mapping(
        entries.map {
          ($0.key, SpecNode($0.value, file: file, base: base, keyPath: keyPath + [$0.key]))
        })
    case .sequence(let items):
      // An item of a list has no key to reach it by: its scalars are read, not edited.
      self = .sequence(
        items.enumerated().map {
          SpecNode($0.element, file: file, base: base, keyPath: keyPath + ["[\($0.offset)]"])
        })
    }
  }

  /// This node merged onto `base`, as XcodeGen merges an including spec onto what it
  /// includes and a target onto its templates: mappings key by key, lists joined (the base's
  /// items first), anything else replaced; a key ending in `:REPLACE` replaces whole.
  func merged(onto base: SpecNode) -> SpecNode {
    switch (self, base) {
    case (.mapping(let over), .mapping(var result)):
      for (key, value) in over {
        if key.hasSuffix(":REPLACE") {
          let name = String(key.dropLast(":REPLACE".count))
          if let index = result.lastIndex(where: { $0.key == name }) {
            result[index].value = value
          } else {
            result.append((name, value))
          }
        } else if let index = result.lastIndex(where: { $0.key == key }) {
          result[index].value = value.merged(onto: result[index].value)
        } else {
          result.append((key, value))
        }
      }
      return .mapping(result)
    case (.sequence(let over), .sequence(let items)):
      return .sequence(items + over)
    default:
      return self
    }
  }

  /// `${name}` replaced by `variables[name]` in every scalar and key. A scalar that changes
  /// is XcodeGen's making, not text in a file: it loses its place.
  func expanded(_ variables: [String: String]) -> SpecNode {
    guard !variables.isEmpty else { return self }
    switch self {
    case .scalar(let text, let origin):
      let expanded = Self.expand(text, variables)
      return .scalar(expanded, origin: expanded == text ? origin : nil)
    case .mapping(let entries):
      return .mapping(
        entries.map { (Self.expand($0.key, variables), $0.value.expanded(variables)) })
    case .sequence(let items):
      return .sequence(items.map { $0.expanded(variables) })
    }
  }

  /// `text` with each `${name}` of `variables` replaced; other `${...}` (the environment's,
  /// which is not read) left as they are.
  static func expand(_ text: String, _ variables: [String: String]) -> String {
    guard text.contains("${") else { return text }
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: "${") {
      result += rest[..<start.lowerBound]
      let after = rest[start.upperBound...]
      guard let end = after.firstIndex(of: "}") else {
        result += rest[start.lowerBound...]
        return result
      }
      let name = String(after[..<end])
      result += variables[name] ?? "${\(name)}"
      rest = after[after.index(after: end)...]
    }
    return result + rest
  }

  /// A copy with the value at `key` of a mapping set.
  func setting(_ key: String, to value: SpecNode) -> SpecNode {
    guard case .mapping(var entries) = self else { return self }
    if let index = entries.lastIndex(where: { $0.key == key }) {
      entries[index].value = value
    } else {
      entries.append((key, value))
    }
    return .mapping(entries)
  }

  /// A copy without `key`.
  func removing(_ key: String) -> SpecNode {
    guard case .mapping(let entries) = self else { return self }
    return .mapping(entries.filter { $0.key != key })
  }
}

/// What XcodeGen does to a spec's dictionary before reading targets from it
/// (`Project.resolveProject`): multi-platform targets, then templates, then multi-platform
/// targets again (a template may hold the platforms).
enum SpecResolution {
  static func resolve(_ root: SpecNode) -> SpecNode {
    var root = multiplatform(root)
    root = templates(root)
    return multiplatform(root)
  }

  /// A target whose `platform` is a list becomes one target per platform, named
  /// `platformPrefix + name + platformSuffix` (`_<platform>` by default), `${platform}`
  /// expanded in it.
  static func multiplatform(_ root: SpecNode) -> SpecNode {
    guard let targets = root["targets"], case .mapping(let entries) = targets else { return root }
    var result: [(key: String, value: SpecNode)] = []
    for (name, target) in entries {
      guard case .sequence = target["platform"] ?? .scalar("", origin: nil) else {
        result.append((name, target))
        continue
      }
      for platform in target["platform"]?.texts ?? [] {
        var copy = target.expanded(["platform": platform])
        copy = copy.setting("platform", to: .scalar(platform, origin: nil))
        let suffix = copy["platformSuffix"]?.text ?? "_\(platform)"
        let prefix = copy["platformPrefix"]?.text ?? ""
        if let deployment = target["deploymentTarget"], case .mapping = deployment {
          copy =
            deployment[platform].map { copy.setting("deploymentTarget", to: $0) }
            ?? copy.removing("deploymentTarget")
        }
        result.append((prefix + name + suffix, copy))
      }
    }
    return root.setting("targets", to: .mapping(result))
  }

  /// Each target's `templates` (and theirs, depth first) merged in order under it, then
  /// `${target_name}` and its `templateAttributes` expanded.
  static func templates(_ root: SpecNode) -> SpecNode {
    guard let targets = root["targets"], case .mapping(let entries) = targets else { return root }
    let templates = Dictionary(
      (root["targetTemplates"]?.entries ?? []).map { ($0.key, $0.value) },
      uniquingKeysWith: { $1 })
    func collect(_ node: SpecNode, into names: inout [String], at index: inout Int) {
      for name in node["templates"]?.texts ?? [] where !names.contains(name) {
        guard let template = templates[name] else { continue }
        names.insert(name, at: index)
        collect(template, into: &names, at: &index)
        index += 1
      }
    }
    var result: [(key: String, value: SpecNode)] = []
    for (name, target) in entries {
      var names: [String] = []
      var index = 0
      collect(target, into: &names, at: &index)
      guard !names.isEmpty else {
        result.append((name, target))
        continue
      }
      var merged = SpecNode.mapping([])
      for template in names {
        if let node = templates[template] { merged = node.merged(onto: merged) }
      }
      var resolved = target.merged(onto: merged).expanded(["target_name": name])
      var attributes: [String: String] = [:]
      for (key, value) in resolved["templateAttributes"]?.entries ?? [] {
        if let text = value.text { attributes[key] = text }
      }
      resolved = resolved.expanded(attributes)
      result.append((name, resolved))
    }
    return root.setting("targets", to: .mapping(result))
  }
}
