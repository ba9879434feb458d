import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// A change to versions across many bundles, planned in full before anything is written.
public struct VersionBump: Sendable {
  /// How to choose the new build number.
  public enum BuildScheme: Sendable, Hashable {
    /// Raise the last component by one.
    case increment
    /// A given number.
    case to(BundleVersion)
    /// The UTC time as `YYMMDDHHMM` (one component, below 2^32 until 2042).
    case timestamp(Date)
    /// The number of commits on HEAD (`git rev-list --count HEAD`); refused in shallow clones.
    case gitCount
    /// The value of an environment variable (a CI build number).
    case environment(String)
  }

  /// What to change.
  public enum Change: Sendable, Hashable {
    /// The build number (`CFBundleVersion`).
    case build(BuildScheme)
    /// The marketing version (`CFBundleShortVersionString`): a part, or a given version.
    case version(part: BundleVersion.Part?, to: BundleVersion?)
  }

  /// The change.
  public var change: Change
  /// Build numbers only: set every bundle to the highest current number + 1.
  public var sync = false
  /// Version changes only: also set build numbers to 1.
  public var resetBuild = false
  /// Whether a value may go down (`--to 5` over 12): off, a lowered build number is refused.
  public var allowLower = false
  /// Whether files outside the paths given may be written (an Info.plist or `.xcconfig` a
  /// project reaches through `INFOPLIST_FILE = ../..`, an `#include`, a workspace or a link).
  public var allowOutside = false

  /// A bump of the given kind.
  public init(_ change: Change, sync: Bool = false, resetBuild: Bool = false) {
    self.change = change
    self.sync = sync
    self.resetBuild = resetBuild
  }

  /// One value that changes.
  public struct ValueChange: Sendable, Hashable {
    /// The bundles that show it (Info.plists or project targets).
    public var bundles: [String]
    /// The key.
    public var key: String
    /// The value before.
    public var old: String
    /// The value after.
    public var new: String
    /// Where it is written.
    public var places: [VersionPlace]
    /// For a value joined from several settings: the new text of each setting that changes
    /// (`SPARKLE_VERSION_PATCH` "1", `SPARKLE_VERSION_SUFFIX` ""); nil when every place
    /// takes `new`.
    public var texts: [VersionPlace: String]? = nil
    /// Whether an application that no other target embeds shows it: the number a release
    /// is known by (its tag), when frameworks and helpers have numbers of their own.
    var isApplications = false
  }

  /// Where a value is written, as `file:line` (the line in the file as it was read).
  public static func locations(of value: ValueChange, in files: [FileChange]) -> [(
    file: String, line: Int?
  )] {
    value.places.map { place in
      let bytes = files.first { $0.path == place.file }?.old ?? (try? FileIO.read(place.file)) ?? []
      return (place.file, FileEditor.line(of: place, in: bytes))
    }
  }

  /// One file that changes, with its bytes before and after.
  public struct FileChange: Sendable, Hashable {
    /// The file.
    public var path: String
    /// The bytes now.
    public var old: [UInt8]
    /// The bytes to write.
    public var new: [UInt8]
    /// Whether the file is a binary property list (shown as a summary, not a diff).
    public var isBinary: Bool
  }

