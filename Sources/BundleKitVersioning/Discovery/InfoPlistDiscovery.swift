import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// Finds Info.plists and Xcode projects under files and folders.
public enum InfoPlistDiscovery {

  /// What a path holds.
  public enum Found: Sendable, Hashable {
    /// An Info.plist (or `*-Info.plist`).
    case infoPlist(String)
    /// An Xcode project folder (`App.xcodeproj`).
    case project(String)
    /// An Xcode workspace (`App.xcworkspace`): the projects it lists.
    case workspace(String)
    /// A project spec the project is generated from: XcodeGen's `project.yml`, Tuist's
    /// `Project.swift`.
    case spec(String)
  }

  /// Whether a file name is an Info.plist: `Info.plist`, `*-Info.plist`, `*Info.plist`.
  public static func isInfoPlist(_ name: String) -> Bool {
    name.hasSuffix("Info.plist")
  }

  /// Whether a file name is a project spec: XcodeGen's `project.yml` (or `project-*.yml`,
  /// as teams with several specs name them), Tuist's `Project.swift`.
  public static func isSpec(_ name: String) -> Bool {
    if name == "Project.swift" { return true }
    guard name.hasPrefix("project"), name.hasSuffix(".yml") || name.hasSuffix(".yaml") else {
      return false
    }
    let stem = name.dropFirst("project".count).dropLast(name.hasSuffix(".yml") ? 4 : 5)
    return stem.isEmpty || stem.hasPrefix("-") || stem.hasPrefix("_") || stem.hasPrefix(".")
  }

  /// Whether a file may hold the command that runs XcodeGen.
  static func mayRunXcodeGen(_ name: String) -> Bool {
    ["Makefile", "makefile", "GNUmakefile", "Rakefile", "Fastfile", "justfile", "Justfile"]
      .contains(name) || name.hasSuffix(".sh") || name.hasSuffix(".mk")
  }

  /// The specs `xcodegen ... --spec FILE` names in `script` (at most 1 MiB read), relative
  /// to the folder searched (where such commands run), that exist.
  static func specsNamed(in script: String, root: String) -> [String] {
    guard let bytes = try? FileIO.read(script), bytes.count <= 1 << 20 else { return [] }
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.contains("xcodegen") else { return [] }
    var specs: [String] = []
    for line in text.split(separator: "\n") where line.contains("xcodegen") {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" })
      for (index, word) in words.enumerated()
      where (word == "--spec" || word == "-s") && index + 1 < words.count {
        var name = String(words[index + 1])
        name = name.trimmingCharacters(in: ["\"", "'", ";"])
        guard !name.isEmpty, !name.contains("$"), !name.hasPrefix("/"),
          !name.split(separator: "/").contains("..")
        else { continue }
        for base in [root, Paths.parent(script)] {
          let candidate = normalized(Paths.join(base, name))
          if FileIO.exists(candidate), !specs.contains(candidate) {
            specs.append(candidate)
            break
          }
        }
      }
    }
    return specs
  }

  /// Folder and file names that mark a test bundle ("UITests" ends with "Tests").
  private static let testSuffixes = [Array("Tests".utf8), Array("Tests-Info.plist".utf8)]

