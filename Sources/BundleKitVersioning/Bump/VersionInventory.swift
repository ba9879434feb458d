import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// Where one version value is written.
public enum VersionPlace: Sendable, Hashable, CustomStringConvertible {
  /// A top-level key of an Info.plist.
  case plist(path: String, key: String)
  /// A setting in an `.xcconfig` file: the assignment on `line` (the last one of the
  /// setting when nil).
  case xcconfig(path: String, setting: String, line: Int? = nil)
  /// A setting in one build configuration of an Xcode project.
  case project(path: String, configurationID: String, setting: String)
  /// A scalar of a project spec (XcodeGen's `project.yml`), by its keys from the top.
  case spec(path: String, keyPath: [String])

  /// The file that holds it.
  public var file: String {
    switch self {
    case .plist(let path, _), .xcconfig(let path, _, _), .spec(let path, _): path
    case .project(let path, _, _): path + "/project.pbxproj"
    }
  }

  /// A short description: the file and, for projects, the setting.
  public var description: String {
    switch self {
    case .plist(let path, let key): "\(path) \(key)"
    case .xcconfig(let path, let setting, let line):
      "\(path)\(line.map { ":\($0)" } ?? "") \(setting)"
    case .project(let path, let id, let setting): "\(path) \(setting) (configuration \(id))"
    case .spec(let path, let keyPath): "\(path) \(keyPath.joined(separator: "."))"
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
  /// For a project target: the value of each build configuration.
  public var byConfiguration: [String: String] = [:]
  /// The assignments followed to the value, strongest first (the first configuration's).
  public var chain: [SettingAssignment] = []
  /// For a value joined from several settings (`$(MAJOR).$(MINOR).$(PATCH)$(SUFFIX)`), its
  /// parts in order; `places` are then the settings among them. Nil for a value written
  /// whole in one place.
  public var pieces: [VersionPiece]? = nil

  /// A value written in `places`.
  public init(key: String, current: String, places: [VersionPlace]) {
    self.key = key
    self.current = current
    self.places = places
  }
}

/// One part of a value joined from several settings: a setting's whole value, or text written
/// around the references (the periods of `$(MAJOR).$(MINOR).$(PATCH)`).
public struct VersionPiece: Sendable, Hashable {
  /// The text.
  public var text: String
  /// The setting that writes it; nil for text around references, which a bump never edits.
  public var place: VersionPlace?

  /// A piece.
  public init(text: String, place: VersionPlace?) {
    self.text = text
    self.place = place
  }

  /// The new text of each setting among `pieces` that makes the joined value read `new`
  /// where it read `old`: each number, and a pre-release part, that changes must lie in one
  /// setting's piece. Nil when that cannot be done (a changing number inside text around
  /// references, split across two settings, a setting used twice with different results, or
  /// a different count of numbers).
  public static func distribute(old: String, new: String, over pieces: [VersionPiece])
    -> [VersionPlace: String]?
  {
    guard pieces.map(\.text).joined() == old else { return nil }
    let oldSpans = spans(of: old)
    let newSpans = spans(of: new)
    guard oldSpans.count == newSpans.count else { return nil }
    // Replacements on the old text's UTF-8 offsets, each covering one number or the suffix.
    let oldBytes = Array(old.utf8)
    let newBytes = Array(new.utf8)
    var replacements: [(range: Range<Int>, bytes: ArraySlice<UInt8>)] = []
    for (before, after) in zip(oldSpans, newSpans)
    where oldBytes[before] != newBytes[after] {
      replacements.append((before, newBytes[after]))
    }
    // An insertion (a suffix where there was none) has no setting to land in.
    guard replacements.allSatisfy({ !$0.range.isEmpty }) else { return nil }
    var result: [VersionPlace: String] = [:]
    var applied = 0
    var offset = 0
    for piece in pieces {
      let range = offset..<(offset + piece.text.utf8.count)
      offset = range.upperBound
      let inside = replacements.filter { range.overlaps($0.range) }
      guard !inside.isEmpty else { continue }
      // A change lies whole in one setting's piece.
      guard let place = piece.place,
        inside.allSatisfy({ $0.range.clamped(to: range) == $0.range })
      else { return nil }
      var text = Array(piece.text.utf8)
      // From the end, so that earlier offsets hold.
      for replacement in inside.reversed() {
        text.replaceSubrange(
          (replacement.range.lowerBound - range.lowerBound)..<(replacement.range.upperBound
            - range.lowerBound), with: replacement.bytes)
      }
      applied += inside.count
      let written = String(decoding: text, as: UTF8.self)
      if let earlier = result[place], earlier != written { return nil }
      result[place] = written
    }
    guard applied == replacements.count else { return nil }
    // Read back as the build would: a setting used twice takes its new text in both places.
    let joined = pieces.map { piece in piece.place.flatMap { result[$0] } ?? piece.text }
    guard joined.joined() == new else { return nil }
    return result
  }

  /// The UTF-8 ranges of a version's numbers, then of its pre-release part (empty at the
  /// end when there is none).
  static func spans(of text: String) -> [Range<Int>] {
    let bytes = Array(text.utf8)
    var spans: [Range<Int>] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
          bytes[index] <= UInt8(ascii: "9")
        {
          index += 1
        }
        spans.append(start..<index)
      } else if byte == UInt8(ascii: ".") {
        index += 1
      } else {
        break
      }
    }
    spans.append(index..<bytes.count)
    return spans
  }
}