  /// The changes this bump makes to the inventory: every value and every file.
  ///
  /// - Parameters:
  ///   - inventory: The values and files read.
  ///   - environment: Where an `env:VAR` scheme reads its variable; nil for the process's
  ///     environment, read only when a scheme asks for it.
  public func plan(
    _ inventory: VersionInventory, environment: [String: String]? = nil
  ) throws(VersioningError) -> Plan {
    // A value that cannot be resolved stops the bump of its key.
    let keys = changedKeys
    let problems = inventory.bundles.flatMap(\.problems).filter {
      $0.key.map(keys.contains) ?? true
    }
    if !problems.isEmpty { throw .unresolvable(problems: problems) }
    // Values written in the same place (one xcconfig for many Info.plists) change once.
    var groups: [ValueGroup] = []
    var groupOfPlace: [VersionPlace: Int] = [:]
    groups.reserveCapacity(inventory.bundles.count * 2)
    groupOfPlace.reserveCapacity(inventory.bundles.count * 2)
    // Each family (an app with what it embeds) numbered once, by its first bundle: hashed
    // once, not at every comparison of family highs.
    var familyNumbers: [String: Int] = [:]
    var familyCount = 0
    let onlyInfoPlists = inventory.bundles.allSatisfy {
      if case .infoPlist = $0.format { true } else { false }
    }
    // Each value passed borrowed, not gathered into an array first: copied once, into its
    // group.
    func add(_ value: VersionValue, label: String, family: Int, isApp: Bool, path: String) {
      var existing: Int?
      if onlyInfoPlists, value.places.count == 1, case .plist = value.places[0] {
        // Its own Info.plist's key, which no other value can hold when every row is an
        // Info.plist read once (a project's or spec's values may name one): not looked up.
        groups.append(
          ValueGroup(value: value, bundles: [label], families: [family], app: isApp, path: path))
        return
      } else if value.places.count == 1 {
        // Looked up and entered as the new group's place at once.
        let place = groupOfPlace.enter(groups.count, forKey: value.places[0])
        existing = place.entered ? nil : place.value
      } else {
        existing = value.places.lazy.compactMap({ groupOfPlace[$0] }).first
      }
      if let existing {
        let group = groups[existing]
        // A version joins a build number's group only where one file holds both (another
        // bundle's build number written as this version is the version's group, which a
        // build bump leaves alone).
        if group.value.key == "CFBundleVersion", value.key == "CFBundleShortVersionString" {
          group.versionOfAnother = group.versionOfAnother ?? label
        }
        group.bundles.append(label)
        if !group.families.contains(family) { group.families.append(family) }
        group.app = group.app || isApp
        for place in value.places where groupOfPlace[place] == nil {
          group.value.places.append(place)
          groupOfPlace[place] = existing
        }
        return
      }
      if value.places.count != 1 {
        for place in value.places { groupOfPlace[place] = groups.count }
      }
      groups.append(
        ValueGroup(value: value, bundles: [label], families: [family], app: isApp, path: path))
    }
    for index in inventory.bundles.indices {
      if inventory.bundles[index].missing != nil { continue }
      // Embedded frameworks and helpers keep their own numbers: raised only when named.
      if inventory.bundles[index].keepsOwnNumber,
        inventory.namedTargets?.contains(inventory.bundles[index].target) != true
      {
        continue
      }
      let bundle = inventory.bundles[index]
      // An app and its extensions carry one build number (an App Store rule): the targets
      // of one project or spec named by their app. An Info.plist is read once, so its row is
      // a family of its own, numbered without building and hashing its name.
      let family: Int
      if case .infoPlist = bundle.format {
        family = familyCount
        familyCount += 1
      } else {
        let familyName = bundle.path + "\u{0}" + (bundle.app ?? bundle.target)
        family = familyNumbers[familyName] ?? familyCount
        if family == familyCount {
          familyNumbers[familyName] = family
          familyCount += 1
        }
      }
      let isApp = bundle.host == nil && bundle.kind == "application"
      let label = bundle.label
      // Both keys, the version first, whichever this bump changes: a build number written in
      // the version's place (`$(MARKETING_VERSION)`) joins the version's group, which a build
      // bump leaves alone.
      if let version = bundle.version {
        add(version, label: label, family: family, isApp: isApp, path: bundle.path)
      }
      if let build = bundle.build {
        add(build, label: label, family: family, isApp: isApp, path: bundle.path)
      }
    }
    // Each changed value's number, parsed once: the family maximum, the raise and the check
    // against lowering all read it (a bump of 1,000 targets parsed each four times).
    let currents = groups.map { group in
      keys.contains(group.value.key) ? BundleVersion(group.value.current) : nil
    }
    // Only a build bump raises a number past its family's highest.
    var familyHighest: [BundleVersion?] = []
    if case .build = change {
      familyHighest = Self.highestPerFamily(groups, currents, families: familyCount)
    }
    var values: [ValueChange] = []
    var shared: String?
    if case .build(let scheme) = change {
      shared = try sharedBuildNumber(
        scheme, builds: groups.lazy.map(\.value).filter { $0.key == "CFBundleVersion" },
        environment: environment)
    }
    // By index, each group read through its reference (nothing copied).
    for index in groups.indices {
      let key = groups[index].value.key
      let current = groups[index].value.current
      var new: String?
      // The new number when it was made here, so the lowering check need not parse it.
      var raised: BundleVersion?
      switch (change, key) {
      case (.build(let scheme), "CFBundleVersion"):
        if let shared {
          new = shared
        } else if case .increment = scheme {
          guard var version = currents[index] else {
            throw .invalidVersion(
              path: groups[index].value.places.first?.file ?? "?", key: key, value: current)
          }
          // One past the highest of its family: an app and its extensions stay equal.
          for family in groups[index].families {
            if let highest = familyHighest[family], highest > version { version = highest }
          }
          guard let next = version.incremented() else {
            throw .cannotRaise(
              path: groups[index].value.places.first?.file ?? "?", key: key, value: current)
          }
          new = next.description
          raised = next
        }
      case (.version(let part, let target), "CFBundleShortVersionString"):
        let prerelease = PrereleaseVersion(current)
        guard let version = currents[index] ?? prerelease?.release else {
          throw .invalidVersion(
            path: groups[index].value.places.first?.file ?? "?", key: key, value: current)
        }
        if let target {
          new = target.description
        } else if let part {
          // A pre-release is raised to its release (`2.7.0-beta.1` + patch is `2.7.0`).
          guard let next = prerelease?.bumped(part) ?? version.bumped(part) else {
            throw .cannotRaise(
              path: groups[index].value.places.first?.file ?? "?", key: key, value: current)
          }
          new = next.description
        }
      case (.version, "CFBundleVersion") where resetBuild:
        new = "1"
      default:
        break
      }
      guard let new, new != current else { continue }
      let group = groups[index]
      let value = group.value
      if let other = group.versionOfAnother {
        throw .refused(
          path: value.places.first?.file ?? group.path,
          reason:
            "\(other)'s CFBundleShortVersionString and \(group.bundles.first ?? "?")'s CFBundleVersion are one value (\(value.places.first?.description ?? "?")): a bump cannot change it as both; give each its own"
        )
      }
      // Shown, but written nowhere a bump can edit: XcodeGen's generated Info.plist default,
      // a value a template builds. Refused, never "bumped" in memory only.
      guard !value.places.isEmpty else {
        // At the spec that builds it, so a CI annotation lands on that file.
        throw .refused(
          path: group.path,
          reason:
            "\(group.bundles.joined(separator: ", ")): \(value.key) \(current) is not written in any file BundleKit can edit (XcodeGen's generated Info.plist default, or a value a template builds); write it in the spec (info.properties or a setting) to bump it"
        )
      }
      // Resetting the build number to 1 is asking to lower it.
      let resetting = value.key == "CFBundleVersion" && resetBuild
      if !allowLower, !resetting, let old = currents[index] ?? BundleVersion(current),
        let raised = raised ?? BundleVersion(new), raised < old
      {
        throw .wouldLower(
          path: value.places.first?.file ?? "?", key: value.key, current: current, new: new)
      }
      var texts: [VersionPlace: String]?
      if let pieces = value.pieces {
        // Each changed number lands in the setting that writes it.
        guard let distributed = VersionPiece.distribute(old: current, new: new, over: pieces)
        else {
          throw .refused(
            path: value.places.first?.file ?? group.path,
            reason:
              "\(group.bundles.joined(separator: ", ")): \(value.key) \(current) is joined from several settings (\(pieces.compactMap(\.place).map(\.description).joined(separator: ", "))), and \(new) cannot be written as a change of each: every number that changes must be one setting's whole value"
          )
        }
        texts = distributed
      }
      values.append(
        ValueChange(
          bundles: group.bundles, key: value.key, old: current, new: new, places: value.places,
          texts: texts, isApplications: group.app))
    }
    var plan = Plan(
      values: values,
      files: try fileChanges(
        values, contents: inventory.contents, documents: inventory.documents))
    plan.confirmed = inventory.confirmedReads
    return plan
  }

