import FileSystem
import PropertyListXML

extension StringsCompiler {
  /// Compiles every table under `folder` where it lies: `.strings` and `.stringsdict` files
  /// are replaced by their binary form, catalogs by `<lang>.lproj` tables beside them. Tables
  /// of one folder are checked together. Used to stage bundles and archives.
  public func compileInPlace(_ folder: String) throws(DiagnosticsError) -> [String] {
    let tables = try TableDiscovery.tables(in: [folder])
    var written: [String] = []
    let groups = Dictionary(grouping: tables, by: \.bundleFolder)
    for bundleFolder in groups.keys.sorted() {
      let group = groups[bundleFolder] ?? []
      written += try compile(group, into: bundleFolder.isEmpty ? "." : bundleFolder).paths
      for table in group where table.kind == .catalog {
        unlinkFile(table.path)
      }
    }
    return written
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private func unlinkFile(_ path: String) { unlink(path) }
