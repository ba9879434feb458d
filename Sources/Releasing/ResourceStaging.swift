import FileSystem
import Foundation
import StringsTable

/// Copies of resource files and folders in a temporary folder, with their strings tables
/// compiled in place: what `release` and `archive create --compile-strings` pack, leaving the
/// sources as they are.
public final class ResourceStaging {
  /// The temporary folder holding the copies.
  public let folder: String
  /// The copies, one per source, in the order given.
  public let paths: [String]
  /// The tables compiled (paths in the copies).
  public private(set) var compiled: [String] = []

  /// Copies `sources` and compiles the tables in the copies, folder by folder.
  ///
  /// - Parameter sources: Files and folders to stage.
  /// - Throws: ``DiagnosticsError`` for a table that does not compile; any error of the copy.
  public init(copying sources: [String]) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-stage-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    folder = base
    var copies: [String] = []
    var compiled: [String] = []
    do {
      for source in sources {
        var trimmed = source
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let copy = base + "/" + Paths.lastComponent(trimmed)
        try FileManager.default.copyItem(atPath: trimmed, toPath: copy)
        copies.append(copy)
      }
      // Tables of one folder compile together, where they lie.
      for copy in copies {
        compiled += try StringsCompiler().compileInPlace(copy)
      }
    } catch {
      // Nothing staged is left behind when staging fails.
      try? FileManager.default.removeItem(atPath: base)
      throw error
    }
    paths = copies
    self.compiled = compiled
  }

  /// Removes the copies.
  public func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