  /// The keys this bump changes.
  var changedKeys: Set<String> {
    switch change {
    case .build: ["CFBundleVersion"]
    case .version:
      resetBuild
        ? ["CFBundleShortVersionString", "CFBundleVersion"] : ["CFBundleShortVersionString"]
    }
  }

  /// One value as the plan gathers it: written in the same places for several bundles, it
  /// changes once. `families` are the apps (with what they embed) it belongs to, each once,
  /// by number.
  ///
  /// A class: the plan reads and extends groups in place, where a tuple held in an array was
  /// copied whole (its value's places, chain and configurations retained and released) at
  /// reads of its fields (with the families numbered, a 1,000-target plan's values took 3.0
  /// ms where they took 4.3).
  final class ValueGroup {
    var value: VersionValue
    var bundles: [String]
    var families: [Int]
    var app: Bool
    let path: String
    /// Another bundle's version read from this build number's place: a value no bump can
    /// change for both (a build bump would raise that version; a reset would lower it).
    var versionOfAnother: String?

    init(value: VersionValue, bundles: [String], families: [Int], app: Bool, path: String) {
      self.value = value
      self.bundles = bundles
      self.families = families
      self.app = app
      self.path = path
    }
  }

  /// The highest build number of each family (an app with what it embeds), by family
  /// number (`0..<families`; nil for a family with none). `currents` holds each group's
  /// number, parsed (nil where it is none or not parsed).
  static func highestPerFamily(
    _ groups: [ValueGroup], _ currents: [BundleVersion?], families: Int
  ) -> [BundleVersion?] {
    var highest = [BundleVersion?](repeating: nil, count: families)
    for index in groups.indices where groups[index].value.key == "CFBundleVersion" {
      guard let version = currents[index] else { continue }
      for family in groups[index].families where highest[family].map({ $0 < version }) ?? true {
        highest[family] = version
      }
    }
    return highest
  }

