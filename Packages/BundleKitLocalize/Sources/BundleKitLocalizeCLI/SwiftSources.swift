import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsExtraction
import BundleKitStringsTable
import BundleKitVersioning

/// The Swift files a command reads: given one by one, or found in folders.
enum SwiftSources {
  /// The `.swift` files under `paths`, sorted, each once (a folder given inside another, or a
  /// file inside a folder given, is read once), skipping .build, .git, DerivedData, Pods and
  /// Carthage.
  ///
  /// A file found in a folder that an Xcode project of the repository holds but none of its
  /// targets compiles (nor a package) is left out, as Xcode never extracts it; a file named
  /// on its own is always read.
  static func paths(in paths: [String], leavingOutUnbuilt: Bool = true) -> [String] {
    // Each file with its real path, found once: what the dedup and the projects compare.
    var named: [(path: String, real: String)] = []
    var walked: [(path: String, real: String)] = []
    for path in paths {
      if path.hasSuffix(".swift") {
        named.append((path, FileIO.realPath(path) ?? path))
        continue
      }
      DirectoryWalker.walk(path) { entry in
        if entry.isFolder { return SkippedFolders.skips(entry.name) ? .skip : .descend }
        if entry.name.hasSuffix(".swift"), entry.isDecodable {
          let file = Paths.join(path, entry.relativePath)
          walked.append((file, FileIO.realPath(file) ?? file))
        }
        return .descend
      }
    }
    // The projects of the repository (or, outside one, of the first folder asked for).
    if leavingOutUnbuilt, let first = paths.first, let start = FileIO.realPath(first),
      !walked.isEmpty
    {
      let root = repositoryRoot(above: start) ?? start
      let unbuilt = LocalizationTargets.unbuilt(walked.map(\.real), root: root)
      walked.removeAll { unbuilt.contains($0.real) }
    }
    var seen: Set<String> = []
    return (named + walked).sorted { $0.path < $1.path }
      .filter { seen.insert($0.real).inserted }.map(\.path)
  }

