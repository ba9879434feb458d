import BundleKitFileSystem
import BundleKitPropertyList

/// The versioned bundles of an XcodeGen spec: one per target that has a version, resolved as
/// the project XcodeGen generates would resolve them.
struct SpecVersions {
  let spec: XcodeGenSpec
  let chains: XcconfigChains

  /// The bundles, and the Info.plists their targets name (read through the spec, not alone).
  func bundles(includeTests: Bool) throws(VersioningError) -> (
    bundles: [VersionedBundle], infoPlists: Set<String>
  ) {
    let byName = Dictionary(spec.targets.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    var hostOf: [String: String] = [:]
    // What a target embeds: its dependencies, unless it is a test bundle (a test target
    // depends on the app it tests, which does not make the app part of it).
    for target in spec.targets
    where !(target.productType.map(XcodeProject.Target.isTest(productType:)) ?? false) {
      for dependency in target.dependencies where byName[dependency] != nil {
        hostOf[dependency] = target.name
      }
    }
    var bundles: [VersionedBundle] = []
    var used: Set<String> = []
    // Each literal's value in every configuration, made once.
    var uniform: [String: [String: String]] = [:]
    for target in spec.targets {
      let versioning = XcodeProject.Target.versioning(
        productType: target.productType, buildsProduct: target.type != nil)
      let isTest = target.productType.map(XcodeProject.Target.isTest(productType:)) ?? false
      let plist = try infoPlist(of: target)
      if let plist { used.insert(plist) }
      guard versioning != .none, includeTests || !isTest else { continue }
      var bundle = VersionedBundle(
        path: spec.path, target: target.name, format: .spec, version: nil, build: nil)
      bundle.kind = target.type
      bundle.host = hostOf[target.name]
      var climber = target.name
      var seen: Set<String> = [climber]
      while let current = byName[climber],
        XcodeProject.Target.versioning(
          productType: current.productType, buildsProduct: current.type != nil) == .withHost,
        let host = hostOf[climber], seen.insert(host).inserted
      {
        climber = host
      }
      if climber != target.name { bundle.app = climber }
      // An Info.plist the target keeps itself (not one XcodeGen generates): read once.
      var ownPlist: (path: String, document: PropertyListDocument)?
      if target.infoPath == nil, let plist, FileIO.exists(plist) {
        do throws(VersioningError) {
          try chains.scope.check(plist, as: "the Info.plist")
          do {
            ownPlist = (plist, try PropertyListDocument(contentsOfFile: plist))
          } catch {
            throw VersioningError.propertyList(error.inFile(plist))
          }
        } catch {
          bundle.problems += error.diagnostics.map { VersionProblem(key: nil, diagnostic: $0) }
        }
      }
      for (key, setting) in [
        ("CFBundleShortVersionString", "MARKETING_VERSION"),
        ("CFBundleVersion", "CURRENT_PROJECT_VERSION"),
      ] {
        do {
          if let value = try value(
            key, setting: setting, of: target, ownPlist: ownPlist, uniform: &uniform)
          {
            if key == "CFBundleVersion" { bundle.build = value } else { bundle.version = value }
          }
        } catch {
          bundle.problems += error.diagnostics.map { VersionProblem(key: key, diagnostic: $0) }
        }
      }
      if bundle.build != nil || bundle.version != nil || !bundle.problems.isEmpty {
        bundles.append(bundle)
      }
    }
    // What code builds is named on a row of its own: not read, not guessed, and no reason
    // to stop reading the rest.
    for part in spec.builtByCode {
      var row = VersionedBundle(
        path: spec.path, target: part == "Project" ? "-" : part, format: .spec, version: nil,
        build: nil)
      row.missing =
        "\(spec.path): \(part == "Project" ? "the Project" : part) is built by code: not read without running the manifest"
      bundles.append(row)
    }
    return (bundles, used)
  }

  /// The Info.plist file a target names: `info.path`, its own file, `INFOPLIST_FILE`, or
  /// (as XcodeGen does for a target with none of these) the first `Info.plist` among its
  /// sources.
  private func infoPlist(of target: XcodeGenSpec.Target) throws(VersioningError) -> String? {
    if let path = target.infoPath ?? target.infoPlistFile { return path }
    let folder = Paths.parent(spec.path)
    if let file = try spec.resolve(
      "INFOPLIST_FILE", target: target, configuration: spec.configurations.last ?? "Release",
      chains: chains)?.value, !file.isEmpty
    {
      return InfoPlistDiscovery.normalized(file.hasPrefix("/") ? file : Paths.join(folder, file))
    }
    for source in target.sources {
      if Paths.lastComponent(source) == "Info.plist", FileIO.exists(source) { return source }
      var found: String?
      DirectoryWalker.walk(source) { entry in
        guard found == nil else { return .skip }
        if !entry.isFolder, entry.name == "Info.plist" {
          found = Paths.join(source, entry.relativePath)
          return .skip
        }
        return SkippedFolders.skips(entry.name) ? .skip : .descend
      }
      if let found { return InfoPlistDiscovery.normalized(found) }
    }
    return nil
  }

  /// The defaults of the Info.plist XcodeGen generates for a target with `info:`.
  static let generatedDefaults = ["CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"]

  /// One key's value in every configuration: `info.properties` (a literal, or the setting it
  /// names), else an Info.plist the target keeps itself (`INFOPLIST_FILE` without `info`),
  /// else the build setting XcodeGen's generated Info.plist names. `uniform` keeps the
  /// configurations' dictionary of each literal value, shared between targets.
  private func value(
    _ key: String, setting: String, of target: XcodeGenSpec.Target,
    ownPlist: (path: String, document: PropertyListDocument)?,
    uniform: inout [String: [String: String]]
  ) throws(VersioningError) -> VersionValue? {
    var places: [VersionPlace] = []
    var placed: Set<VersionPlace> = []
    var byConfiguration: [String: String] = [:]
    var chain: [SettingAssignment] = []
    var shared: [String: XcodeGenSpec.Setting?] = [:]
    // A literal in `info.properties`, or XcodeGen's default in the Info.plist it generates,
    // is the value in every configuration: checked once, not once per configuration (a spec
    // of 2,000 configurations and 400 targets the fuzzer kept).
    let literal: XcodeGenSpec.Setting? =
      if let property = target.properties[key] {
        buildSettingReference(in: property.value) == nil ? property : nil
      } else if target.generatesInfoPlist, let value = Self.generatedDefaults[key] {
        XcodeGenSpec.Setting(
          value: value,
          place: target.infoOrigin.map {
            VersionPlace.spec(path: $0.file, keyPath: $0.keyPath + ["properties", key])
          }, line: 1, file: target.infoOrigin?.file ?? spec.path)
      } else {
        nil
      }
    if let literal {
      guard
        BundleVersion(literal.value) != nil
          || (key == "CFBundleShortVersionString" && PrereleaseVersion(literal.value) != nil)
      else {
        throw .invalidVersion(path: literal.file, key: key, value: literal.value)
      }
      guard !spec.configurations.isEmpty else { return nil }
      var value = VersionValue(
        key: key, current: BundleVersion.highest(of: [literal.value]) ?? "",
        places: literal.place.map { [$0] } ?? [])
      // One dictionary per value, shared by every target that has it.
      if let known = uniform[literal.value] {
        value.byConfiguration = known
      } else {
        value.byConfiguration = Dictionary(
          spec.configurations.map { ($0, literal.value) }, uniquingKeysWith: { first, _ in first })
        uniform[literal.value] = value.byConfiguration
      }
      if let place = literal.place {
        value.chain = [
          SettingAssignment(
            setting: setting, value: literal.value, file: literal.file, line: literal.line,
            place: place)
        ]
      }
      return value
    }
    for configuration in spec.configurations {
      var found: XcodeGenSpec.Setting?
      var name = setting
      if let property = target.properties[key] {
        if let reference = buildSettingReference(in: property.value) {
          name = reference
        } else {
          found = property
        }
      } else if target.generatesInfoPlist, let literal = Self.generatedDefaults[key] {
        // XcodeGen writes its default into the Info.plist it generates: that is the value,
        // whatever the build settings say, and it is written in no file to bump.
        // Written nowhere; a bump adds it to the target's `info.properties`, where XcodeGen
        // takes it over its default.
        let place = target.infoOrigin.map {
          VersionPlace.spec(path: $0.file, keyPath: $0.keyPath + ["properties", key])
        }
        found = XcodeGenSpec.Setting(
          value: literal, place: place, line: 1, file: target.infoOrigin?.file ?? spec.path)
      } else if let (plist, document) = ownPlist {
        // Generating the Info.plist, Xcode writes an assigned setting over the file's value,
        // and takes the setting where the file has none (as for a project).
        let generates =
          try spec.resolve(
            "GENERATE_INFOPLIST_FILE", target: target, configuration: configuration,
            chains: chains)?.value == "YES"
        let assigned =
          generates
          ? try spec.resolve(setting, target: target, configuration: configuration, chains: chains)
          : nil
        if assigned == nil, let raw = document.value[key]?.stringValue {
          if let reference = buildSettingReference(in: raw) {
            name = reference
          } else {
            found = XcodeGenSpec.Setting(
              value: raw, place: .plist(path: plist, key: key), line: 1, file: plist)
          }
        } else if !generates {
          continue
        }
      }
      if found == nil {
        // A configuration with nothing of its own (no settings, no .xcconfig) resolves as
        // every other such one: worked out once (a spec of 2,000 configurations and 400
        // targets asks 1.6 million times otherwise).
        if spec.hasOwnSettings(target, configuration: configuration) {
          found = try spec.resolve(
            name, target: target, configuration: configuration, chains: chains)
        } else if let known = shared[name] {
          found = known
        } else {
          found = try spec.resolve(
            name, target: target, configuration: configuration, chains: chains)
          shared[name] = .some(found)
        }
      }
      guard let found else { continue }
      guard
        BundleVersion(found.value) != nil
          || (key == "CFBundleShortVersionString" && PrereleaseVersion(found.value) != nil)
      else {
        throw .invalidVersion(path: found.file, key: key, value: found.value)
      }
      byConfiguration[configuration] = found.value
      if let place = found.place, placed.insert(place).inserted { places.append(place) }
      if chain.isEmpty, let place = found.place {
        chain = [
          SettingAssignment(
            setting: name, value: found.value, file: found.file, line: found.line,
            place: place)
        ]
      }
    }
    // A value of XcodeGen's own making has no place: shown, and refused by a bump.
    guard !byConfiguration.isEmpty else { return nil }
    let current =
      BundleVersion.highest(of: byConfiguration.values) ?? ""
    var value = VersionValue(key: key, current: current, places: places)
    value.byConfiguration = byConfiguration
    value.chain = chain
    return value
  }
}