  /// The build number every bundle gets, for schemes that give one number (nil for a
  /// per-bundle increment).
  private func sharedBuildNumber(
    _ scheme: BuildScheme, builds: some Collection<VersionValue>, environment: [String: String]?
  ) throws(VersioningError) -> String? {
    switch scheme {
    case .increment:
      guard sync else { return nil }
      var highest = BundleVersion(components: [0])
      var highestFile = "?"
      for value in builds {
        guard let version = BundleVersion(value.current) else {
          throw .invalidVersion(
            path: value.places.first?.file ?? "?", key: value.key, value: value.current)
        }
        if version > highest {
          highest = version
          highestFile = value.places.first?.file ?? "?"
        }
      }
      guard let next = highest.incremented() else {
        throw .cannotRaise(path: highestFile, key: "CFBundleVersion", value: "\(highest)")
      }
      return next.description
    case .to(let version):
      return version.description
    case .timestamp(let date):
      let seconds = Int64(date.timeIntervalSince1970)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute],
        from: Date(timeIntervalSince1970: TimeInterval(seconds)))
      let text = String(
        format: "%02d%02d%02d%02d%02d", (parts.year ?? 2000) % 100, parts.month ?? 1,
        parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0)
      guard let version = BundleVersion(String(Int(text) ?? 0)) else {
        throw .scheme(message: "the timestamp \(text) is not a build number")
      }
      return version.description
    case .gitCount:
      let folder =
        builds.first?.places.first.map { Paths.parent($0.file) } ?? "."
      return try GitCount.commits(in: folder.isEmpty ? "." : folder)
    case .environment(let name):
      let variables = environment ?? ProcessInfo.processInfo.environment
      guard let text = variables[name], !text.isEmpty else {
        throw .scheme(message: "the environment variable \(name) is not set")
      }
      guard let version = BundleVersion(text) else {
        throw .scheme(
          message:
            "\(name)='\(text)' is not a build number (\(BundleVersion.rule))"
        )
      }
      return version.description
    }
  }

  /// The new bytes of every file the values live in.
  func fileChanges(
    _ values: [ValueChange], contents: [String: [UInt8]] = [:],
    documents: [String: PropertyListDocument] = [:]
  )
    throws(VersioningError) -> [FileChange]
  {
    // Each file's edits, the files in the order first met: by path already when the values
    // come from Info.plists found in path order, then not sorted again.
    var gathered: [(path: String, edits: [(VersionPlace, String)])] = []
    var fileIndex: [String: Int] = [:]
    gathered.reserveCapacity(values.count)
    fileIndex.reserveCapacity(values.count)
    for value in values {
      for place in value.places {
        let text: String
        if let texts = value.texts {
          guard let changed = texts[place] else { continue }
          text = changed
        } else {
          text = value.new
        }
        let file = fileIndex.enter(gathered.count, forKey: place.file)
        if file.entered {
          gathered.append((place.file, [(place, text)]))
        } else {
          gathered[file.value].edits.append((place, text))
        }
      }
    }
    if zip(gathered, gathered.dropFirst()).contains(where: { $0.path >= $1.path }) {
      gathered.sort { $0.path < $1.path }
    }
    // Each file is edited on its own, so large bumps use every core; the first failure (in
    // path order) is reported.
    let files = gathered
    let edited = WorkerThreads.map(files.count) { index in
      Result { () throws(VersioningError) -> FileChange in
        let (file, edits) = files[index]
        let old: [UInt8]
        if let known = contents[file] {
          old = known
        } else {
          do throws(FileSystemError) {
            old = try FileIO.read(file)
          } catch { throw .file(error) }
        }
        let (new, isBinary) = try FileEditor.apply(
          edits, to: old, path: file, document: contents[file] == nil ? nil : documents[file])
        return FileChange(path: file, old: old, new: new, isBinary: isBinary)
      }
    }
    var changes: [FileChange] = []
    changes.reserveCapacity(edited.count)
    for result in edited {
      let change = try result.get()
      if change.new != change.old { changes.append(change) }
    }
    return changes
  }

  /// Writes every changed file atomically, as one batch: if any file cannot be written,
  /// none is replaced, so a failed run leaves every file as it was. A write-protected file
  /// (read-only, or not yet opened for edit in Perforce) is an error, not replaced.
  public static func write(_ changes: [FileChange]) throws(VersioningError) {
    var folders = AbsolutePath.RealFolders()
    try write(changes, folders: &folders)
  }

  /// ``write(_:)`` with the folders the caller resolved already (their links read once);
  /// a file with a folder in `through` (by index) is written through that open folder
  /// (``ConfirmedFolders``).
  static func write(
    _ changes: [FileChange], folders: inout AbsolutePath.RealFolders,
    through: [Int32?] = []
  )
    throws(VersioningError)
  {
    let writes = changes.indices.map { index in
      FileWrite(
        path: changes[index].path, bytes: changes[index].new,
        folder: index < through.count ? through[index] : nil)
    }
    // A file the outside check read (`folders.fileStatus`) is not read again; one in an open
    // folder is asked about through it. Asked on every core: for any user but root each is a
    // system call (`faccessat`), 0.7 ms for 1,000 files on one.
    let resolved = folders
    let protected = WorkerThreads.map(writes.count) { index in
      let write = writes[index]
      guard let info = resolved.fileStatus(write.path) else {
        return FileIO.isWriteProtected(write.path)
      }
      return FileIO.isWriteProtected(write.path, info, in: write.folder)
    }
    if let index = protected.firstIndex(of: true) {
      throw .writeProtected(path: writes[index].path)
    }
    do {
      try FileIO.writeAtomically(writes, folders: &folders)
    } catch {
      throw .notWritten(error)
    }
  }
}

/// `git rev-list --count HEAD`, refusing shallow clones whose count would be wrong.
enum GitCount {
  static func commits(in folder: String) throws(VersioningError) -> String {
    func git(_ arguments: [String]) -> (Int32, String) {
      guard let result = ToolOutput.run(["git", "-C", folder] + arguments) else { return (127, "") }
      return (
        result.status,
        String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: [" ", "\n"])
      )
    }
    let (status, shallow) = git(["rev-parse", "--is-shallow-repository"])
    guard status == 0 else {
      throw .scheme(
        message: "\(folder) is not in a git repository (needed by the git-count scheme)")
    }
    if shallow == "true" {
      throw .scheme(
        message:
          "\(folder) is in a shallow clone, where the commit count is wrong; fetch the full history (git fetch --unshallow) or use another scheme"
      )
    }
    let (countStatus, count) = git(["rev-list", "--count", "HEAD"])
    guard countStatus == 0, let number = BundleVersion(count) else {
      throw .scheme(message: "git could not count the commits of HEAD in \(folder)")
    }
    return number.description
  }
}