  /// Every Swift file under `paths` with its text; one error for each that cannot be read or
  /// is not UTF-8, all reported together.
  static func read(_ paths: [String]) throws -> [(path: String, source: String)] {
    var files: [(path: String, source: String)] = []
    var problems: [Diagnostic] = []
    for path in Self.paths(in: paths) {
      do {
        let bytes = try FileIO.read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
          problems.append(.error(path, "not UTF-8 text"))
          continue
        }
        files.append((path, text))
      } catch {
        problems += error.diagnostics
      }
    }
    if !problems.isEmpty { throw DiagnosticsError(problems) }
    return files
  }

  /// The Swift sources of the local packages the code under `paths` depends on, which
  /// extraction reads for their declarations only (a design-system package's
  /// `AppButton(_ title: LocalizedStringKey)`), the files of `files` left out.
  ///
  /// The packages are those a `Package.swift` above a path lists with `.package(path:)`,
  /// that package's own other modules, and those an Xcode project in the repository
  /// references (`XCLocalSwiftPackageReference`), followed through their manifests. Only
  /// packages inside the repository (the folder holding `.git` above the paths) are read,
  /// and unreadable files are passed over: they add knowledge, never findings.
  static func context(for paths: [String], files: [(path: String, source: String)])
    -> [(path: String, source: String)]
  {
    guard let first = paths.first, let start = FileIO.realPath(first),
      let repository = repositoryRoot(above: start)
    else { return [] }
    var pending: [String] = []
    for path in paths {
      guard let real = FileIO.realPath(path) else { continue }
      if let package = enclosingPackage(of: real, within: repository) {
        pending.append(package)
      } else {
        pending += projectPackages(in: repository)
      }
    }
    var packages: [String] = []
    var seen: Set<String> = []
    // A bounded walk of the dependency graph: a repository has a handful of local packages.
    while let package = pending.popLast(), packages.count < 64 {
      guard let real = FileIO.realPath(package),
        real == repository || real.hasPrefix(repository + "/"),
        seen.insert(real).inserted
      else { continue }
      packages.append(real)
      pending += localDependencies(of: real)
    }
    let known = Set(files.compactMap { FileIO.realPath($0.path) })
    var context: [(path: String, source: String)] = []
    for package in packages {
      let sources = Paths.join(package, "Sources")
      // A package's own sources: no project leaves any out, so no project is read.
      for path in Self.paths(in: [sources], leavingOutUnbuilt: false) {
        // A link (the file, or `Sources` itself) that leads out of the repository is not
        // followed.
        guard let real = FileIO.realPath(path),
          repository == "/" || real.hasPrefix(repository + "/"),
          !known.contains(real), let bytes = try? FileIO.read(path),
          let text = String(validating: bytes, as: UTF8.self)
        else { continue }
        context.append((path, text))
      }
    }
    return context
  }

  /// The nearest folder at or above `path` that holds `.git`, looked for at most 64 levels up.
  static func repositoryRoot(above path: String) -> String? {
    var folder = path
    for _ in 0..<64 {
      if FileIO.exists(Paths.join(folder, ".git")) { return folder }
      if folder == "/" { return nil }
      folder = Paths.parent(folder)
    }
    return nil
  }

  /// The nearest folder at or above `path`, inside `repository`, that holds a `Package.swift`.
  static func enclosingPackage(of path: String, within repository: String) -> String? {
    var folder = path
    while folder == repository || folder.hasPrefix(repository + "/") {
      if FileIO.exists(Paths.join(folder, "Package.swift")) { return folder }
      if folder == repository { return nil }
      folder = Paths.parent(folder)
    }
    return nil
  }

  /// The folders a manifest lists with `.package(path: "...")`, relative to its package.
  static func localDependencies(of package: String) -> [String] {
    guard let bytes = try? FileIO.read(Paths.join(package, "Package.swift")),
      let text = String(validating: bytes, as: UTF8.self)
    else { return [] }
    return quotedValues(after: "path:", in: text, within: ".package(").map {
      Paths.join(package, $0)
    }
  }

  /// The local packages the Xcode projects at the top of `repository` (and one level down)
  /// reference: each `XCLocalSwiftPackageReference`'s `relativePath`, from the project's
  /// folder.
  static func projectPackages(in repository: String) -> [String] {
    var packages: [String] = []
    for (project, text) in projectFiles(in: repository) {
      for block in text.components(separatedBy: "isa = XCLocalSwiftPackageReference;").dropFirst() {
        guard let range = block.range(of: "relativePath = ") else { continue }
        var value = block[range.upperBound...].prefix { $0 != ";" && $0 != "\n" }
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
          value = value.dropFirst().dropLast()
        }
        packages.append(Paths.join(Paths.parent(project), String(value)))
      }
    }
    return packages
  }

  /// The functions the Xcode projects at the top of the repository above `paths` (and one
  /// level down) name in `LOCALIZED_STRING_MACRO_NAMES` besides the defaults
  /// (`NSLocalizedString`, which extraction knows, and `CFCopyLocalizedString`, a C macro):
  /// `MFLocalizedString` in `LOCALIZED_STRING_MACRO_NAMES = (MFLocalizedString,
  /// NSLocalizedString, );`, or in a quoted list `"MyString $(inherited)"`.
  static func localizedFunctionNames(for paths: [String]) -> Set<String> {
    guard let first = paths.first, let start = FileIO.realPath(first),
      let repository = repositoryRoot(above: start)
    else { return [] }
    var names: Set<String> = []
    for (_, text) in projectFiles(in: repository) {
      for assignment in text.components(separatedBy: "LOCALIZED_STRING_MACRO_NAMES = ").dropFirst()
      {
        let value =
          assignment.hasPrefix("(")
          ? assignment.dropFirst().prefix { $0 != ")" } : assignment.prefix { $0 != ";" }
        for word in value.split(whereSeparator: { " \t\n\r,\"".contains($0) }) {
          let name = String(word)
          guard let head = name.first, head.isLetter || head == "_",
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
            name != "NSLocalizedString", name != "CFCopyLocalizedString"
          else { continue }
          names.insert(name)
        }
      }
    }
    return names
  }

  /// The `project.pbxproj` text of each Xcode project at the top of `repository` and one
  /// level down, with the project's path.
  static func projectFiles(in repository: String) -> [(project: String, text: String)] {
    var projects: [String] = []
    let top = DirectoryWalker.names(in: repository)?.names ?? []
    for name in top {
      if name.hasSuffix(".xcodeproj") {
        projects.append(Paths.join(repository, name))
      } else if !name.hasPrefix("."), !SkippedFolders.skips(name) {
        for inner in DirectoryWalker.names(in: Paths.join(repository, name))?.names ?? []
        where inner.hasSuffix(".xcodeproj") {
          projects.append(Paths.join(Paths.join(repository, name), inner))
        }
      }
    }
    return projects.compactMap { project in
      // A project file linked from outside the repository is no setting of its code.
      let file = Paths.join(project, "project.pbxproj")
      guard let real = FileIO.realPath(file),
        repository == "/" || real.hasPrefix(repository + "/"),
        let bytes = try? FileIO.read(file), let text = String(validating: bytes, as: UTF8.self)
      else { return nil }
      return (project, text)
    }
  }

  /// The quoted strings following `label` inside calls opened by `opener` in `text`:
  /// `path:` in `.package(path: "../Kit")`.
  private static func quotedValues(after label: String, in text: String, within opener: String)
    -> [String]
  {
    var values: [String] = []
    for call in text.components(separatedBy: opener).dropFirst() {
      let head = call.prefix { $0 != ")" }
      guard let range = head.range(of: label) else { continue }
      let rest = head[range.upperBound...].drop { $0 == " " }
      guard rest.first == "\"" else { continue }
      values.append(String(rest.dropFirst().prefix { $0 != "\"" }))
    }
    return values
  }

  /// The extractor for the sources under `paths`: it knows the properties of their Core
  /// Data models (`*.xcdatamodeld`), whose classes Xcode generates.
  static func extractor(for paths: [String]) -> SwiftStringExtractor {
    var extractor = SwiftStringExtractor()
    extractor.localizedFunctionNames = localizedFunctionNames(for: paths)
    for path in paths where !path.hasSuffix(".swift") {
      DirectoryWalker.walk(path) { entry in
        if entry.isFolder { return SkippedFolders.skips(entry.name) ? .skip : .descend }
        if entry.name == "contents", entry.relativePath.contains(".xcdatamodel/"),
          let bytes = try? FileIO.read(Paths.join(path, entry.relativePath))
        {
          for (entity, name, type) in CoreDataModel.attributes(in: bytes) {
            extractor.generatedProperties[name, default: []].insert(type)
            extractor.generatedMembers[entity, default: [:]][name] = type
          }
        }
        return .descend
      }
    }
    return extractor
  }

  /// The names (without extension) of the storyboards and xibs under `paths`: a table so
  /// named holds Interface Builder's strings, which Xcode extracts from those files, not
  /// from Swift.
  static func interfaceBuilderNames(in paths: [String]) -> Set<String> {
    var names: Set<String> = []
    for path in paths where !path.hasSuffix(".swift") {
      DirectoryWalker.walk(path) { entry in
        if entry.isFolder {
          if entry.name.hasSuffix(".storyboard") { names.insert(String(entry.name.dropLast(11))) }
          return SkippedFolders.skips(entry.name) ? .skip : .descend
        }
        for suffix in [".storyboard", ".xib"] where entry.name.hasSuffix(suffix) {
          names.insert(String(entry.name.dropLast(suffix.count)))
        }
        return .descend
      }
    }
    return names
  }
}
