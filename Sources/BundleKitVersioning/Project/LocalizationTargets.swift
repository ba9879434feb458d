import BundleKitDiagnostics
import BundleKitFileSystem
import Foundation

/// Which Swift sources and which strings tables belong to one target, as Xcode's export needs
/// them: it extracts a target's code into that target's own tables.
///
/// - An Xcode project's target: the Swift files of its Compile Sources phase and the tables
///   of its Copy Bundle Resources phase, and everything below its synchronized folders
///   (Xcode 16).
/// - A Swift package's target: everything below `Sources/<Target>`.
public enum LocalizationTargets {
  /// One target.
  public struct Target: Sendable, Hashable {
    /// The target's name.
    public var name: String
    /// Its Swift files, by path.
    public var sources: Set<String>
    /// Folders every file below which is the target's (a package target's, a synchronized
    /// folder).
    public var folders: [String]
    /// The strings tables it copies, by path (each language's).
    public var tables: Set<String>
    /// Whether its settings prefer String Catalogs (`LOCALIZATION_PREFERS_STRING_CATALOGS`;
    /// a package's target always does).
    public var prefersCatalogs: Bool

    /// Whether `file` is one of its sources.
    public func contains(_ file: String) -> Bool {
      sources.contains(file) || folders.contains { file.hasPrefix($0 + "/") }
    }
  }

  /// The targets of every Xcode project and Swift package under `paths` (CocoaPods' and
  /// generated projects aside). A project that cannot be read is a warning in `warnings`.
  public static func find(in paths: [String], warnings: inout [Diagnostic]) throws(VersioningError)
    -> [Target]
  {
    let scope = SettingsScope(paths: paths)
    let chains = XcconfigChains(scope: scope)
    var targets: [Target] = []
    var packages: [String] = []
    for root in paths {
      DirectoryWalker.walk(root) { entry in
        if entry.isFolder {
          return SkippedFolders.skips(entry.name) || entry.name.hasSuffix(".xcodeproj")
            || entry.name.hasSuffix(".xcloc") ? .skip : .descend
        }
        if entry.name == "Package.swift" {
          packages.append(Paths.parent(Paths.join(root, entry.relativePath)))
        }
        return .skip
      }
    }
    for package in packages.sorted() {
      let sources = Paths.join(package, "Sources")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
      for name in names.sorted() where !name.hasPrefix(".") {
        var isFolder: ObjCBool = false
        let folder = Paths.join(sources, name)
        // A link is not followed out of the package.
        guard FileIO.linkDestination(folder) == nil,
          FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
        else { continue }
        targets.append(
          Target(
            name: name, sources: [], folders: [InfoPlistDiscovery.normalized(folder)], tables: [],
            prefersCatalogs: true))
      }
    }
    for project in try XcodeProject.projects(
      in: paths, scope: scope, unread: "the strings of its targets' code are not exported",
      warnings: &warnings)
    {
      let versions = ProjectVersions(project: project, chains: chains)
      for target in project.targetList where target.buildsProduct && !target.isTest {
        let sources =
          project.swiftSources(of: target)
        let tables = project.phaseFiles(of: target, isa: "PBXResourcesBuildPhase").filter {
          $0.hasSuffix(".strings") || $0.hasSuffix(".xcstrings") || $0.hasSuffix(".stringsdict")
        }
        var prefersCatalogs = false
        if let configuration = target.exportConfiguration,
          let stack = try? versions.stack(for: target, configuration)
        {
          prefersCatalogs =
            (try? stack.resolve("LOCALIZATION_PREFERS_STRING_CATALOGS"))??.value == "YES"
        }
        targets.append(
          Target(
            name: target.name, sources: Set(sources.map(InfoPlistDiscovery.normalized)),
            folders: project.synchronizedFolders(of: target).map(InfoPlistDiscovery.normalized),
            tables: Set(tables.map(InfoPlistDiscovery.normalized)),
            prefersCatalogs: prefersCatalogs))
      }
    }
    return targets
  }

  /// The files of `files` (real paths) that sit in the folder of an Xcode project under
  /// `root` (a real path) yet that no target of any project compiles, nor a Swift package
  /// holds: code Xcode never builds, so never extracts (a view left in the folder after its
  /// file reference was removed). Nothing is left out where a project cannot be read, and no
  /// file outside a project's folder is.
  public static func unbuilt(_ files: [String], root: String) -> Set<String> {
    var warnings: [Diagnostic] = []
    guard
      let projects = try? XcodeProject.projects(
        in: [root], scope: SettingsScope(paths: [root]), unread: "", warnings: &warnings),
      warnings.isEmpty, !projects.isEmpty
    else { return [] }
    var compiled: Set<String> = []
    var folders: [String] = []
    // Only a project that compiles Swift (in any target, tests too) says which Swift files
    // are built.
    var projectFolders: [String] = []
    for project in projects {
      var compilesSwift = false
      for target in project.targetList where target.buildsProduct {
        let sources =
          project.swiftSources(of: target)
        let synchronized = project.synchronizedFolders(of: target)
        compilesSwift = compilesSwift || !sources.isEmpty || !synchronized.isEmpty
        if target.isTest { continue }
        for source in sources {
          compiled.insert(
            (FileIO.realPath(source) ?? InfoPlistDiscovery.normalized(source)).lowercased())
        }
        folders += synchronized.map {
          (FileIO.realPath($0) ?? InfoPlistDiscovery.normalized($0)).lowercased()
        }
      }
      if compilesSwift {
        projectFolders.append(
          FileIO.realPath(Paths.parent(project.path)) ?? Paths.parent(project.path))
      }
    }
    var unbuilt: Set<String> = []
    for file in files {
      // Apple's file systems ignore case, and projects made there often spell a folder
      // otherwise than the checkout does (`Components` for `components`).
      let key = file.lowercased()
      guard
        let home = projectFolders.filter({ file.hasPrefix($0 + "/") }).max(by: {
          $0.count < $1.count
        }),
        !compiled.contains(key), !folders.contains(where: { key.hasPrefix($0 + "/") })
      else { continue }
      // A package's sources inside the project's folder are the package's targets'.
      var folder = Paths.parent(file)
      var inPackage = false
      while folder.count > home.count {
        if FileIO.exists(Paths.join(folder, "Package.swift")) {
          inPackage = true
          break
        }
        folder = Paths.parent(folder)
      }
      if !inPackage { unbuilt.insert(file) }
    }
    return unbuilt
  }
}
