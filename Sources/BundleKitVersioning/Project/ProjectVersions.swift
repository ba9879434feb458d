import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList

/// The versions of an Xcode project's targets, resolved as Xcode resolves them: for each
/// target and build configuration, the Info.plist's value (or, for a generated Info.plist,
/// the build setting), its `$(...)` references followed through the target's settings, its
/// `.xcconfig` chain, the project's settings and the project's `.xcconfig` chain, to the one
/// assignment that holds the number.
struct ProjectVersions {
  let project: XcodeProject
  let chains: XcconfigChains
  /// Info.plists read so far, by path.
  var plists: [String: (bytes: [UInt8], document: PropertyListDocument)] = [:]

  /// The settings each key is generated from when a target's Info.plist does not hold it.
  static let generatedFrom = [
    "CFBundleVersion": "CURRENT_PROJECT_VERSION",
    "CFBundleShortVersionString": "MARKETING_VERSION",
  ]

  static let productTypePrefix = "com.apple.product-type."

  init(project: XcodeProject, chains: XcconfigChains) {
    self.project = project
    self.chains = chains
  }

  /// Whether `target` is a watch app of the single-target kind (an `application` built for
  /// watchOS): embedded in an iPhone app, it carries that app's build number, and so do the
  /// extensions and widgets it embeds, at any depth.
  static func isWatchApp(_ target: XcodeProject.Target) -> Bool {
    guard target.productType == productTypePrefix + "application" else { return false }
    return target.configurations.contains { configuration in
      guard case .dictionary(let entries) = configuration.settings else { return false }
      return entries.contains { $0.key == "SDKROOT" && $0.value.string == "watchos" }
    }
  }