/// A value that could not be resolved or read as a version.
public struct VersionProblem: Sendable, Hashable, CustomStringConvertible {
  /// `CFBundleVersion`, `CFBundleShortVersionString`, or nil for the whole target.
  public var key: String?
  /// Where and what: the file and line that set the value, and the chain followed.
  public var diagnostic: Diagnostic

  /// A problem with `key`.
  public init(key: String?, diagnostic: Diagnostic) {
    self.key = key
    self.diagnostic = diagnostic
  }

  /// The compiler-style text: `file:line: error: ...` and the chain followed.
  public var message: String { diagnostic.description }

  /// The message.
  public var description: String { message }
}

/// One Info.plist (or one target of a project) and its versions.
public struct VersionedBundle: Sendable, Hashable {
  /// Where a bundle's versions are written.
  public enum Source: Sendable, Hashable, CustomStringConvertible {
    /// An Info.plist in this format.
    case infoPlist(PropertyListFormat)
    /// The build settings of an Xcode project's target.
    case project
    /// A target of a project spec (XcodeGen's `project.yml`).
    case spec

    /// `xml1`, `binary1`, `openstep`, `json`, or `project`: as `version` prints it.
    public var description: String {
      switch self {
      case .infoPlist(let format): format.rawValue
      case .project: "project"
      case .spec: "spec"
      }
    }
  }

  /// The Info.plist, or the `.xcodeproj` of a project's target.
  public var path: String
  /// The target (its Xcode name) or folder name.
  public var target: String
  /// Where the versions are written: an Info.plist in one format, or a project.
  public var format: Source
  /// `CFBundleShortVersionString`.
  public var version: VersionValue?
  /// `CFBundleVersion`.
  public var build: VersionValue?
  /// The product type of a project's target without its prefix (`application`,
  /// `app-extension` ...).
  public var kind: String?
  /// The target of the same project that embeds this one (an app for its extensions).
  public var host: String?
  /// The app whose build number this one carries, at any depth (a watch app's widget has its
  /// iPhone app's): nil for a bundle with a number of its own.
  public var app: String?
  /// Why it was not read though it is no error of the project's (a workspace's
  /// `Pods/Pods.xcodeproj` before `pod install`): shown on its row, a bump goes on without it.
  public var missing: String?
  /// Whether it is embedded but keeps a number of its own (a framework, an XPC service, a
  /// helper tool, a login item): a bump leaves it alone unless `--target` names it.
  var keepsOwnNumber: Bool { host != nil && app == nil }
  /// Why a value could not be read: each names the file, line and the chain.
  public var problems: [VersionProblem] = []

