import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList

extension StringsCompiler {
  /// Compiles every table under `folder` where it lies: `.strings` and `.stringsdict` files
  /// are replaced by their binary form, catalogs by `<lang>.lproj` tables beside them. Tables
  /// of one folder are checked together. Used to stage bundles and archives.
  public func compileInPlace(_ folder: String) throws(DiagnosticsError) -> Written {
    let tables = try TableDiscovery.tables(in: [folder])
    var written: [String] = []
    var warnings: [Diagnostic] = []
    var pruned: [String: Double] = [:]
    let groups = Dictionary(grouping: tables, by: \.bundleFolder)
    for bundleFolder in groups.keys.sorted() {
      let group = groups[bundleFolder] ?? []
      let result = try compile(group, into: bundleFolder.isEmpty ? "." : bundleFolder)
      written += result.paths
      warnings += result.warnings
      pruned.merge(result.pruned) { first, _ in first }
      for table in group where table.kind == .catalog {
        unlinkFile(table.path)
      }
      // A language left out leaves no table behind (its text would be packed otherwise),
      // and no `.lproj` that would make the bundle claim it.
      for table in group where table.language.map(result.pruned.keys.contains) == true {
        unlinkFile(table.path)
        removeEmptyFolder(Paths.parent(table.path))
      }
    }
    return Written(paths: written, warnings: warnings, pruned: pruned)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private func unlinkFile(_ path: String) { unlink(path) }
private func removeEmptyFolder(_ path: String) { rmdir(path) }