  /// One bundle per target that has a version (tests only with `includeTests`), and the
  /// Info.plists the targets use.
  mutating func bundles(includeTests: Bool) -> (bundles: [VersionedBundle], infoPlists: Set<String>)
  {
    let targets = project.targetList
    var hostOfProduct: [String: String] = [:]
    for target in targets {
      for product in target.embeddedProducts { hostOfProduct[product] = target.name }
    }
    let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var bundles: [VersionedBundle] = []
    var used: Set<String> = []
    for target in targets {
      // A test target's or a library's own Info.plist is theirs, not a bundle of its own to
      // bump (`IntegrationTests copy-Info.plist`).
      guard target.versioning != .none, includeTests || !target.isTest else {
        used.formUnion(literalInfoPlists(of: target))
        continue
      }
      var bundle = VersionedBundle(
        path: project.path, target: target.name, format: .project, version: nil, build: nil)
      bundle.kind = target.productType.map {
        $0.hasPrefix(Self.productTypePrefix)
          ? String($0.dropFirst(Self.productTypePrefix.count)) : $0
      }
      bundle.host = target.productReference.flatMap { hostOfProduct[$0] }
      // The app whose number it carries: up through hosts while each moves with its own.
      var climber = target
      var seen: Set<String> = [target.name]
      while climber.versioning == .withHost || Self.isWatchApp(climber),
        let host = climber.productReference.flatMap({ hostOfProduct[$0] }),
        let next = byName[host], seen.insert(host).inserted
      {
        climber = next
      }
      if climber.name != target.name { bundle.app = climber.name }
      var values:
        [String: [(configuration: String, result: Result<ResolvedSetting, SettingError>)]] =
          [:]
      var failures: [(diagnostic: Diagnostic, configurations: [String])] = []
      for configuration in target.configurations {
        let stack: SettingsStack
        do {
          stack = try self.stack(for: target, configuration)
        } catch {
          // Said once per problem, with every configuration it stops and the project.
          for diagnostic in error.diagnostics {
            if let index = failures.firstIndex(where: { $0.diagnostic == diagnostic }) {
              failures[index].configurations.append(configuration.name)
            } else {
              failures.append((diagnostic, [configuration.name]))
            }
          }
          // The target's Info.plist is still its own: read alone, it would hide this error
          // behind a reference "no project defines".
          used.formUnion(literalInfoPlists(of: target))
          continue
        }
        // A command-line tool has a version only with an Info.plist linked into it.
        if target.isTool, !Self.hasInfoPlist(stack) { continue }
        for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
          guard let result = value(of: key, stack: stack, used: &used) else { continue }
          values[key, default: []].append((configuration.name, result))
        }
      }
      for failure in failures {
        var located = failure.diagnostic
        located.notes.append(
          "in the settings of \(target.name) (\(failure.configurations.joined(separator: ", "))) in \(project.path)"
        )
        bundle.problems.append(VersionProblem(key: nil, diagnostic: located))
      }
      for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
        guard let results = values[key] else { continue }
        let (value, problems) = Self.combine(key: key, results)
        bundle.problems += problems.map { VersionProblem(key: key, diagnostic: $0) }
        if key == "CFBundleVersion" { bundle.build = value } else { bundle.version = value }
      }
      if bundle.build != nil || bundle.version != nil || !bundle.problems.isEmpty {
        bundles.append(bundle)
      }
    }
    return (bundles, used)
  }

  /// The Info.plists a target's own settings name literally (no `$(...)`), for the targets
  /// that are not read as bundles.
  private func literalInfoPlists(of target: XcodeProject.Target) -> Set<String> {
    Set(
      target.configurations.compactMap { configuration -> String? in
        guard
          let file = assignments(of: configuration).last(where: { $0.setting == "INFOPLIST_FILE" })?
            .value, !file.isEmpty, !file.contains("$")
        else { return nil }
        return InfoPlistDiscovery.normalized(
          file.hasPrefix("/") ? file : Paths.join(project.sourceRoot, file))
      })
  }

  /// Whether a tool's settings give it an Info.plist: a file, or one generated into the
  /// binary's `__info_plist` section.
  static func hasInfoPlist(_ stack: SettingsStack) -> Bool {
    let file = (try? stack.resolve("INFOPLIST_FILE"))??.value ?? ""
    let linked = (try? stack.resolve("CREATE_INFOPLIST_SECTION_IN_BINARY"))??.value == "YES"
    return !file.isEmpty || linked
  }

  /// The levels of one target's settings for one configuration.
  func stack(for target: XcodeProject.Target, _ configuration: XcodeProject.Configuration)
    throws(VersioningError) -> SettingsStack
  {
    let projectConfiguration = project.projectConfigurations.first { $0.name == configuration.name }
    var levels: [SettingsStack.Level] = [
      SettingsStack.Level(
        label: "target \(target.name) (\(configuration.name))",
        assignments: assignments(of: configuration))
    ]
    levels.append(try xcconfigLevel(configuration, label: "target \(target.name)"))
    if let projectConfiguration {
      levels.append(
        SettingsStack.Level(
          label: "project (\(configuration.name))",
          assignments: assignments(of: projectConfiguration)))
      levels.append(try xcconfigLevel(projectConfiguration, label: "project"))
    }
    let root = project.sourceRoot
    let builtins = [
      "TARGET_NAME": target.name, "PRODUCT_NAME": target.name, "PROJECT_NAME": project.name,
      "SRCROOT": root, "PROJECT_DIR": root, "SOURCE_ROOT": root,
      "CONFIGURATION": configuration.name,
      "PROJECT_FILE_PATH": project.path,
    ]
    return SettingsStack(levels: levels, builtins: builtins)
  }

  private func xcconfigLevel(_ configuration: XcodeProject.Configuration, label: String)
    throws(VersioningError) -> SettingsStack.Level
  {
    if configuration.baseConfigurationReference == nil,
      let anchor = configuration.baseConfigurationAnchor
    {
      // Xcode 16: a file inside a synchronized folder, by the folder and a path in it.
      guard let folder = project.filePath(of: anchor.group) else {
        throw .unreadable(
          path: project.pbxprojPath, line: nil,
          message:
            "the base configuration folder \(anchor.group) of \(configuration.target ?? "the project") (\(configuration.name)) is not a folder in the project"
        )
      }
      let path = InfoPlistDiscovery.normalized(Paths.join(folder, anchor.relativePath))
      return SettingsStack.Level(
        label: path, assignments: try chains.assignments(of: path, sourceRoot: project.sourceRoot))
    }
    guard let reference = configuration.baseConfigurationReference else {
      return SettingsStack.Level(label: label + " .xcconfig", assignments: [])
    }
    guard let path = project.filePath(of: reference) else {
      throw .unreadable(
        path: project.pbxprojPath, line: nil,
        message:
          "the base configuration \(reference) of \(configuration.target ?? "the project") (\(configuration.name)) is not a file in the project"
      )
    }
    // Xcode builds without a base configuration file it cannot open (a warning: "Unable to
    // open base configuration reference file"): so does this, and says so.
    if !FileIO.exists(path) {
      chains.missingBaseFiles.insert(path)
      return SettingsStack.Level(label: path + " (missing)", assignments: [])
    }
    return SettingsStack.Level(
      label: path, assignments: try chains.assignments(of: path, sourceRoot: project.sourceRoot))
  }

  /// The unconditional build settings of a configuration, in file order.
  private func assignments(of configuration: XcodeProject.Configuration) -> [SettingAssignment] {
    guard case .dictionary(let entries) = configuration.settings else { return [] }
    return entries.compactMap { entry -> SettingAssignment? in
      guard !entry.key.contains("[") else { return nil }
      let value: String
      switch entry.value {
      case .string(let text, _): value = text
      case .array(let items): value = items.compactMap(\.string).joined(separator: " ")
      default: return nil
      }
      let offset = entry.value.range?.lowerBound ?? entry.keyRange.lowerBound
      return SettingAssignment(
        setting: entry.key, value: value, file: project.pbxprojPath,
        line: project.line(of: offset),
        place: .project(path: project.path, configurationID: configuration.id, setting: entry.key))
    }
  }

  /// A key's value for one configuration: from the Info.plist when it holds the key, else
  /// generated from the build setting; nil when the target has neither.
  private mutating func value(of key: String, stack: SettingsStack, used: inout Set<String>)
    -> Result<ResolvedSetting, SettingError>?
  {
    do throws(SettingError) {
      var plistPath: String?
      if let file = try stack.resolve("INFOPLIST_FILE")?.value, !file.isEmpty {
        let path = InfoPlistDiscovery.normalized(
          file.hasPrefix("/") ? file : Paths.join(project.sourceRoot, file))
        plistPath = path
        used.insert(path)
      }
      var readPlist: (bytes: [UInt8], document: PropertyListDocument)?
      if let plistPath {
        switch plist(plistPath) {
        case .success(let read): readPlist = read
        case .failure(let problem):
          // The project's real error: the Info.plist it names cannot be read.
          if FileIO.exists(plistPath) { throw problem }
        }
      }
      // Generating the Info.plist, Xcode (swift-build) writes an assigned
      // CURRENT_PROJECT_VERSION / MARKETING_VERSION (or INFOPLIST_KEY_...) over what the
      // INFOPLIST_FILE it starts from says: a literal there is not what the app gets.
      let generated = try stack.resolve("GENERATE_INFOPLIST_FILE")?.value == "YES"
      if generated, let setting = Self.generatedFrom[key] {
        let explicit = "INFOPLIST_KEY_" + key
        if let resolved = try stack.resolve(explicit) {
          return .success(resolved)
        }
        if let resolved = try stack.resolve(setting) {
          return .success(resolved)
        }
      }
      if let plistPath, let plist = readPlist, let text = plist.document.value[key]?.stringValue {
        let line = XMLValueLocator.line(of: key, in: plist.bytes) ?? 1
        let origin = SettingAssignment(
          setting: key, value: text, file: plistPath, line: line,
          place: .plist(path: plistPath, key: key))
        return .success(try stack.evaluate(origin))
      }
      guard generated || plistPath == nil, let setting = Self.generatedFrom[key] else {
        return nil
      }
      let explicit = "INFOPLIST_KEY_" + key
      let name = try stack.resolve(explicit) != nil ? explicit : setting
      guard let resolved = try stack.resolve(name) else { return nil }
      return .success(resolved)
    } catch {
      return .failure(error)
    }
  }

  mutating func plist(_ path: String) -> Result<
    (bytes: [UInt8], document: PropertyListDocument), SettingError
  > {
    if let known = plists[path] { return .success(known) }
    do {
      try chains.scope.check(path, as: "INFOPLIST_FILE")
      let bytes = try FileIO.read(path)
      let document = try PropertyListDocument(bytes: bytes)
      plists[path] = (bytes, document)
      return .success((bytes, document))
    } catch {
      let message = (error as? any DiagnosticConvertible)?.diagnostics.first?.message ?? "\(error)"
      return .failure(
        SettingError(
          message: "INFOPLIST_FILE \(path) cannot be read: \(message)",
          chain: [
            SettingAssignment(
              setting: "INFOPLIST_FILE", value: path, file: path, line: 1,
              place: .plist(path: path, key: "INFOPLIST_FILE"))
          ]))
    }
  }

  /// One value from a target's configurations: where each is defined, and what is wrong.
  static func combine(
    key: String, _ results: [(configuration: String, result: Result<ResolvedSetting, SettingError>)]
  ) -> (VersionValue?, [Diagnostic]) {
    var problems: [Diagnostic] = []
    var places: [VersionPlace] = []
    var placed: Set<VersionPlace> = []
    var byConfiguration: [String: String] = [:]
    var chain: [SettingAssignment] = []
    // A value joined from several settings: the same parts in every configuration.
    var pieces: [VersionPiece]?
    var wholePlaces = false
    for (configuration, result) in results {
      switch result {
      case .failure(let error):
        problems.append(
          describe(error.message, key: key, configuration: configuration, error.chain))
      case .success(let resolved):
        byConfiguration[configuration] = resolved.value
        if chain.isEmpty { chain = resolved.chain }
        let differing = describe(
          "'\(ShownValue.of(resolved.value))' is joined from settings that differ between configurations; BundleKit raises it when every configuration builds it the same way",
          key: key, configuration: configuration, resolved.chain)
        guard
          BundleVersion(resolved.value) != nil
            || (key == "CFBundleShortVersionString" && PrereleaseVersion(resolved.value) != nil)
        else {
          problems.append(
            describe(
              "'\(ShownValue.of(resolved.value))' is not a version (\(BundleVersion.rule))",
              key: key, configuration: configuration, resolved.chain))
          continue
        }
        if resolved.site == nil, let parts = resolved.pieces,
          parts.contains(where: { $0.site != nil })
        {
          let joined = parts.map { VersionPiece(text: $0.text, place: $0.site?.place) }
          guard !wholePlaces, pieces.map({ $0 == joined }) ?? true else {
            problems.append(differing)
            continue
          }
          pieces = joined
          for place in joined.compactMap(\.place) where placed.insert(place).inserted {
            places.append(place)
          }
          continue
        }
        guard let site = resolved.site else {
          problems.append(
            describe(
              "'\(ShownValue.of(resolved.value))' is built from several settings; BundleKit raises a number written in one place",
              key: key, configuration: configuration, resolved.chain))
          continue
        }
        if pieces != nil {
          problems.append(differing)
          continue
        }
        wholePlaces = true
        if placed.insert(site.place).inserted { places.append(site.place) }
      }
    }
    guard !byConfiguration.isEmpty else { return (nil, problems) }
    let current =
      BundleVersion.highest(of: byConfiguration.values) ?? ""
    var value = VersionValue(key: key, current: current, places: places)
    value.byConfiguration = byConfiguration
    value.chain = chain
    value.pieces = pieces
    return (value, problems)
  }

  /// `file:line: error: key (configuration): message`, then the chain of assignments.
  static func describe(
    _ message: String, key: String, configuration: String, _ chain: [SettingAssignment]
  ) -> Diagnostic {
    .error(
      chain.last?.file, line: chain.last?.line, "\(key) (\(configuration)): \(message)",
      notes: chain.isEmpty ? [] : ["resolved through: " + shown(chain)])
  }

  /// A chain as lines, a long one (a hostile project's 10,000 links) cut to its first and
  /// last eight so that the message stays readable.
  static func shown(_ chain: [SettingAssignment]) -> String {
    let lines = chain.map(\.description)
    guard lines.count > 16 else { return lines.joined(separator: "\n    -> ") }
    return (lines.prefix(8) + ["... \(lines.count - 16) more ..."] + lines.suffix(8))
      .joined(separator: "\n    -> ")
  }
}