  /// A bundle.
  public init(
    path: String, target: String, format: Source, version: VersionValue?, build: VersionValue?
  ) {
    self.path = path
    self.target = target
    self.format = format
    self.version = version
    self.build = build
  }

  /// How a bump names it: the Info.plist, or `App.xcodeproj (Target)`.
  public var label: String {
    format == .project || format == .spec ? "\(path) (\(target))" : path
  }
}

/// Reads the versions of every Info.plist and project found, resolving `$(SETTING)`
/// references to the `.xcconfig` files beside an Info.plist or the Xcode project above it.
public struct VersionInventory: Sendable {
  /// The bundles found, sorted by path.
  public var bundles: [VersionedBundle] = []
  /// The bytes of each Info.plist as read, so a bump edits exactly what was checked.
  public var contents: [String: [UInt8]] = [:]
  /// Each Info.plist of ``contents`` as parsed, so a bump does not parse it again.
  var documents: [String: PropertyListDocument] = [:]
  /// The `fstat` of each Info.plist read through its folder's descriptor
  /// (``ConfirmedFolders``): a regular file, not a link, that a bump writes through the same
  /// descriptor.
  var confirmedReads: [String: ConfirmedRead] = [:]
  /// The targets asked for by name (nil: all).
  var namedTargets: Set<String>?
  /// What a reader should know about how the versions were found (a generated project
  /// passed over for its spec).
  public var notes: [String] = []

  /// The build-setting names Xcode uses for the two keys.
  public static let settings = [
    "CFBundleVersion": "CURRENT_PROJECT_VERSION", "CFBundleShortVersionString": "MARKETING_VERSION",
  ]

  /// Reads the versions of everything under `paths`, resolved as Xcode resolves them.
  ///
  /// - Parameters:
  ///   - paths: Info.plists, `.xcodeproj` or `.xcworkspace` folders, or folders to search.
  ///   - includeTests: Whether test bundles and test targets are read too.
  ///   - targets: Only these targets and what they embed; nil for all.
  /// - Throws: ``VersioningError`` for a file that cannot be read; a value that cannot be
  ///   resolved is not an error here but a problem on its bundle's row.
  ///   - allowOutside: Whether settings files outside `paths` may be read (the user trusts
  ///     the checkout); by default nothing outside them is read as settings.
  public init(
    paths: [String], includeTests: Bool = false, targets: Set<String>? = nil,
    allowOutside: Bool = false
  ) throws(VersioningError) {
    let found = try InfoPlistDiscovery.find(in: paths, includeTests: includeTests)
    try self.init(
      found: found, targets: targets, includeTests: includeTests,
      scope: SettingsScope(paths: paths, allowingOutside: allowOutside))
  }

  /// Reads the Info.plists and projects already found. A project's targets are resolved as
  /// Xcode resolves them (`ProjectVersions`), each becoming one bundle, and the Info.plists
  /// they use are read through them; other Info.plists (Swift packages, plain folders) are
  /// read on their own, `$(SETTING)`s resolved through an `.xcconfig` beside or above them.
  /// A value that cannot be resolved is a problem of its bundle, not an error: `version`
  /// shows it on its row, `bump` refuses. `targets` keeps those targets (by name) and what
  /// they embed (nil: all). Settings are read only from the trees of `scope` (by default the
  /// folders of what was found): nothing outside them is read as settings.
  public init(
    found: [InfoPlistDiscovery.Found], targets: Set<String>? = nil, includeTests: Bool = false,
    scope: SettingsScope? = nil
  ) throws(VersioningError) {
    try self.init(
      found: found, targets: targets, includeTests: includeTests, scope: scope,
      confirmed: ConfirmedFolders())
  }

