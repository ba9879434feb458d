import BundleKitFileSystem
import BundleKitStringsTable
import Foundation

/// Copies of resource files and folders in a temporary folder, with their strings tables
/// compiled in place: what `release` and `archive create --compile-strings` pack, leaving the
/// sources as they are.
public final class ResourceStaging {
  /// The temporary folder holding the copies.
  public let folder: String
  /// The copies, one per source in the order given (a localized file by its `.lproj`
  /// folder); every top-level entry of `folder` when a catalog was compiled away.
  public let paths: [String]
  /// The tables compiled (paths in the copies).
  public private(set) var compiled: [String] = []
  /// The languages left out for being translated under the threshold, with their share.
  public private(set) var pruned: [String: Double] = [:]

  /// Copies `sources` and compiles the tables in the copies, folder by folder.
  ///
  /// - Parameters:
  ///   - sources: Files and folders to stage.
  ///   - developmentLanguage: The language the others are compared with (what a pruned
  ///     language's share is measured against, and a catalog's fallback).
  ///   - policy: The findings' severities: by default what the build compiles.
  ///   - pruneBelow: Leave out languages translated under this share (see
  ///     ``StringsCompiler/pruneBelow``); nil keeps them all.
  /// - Throws: ``DiagnosticsError`` for a table that does not compile; any error of the copy.
  public init(
    copying sources: [String], developmentLanguage: String = "en",
    policy: SeverityPolicy = .compile, pruneBelow: Double? = nil
  ) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-stage-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    folder = base
    var copies: [String] = []
    var compiled: [String] = []
    var pruned: [String: Double] = [:]
    do {
      var origins: [String: String] = [:]
      for source in sources {
        var trimmed = source
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        // A file of a `<lang>.lproj` folder (Xcode lists each localization of a table as a
        // resource of its own) keeps its folder: `en.lproj/Localizable.strings` and
        // `de.lproj/Localizable.strings` are two files, not one name twice.
        let folderName = Paths.lastComponent(Paths.parent(trimmed))
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: trimmed, isDirectory: &isFolder)
        let localized = folderName.hasSuffix(".lproj") && !isFolder.boolValue
        let relative =
          localized
          ? folderName + "/" + Paths.lastComponent(trimmed) : Paths.lastComponent(trimmed)
        if let other = origins[relative] {
          throw FileSystemError.io(
            path: trimmed,
            message:
              "has the name \(relative), as \(other) has: one archive root cannot hold both; pass their folder instead"
          )
        }
        origins[relative] = trimmed
        let copy = base + "/" + relative
        do {
          try FileIO.createFolders(for: copy)
          try FileManager.default.copyItem(atPath: trimmed, toPath: copy)
        } catch let error as FileSystemError {
          throw error
        } catch {
          throw FileSystemError.io(
            path: trimmed, message: "cannot be copied: \((error as NSError).localizedDescription)")
        }
        let root = localized ? base + "/" + folderName : copy
        if !copies.contains(root) { copies.append(root) }
      }
      // Tables of one folder compile together, where they lie.
      var compiler = StringsCompiler(developmentLanguage: developmentLanguage)
      compiler.policy = policy
      compiler.pruneBelow = pruneBelow
      for copy in copies {
        let result = try compiler.compileInPlace(copy)
        compiled += result.paths
        pruned.merge(result.pruned) { first, _ in first }
      }
      // A catalog compiles into `<lang>.lproj` folders beside it and is gone: what is staged
      // is what the folder holds now.
      if copies.contains(where: { !FileManager.default.fileExists(atPath: $0) }) {
        copies = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).sorted()
          .map { base + "/" + $0 }
      }
    } catch {
      // Nothing staged is left behind when staging fails.
      try? FileManager.default.removeItem(atPath: base)
      throw error
    }
    paths = copies
    self.compiled = compiled
    self.pruned = pruned
  }

  /// Removes the copies.
  public func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