  /// Whether a path belongs to a test bundle (skipped unless asked for).
  static func isTestBundle(_ path: String) -> Bool {
    // On the UTF-8 bytes in place: this runs for every file found.
    var path = path
    return path.withUTF8 { bytes in
      var start = 0
      for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
        defer { start = end + 1 }
        let length = end - start
        for suffix in testSuffixes where length >= suffix.count {
          if bytes[(end - suffix.count)..<end].elementsEqual(suffix) { return true }
        }
      }
      return false
    }
  }

  /// Whether `find` walks `path`: a folder that is not a project, workspace or spec.
  private static func isWalked(_ path: String) -> Bool {
    if isNamedByKind(path) { return false }
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// Whether `path` names a project, a workspace or a spec by its name.
  private static func isNamedByKind(_ path: String) -> Bool {
    path.hasSuffix(".xcodeproj") || path.hasSuffix(".xcworkspace") || path.hasSuffix(".yml")
      || path.hasSuffix(".yaml") || path.hasSuffix("Project.swift")
  }

  /// Info.plists and `.xcodeproj` folders under `paths`, sorted. Files named on the command
  /// line are always taken; test bundles found in folders only with `includeTests`.
  public static func find(in paths: [String], includeTests: Bool = false) throws(VersioningError)
    -> [Found]
  {
    try find(in: paths, includeTests: includeTests, keepingOpen: nil)
  }

  /// ``find(in:includeTests:)``, keeping open in `open` each folder found below a searched
  /// folder holding an Info.plist, by the name ``VersionInventory/parentFolder(of:)`` gives
  /// it: the folders `bump` locks next (``OpenFolders``).
  package static func find(
    in paths: [String], includeTests: Bool, keepingOpen open: OpenFolders?
  ) throws(VersioningError) -> [Found] {
    // In the order found (each walk's near path order), sorted and made unique at the end:
    // a set hashed each of 1,000 paths, and its order was then sorted from scratch.
    var found: [Found] = []
    let manager = FileManager.default
    // A batch a killed run left half-written in these folders is finished first when this
    // run writes them, never above them: here the folders of files, projects and specs; a
    // folder that is walked below is finished by its walk, which reads it first (a folder
    // of 1,000 targets is not read twice).
    ScratchRecovery.recover(atRoots: paths.filter { !isWalked($0) })
    for path in paths {
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw .notFound(path: path)
      }
      if path.hasSuffix(".xcodeproj") {
        found.append(.project(normalized(path)))
        continue
      }
      if path.hasSuffix(".xcworkspace") {
        found.append(.workspace(normalized(path)))
        continue
      }
      if path.hasSuffix(".yml") || path.hasSuffix(".yaml") || path.hasSuffix("Project.swift") {
        found.append(.spec(normalized(path)))
        continue
      }
      guard isFolder.boolValue else {
        found.append(.infoPlist(normalized(path)))
        continue
      }
      var undecodable: String?
      var scripts: [String] = []
      // The walk's names are plain components: the root is normalised once, and each path
      // below it is the root and the relative path joined (what normalising the whole gives).
      let base = normalized(path)
      func fullPath(_ relative: String) -> String {
        base == "." ? relative : base == "/" ? "/" + relative : base + "/" + relative
      }
      // Folders seen clean are noted: `bump` recovers under its locks, after this walk, and
      // reads again only the folders that changed (CleanFolders).
      let keeping = open.map {
        DirectoryWalker.KeptOpen(folders: $0, holding: isInfoPlist, name: fullPath)
      }
      DirectoryWalker.walk(path, notingCleanFolders: true, keepingOpen: keeping) { entry in
        let name = entry.name
        let relative = entry.relativePath
        if SkippedFolders.skips(name) {
          return .skip
        }
        // Built products someone else made (a vendored .xcframework, a prebuilt .framework
        // or .bundle): their Info.plists are theirs, never bumped here.
        if entry.isFolder,
          name.hasSuffix(".xcframework") || name.hasSuffix(".framework")
            || name.hasSuffix(".bundle")
        {
          return .skip
        }
        // An Info.plist there could not be read or written: refuse rather than leave the
        // tree half bumped.
        if !entry.isDecodable {
          if entry.isFolder || isInfoPlist(name) || name.hasSuffix(".xcodeproj") {
            undecodable = undecodable ?? fullPath(relative)
          }
          return .skip
        }
        if name.hasSuffix(".xcodeproj") {
          if includeTests || !isTestBundle(relative) { found.append(.project(fullPath(relative))) }
          return .skip
        }
        if name.hasSuffix(".xcworkspace") {
          found.append(.workspace(fullPath(relative)))
          return .skip
        }
        if Self.isSpec(name), !entry.isFolder {
          found.append(.spec(fullPath(relative)))
          return .skip
        }
        if isInfoPlist(name), includeTests || !isTestBundle(relative) {
          found.append(.infoPlist(fullPath(relative)))
        }
        if !entry.isFolder, Self.mayRunXcodeGen(name) { scripts.append(fullPath(relative)) }
        return .descend
      }
      // A spec named only where the build runs XcodeGen (`xcodegen generate --spec App.yml`
      // in a Makefile or script) is a spec too.
      for script in scripts {
        for spec in Self.specsNamed(in: script, root: path) { found.append(.spec(spec)) }
      }
      if let undecodable {
        throw .file(.io(path: undecodable, message: DirectoryWalker.undecodableMessage))
      }
    }
    return unique(found.sorted { $0.path < $1.path })
  }

  /// `sorted` (by path) with each item once: the same file found twice (a spec a script
  /// names, a folder searched twice) is kept once. Items of one path sit together.
  static func unique(_ sorted: [Found]) -> [Found] {
    var kept: [Found] = []
    kept.reserveCapacity(sorted.count)
    var start = 0
    for item in sorted {
      if let last = kept.last, last.path != item.path { start = kept.count }
      if !kept[start...].contains(item) { kept.append(item) }
    }
    return kept
  }

  /// `path` without a leading `./`, trailing slashes, or `folder/..` pairs that name the
  /// same file (`Paths.collapsed`).
  public static func normalized(_ path: String) -> String {
    var result = Paths.collapsed(path)
    while result.hasPrefix("./") { result.removeFirst(2) }
    while result.utf8.count > 1, result.hasSuffix("/") { result.removeLast() }
    return result
  }
}

extension InfoPlistDiscovery.Found {
  /// The path found.
  public var path: String {
    switch self {
    case .infoPlist(let path), .project(let path), .workspace(let path), .spec(let path): path
    }
  }
}