  /// ``init(found:targets:includeTests:scope:)``, reading each Info.plist that sits in one of
  /// the `confirmed` folders through its descriptor (a link there is read by its path).
  package init(
    found: [InfoPlistDiscovery.Found], targets: Set<String>?, includeTests: Bool,
    scope: SettingsScope?, confirmed: ConfirmedFolders
  ) throws(VersioningError) {
    let scope = scope ?? SettingsScope(found: found)
    var projects: [String: XcodeProject] = [:]
    func project(_ path: String) throws(VersioningError) -> XcodeProject {
      if let cached = projects[path] { return cached }
      let loaded = try XcodeProject(path: path)
      projects[path] = loaded
      return loaded
    }
    // Projects named, found, or listed by workspaces, each once.
    var projectPaths: [String] = []
    var workspaceOf: [String: String] = [:]
    for item in found {
      switch item {
      case .project(let path): projectPaths.append(path)
      case .workspace(let path):
        // A folder named .xcworkspace that holds no workspace (many repositories commit
        // only its xcshareddata/swiftpm/Package.resolved) lists nothing, and stops nothing.
        guard FileIO.exists(Paths.join(path, "contents.xcworkspacedata")) else { continue }
        for listed in try XcodeWorkspace.projects(in: path) where scope.contains(listed) {
          projectPaths.append(listed)
          if workspaceOf[listed] == nil { workspaceOf[listed] = path }
        }
      case .infoPlist, .spec: break
      }
    }
    // A spec is the source of the project XcodeGen generates beside it: that project is
    // not read (a bump there would be lost at the next generate), and `notes` says so.
    let specs = found.compactMap { item -> String? in
      guard case .spec(let path) = item else { return nil }
      return path
    }
    let specOfFolder = Dictionary(
      specs.map { (Paths.parent($0), $0) }, uniquingKeysWith: { a, _ in a })
    // A project found in the tree and listed by a workspace too is one project, noted once.
    var seenProjects: Set<String> = []
    projectPaths = projectPaths.filter { seenProjects.insert($0).inserted }
    projectPaths = projectPaths.filter { path in
      guard let spec = specOfFolder[Paths.parent(path)] else { return true }
      let tool = spec.hasSuffix("Project.swift") ? "Tuist" : "XcodeGen"
      notes.append(
        "\(path) is generated from \(spec) (\(tool)): the spec was read, not the project")
      return false
    }
    let chains = XcconfigChains(scope: scope)
    var unreferenced: [String] = []
    var usedPlists: Set<String> = []
    for path in projectPaths {
      // A project a workspace lists but the checkout does not hold yet (CocoaPods' before
      // `pod install`, a generated one): its row says so, the others are read.
      if let workspace = workspaceOf[path], !FileIO.exists(path) {
        var row = VersionedBundle(
          path: path, target: "-", format: .project, version: nil, build: nil)
        row.missing =
          "\(workspace) lists \(path), which does not exist\(path.hasSuffix("Pods/Pods.xcodeproj") ? " (run pod install)" : "")"
        bundles.append(row)
        continue
      }
      // An .xcodeproj folder with no project.pbxproj (only xcuserdata committed) is no
      // project: said, and passed over.
      if FileIO.exists(path), !FileIO.exists(Paths.join(path, "project.pbxproj")) {
        notes.append("\(path) holds no project.pbxproj (only user data): not a project")
        continue
      }
      // CocoaPods' project is generated from the Podfile, its numbers the pods' own: left
      // alone, as the walk leaves the Pods folder.
      if workspaceOf[path] != nil, Paths.parent(path).split(separator: "/").last == "Pods" {
        continue
      }
      // A project that cannot be read is its row's problem: `version` prints the others,
      // `bump` refuses.
      let loaded: XcodeProject
      do {
        loaded = try project(path)
      } catch {
        var row = VersionedBundle(
          path: path, target: "-", format: .project, version: nil, build: nil)
        row.problems = error.diagnostics.map { VersionProblem(key: nil, diagnostic: $0) }
        bundles.append(row)
        continue
      }
      var versions = ProjectVersions(project: loaded, chains: chains)
      let result = versions.bundles(includeTests: includeTests)
      bundles += result.bundles
      usedPlists.formUnion(result.infoPlists)
      for (plist, read) in versions.plists { contents[plist] = read.bytes }
    }
    if !chains.missingBaseFiles.isEmpty {
      notes.append(
        "base configuration files the projects name do not exist, and are read as empty, as Xcode builds without them: \(chains.missingBaseFiles.sorted().joined(separator: ", "))"
      )
    }
    // A Tuist project's helpers, read once for all the manifests that share them.
    var helperConstants: [String: [String: String]] = [:]
    func constants(for manifest: String) -> [String: String] {
      guard let helpers = TuistManifest.helpersFolder(for: manifest, scope: scope) else {
        return [:]
      }
      if let known = helperConstants[helpers] { return known }
      let read = TuistManifest.helperConstants(in: helpers, scope: scope)
      helperConstants[helpers] = read
      return read
    }
    for path in specs {
      do {
        let spec =
          path.hasSuffix("Project.swift")
          ? try TuistManifest.spec(path: path, constants: constants(for: path))
          : try XcodeGenSpec(path: path, scope: scope)
        let result = try SpecVersions(spec: spec, chains: chains).bundles(
          includeTests: includeTests)
        bundles += result.bundles
        usedPlists.formUnion(result.infoPlists)
      } catch {
        var row = VersionedBundle(path: path, target: "-", format: .spec, version: nil, build: nil)
        row.problems = error.diagnostics.map { VersionProblem(key: nil, diagnostic: $0) }
        bundles.append(row)
      }
    }
    // Below a spec, the spec's targets are the project: an Info.plist none of them uses
    // (Tuist's generated Derived/InfoPlists, a template, an old file) is built by nothing.
    let specFolders = specs.map { Paths.parent($0) }
    let plists = found.compactMap { item -> String? in
      guard case .infoPlist(let path) = item, !usedPlists.contains(path) else { return nil }
      if specFolders.contains(where: { $0 == "." || path.hasPrefix($0 + "/") }) {
        unreferenced.append(path)
        return nil
      }
      return path
    }
    if !unreferenced.isEmpty {
      notes.append(
        "\(unreferenced.count) Info.plist\(unreferenced.count == 1 ? "" : "s") below a project spec that no target of it uses (\(unreferenced.prefix(3).joined(separator: ", "))\(unreferenced.count > 3 ? " ..." : "")): not read"
      )
    }
    // Each file is read and parsed on its own, so large inventories use every core.
    let loaded = WorkerThreads.map(plists.count) {
      index in
      Result { () throws(PropertyListError) in
        let path = plists[index]
        var status: ConfirmedRead?
        let bytes = try PropertyListError.file { () throws(FileSystemError) in
          if !confirmed.isEmpty, let (bytes, read) = try confirmed.read(path) {
            status = read
            return bytes
          }
          return try FileIO.read(path)
        }
        return (bytes, try PropertyListDocument(bytes: bytes), status)
      }
    }
    // Room made once: grown entry by entry, the tables of 1,000 files rehashed many times.
    contents.reserveCapacity(contents.count + plists.count)
    documents.reserveCapacity(plists.count)
    if !confirmed.isEmpty { confirmedReads.reserveCapacity(plists.count) }
    bundles.reserveCapacity(bundles.count + plists.count)
    for (path, result) in zip(plists, loaded) {
      let document: PropertyListDocument
      switch result {
      case .success(let (bytes, parsed, status)):
        contents[path] = bytes
        documents[path] = parsed
        if let status { confirmedReads[path] = status }
        document = parsed
      case .failure(let error):
        // Its row's problem: `version` prints the others, `bump` refuses.
        var row = VersionedBundle(
          path: path, target: Self.folderName(of: path), format: .infoPlist(.xml1), version: nil,
          build: nil)
        row.problems = VersioningError.propertyList(error.inFile(path)).diagnostics.map {
          VersionProblem(key: nil, diagnostic: $0)
        }
        bundles.append(row)
        continue
      }
      var bundle = VersionedBundle(
        path: path, target: Self.folderName(of: path), format: .infoPlist(document.format),
        version: nil, build: nil)
      for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
        guard let raw = document.value[key]?.stringValue else { continue }
        var value = VersionValue(key: key, current: raw, places: [.plist(path: path, key: key)])
        if let setting = buildSettingReference(in: raw) {
          do {
            value = try Self.resolve(
              setting, key: key, for: path, targets: targets, project: project, chains: chains)
          } catch {
            bundle.problems += error.diagnostics.map { VersionProblem(key: key, diagnostic: $0) }
            continue
          }
        }
        if key == "CFBundleVersion" { bundle.build = value } else { bundle.version = value }
      }
      bundles.append(bundle)
    }
    if let targets {
      namedTargets = targets
      bundles = bundles.filter {
        targets.contains($0.target) || $0.app.map(targets.contains) == true
      }
    }
    // By path; a project's targets in the project's order. Info.plists alone come in that
    // order already (found sorted): checked in one pass rather than sorted again.
    if zip(bundles, bundles.dropFirst()).contains(where: { $0.path > $1.path }) {
      bundles = bundles.enumerated().sorted {
        ($0.element.path, $0.offset) < ($1.element.path, $1.offset)
      }
      .map(\.element)
    }
  }

  /// The folder holding `path` ("." for a bare name).
  static func parentFolder(of path: String) -> String { Paths.parent(path) }

  /// The name of the folder holding `path` (its next-to-last non-empty component), "." for
  /// none. Found on the UTF-8 bytes from the end: this runs for every Info.plist read.
  static func folderName(of path: String) -> String {
    let utf8 = path.utf8
    var end = utf8.endIndex
    // The second component from the end, no array made: this runs for every row.
    var found = 0
    while end > utf8.startIndex {
      // Skip slashes, then take the component before them.
      while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") {
        end = utf8.index(before: end)
      }
      var start = end
      while start > utf8.startIndex, utf8[utf8.index(before: start)] != UInt8(ascii: "/") {
        start = utf8.index(before: start)
      }
      if start < end {
        found += 1
        if found == 2 { return String(path[start..<end]) }
      }
      end = start
    }
    return "."
  }

  /// A value spread over project configurations: the highest current value wins.
  static func value(
    key: String, setting: String, _ configurations: [XcodeProject.Configuration], in path: String
  ) -> VersionValue {
    let values = configurations.compactMap { $0.settings[setting]?.string }
    let current =
      BundleVersion.highest(of: values) ?? ""
    return VersionValue(
      key: key, current: current,
      places: configurations.map { .project(path: path, configurationID: $0.id, setting: setting) })
  }

  /// Where a `$(SETTING)` in an Info.plist is defined: `.xcconfig` files in its folder or the
  /// folders above, else the nearest Xcode project above that defines it.
  static func resolve(
    _ setting: String, key: String, for plist: String, targets: Set<String>?,
    project: (String) throws(VersioningError) -> XcodeProject, chains: XcconfigChains
  ) throws(VersioningError) -> VersionValue {
    var folder = parentFolder(of: plist)
    let manager = FileManager.default
    // Up to six folders above, never out of the trees being read.
    for _ in 0..<6 where chains.scope.contains(folder) {
      let names = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
      var places: [VersionPlace] = []
      var values: [String] = []
      for name in names where name.hasSuffix(".xcconfig") {
        let path = folder == "." ? name : folder + "/" + name
        // Read as Xcode reads a base configuration: its #includes in place, the last
        // assignment winning; a file that cannot be read is the error, not a silent skip.
        if let assignment = try chains.assignments(of: path).last(where: {
          $0.setting == setting
        }) {
          if !places.contains(assignment.place) { places.append(assignment.place) }
          values.append(assignment.value)
        }
      }
      if !places.isEmpty {
        let current =
          BundleVersion.highest(of: values) ?? ""
        return VersionValue(key: key, current: current, places: places)
      }
      for name in names where name.hasSuffix(".xcodeproj") {
        let loaded = try project(folder == "." ? name : folder + "/" + name)
        let all = loaded.configurations.filter { $0.settings[setting]?.string != nil }
        // The configurations of targets that use this Info.plist, else every one that defines it.
        let normalized = InfoPlistDiscovery.normalized(plist)
        let users = Set(
          loaded.configurations.filter { loaded.infoPlistPath($0) == normalized }.compactMap(
            \.target))
        let own = all.filter { $0.target.map(users.contains) ?? false }
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
