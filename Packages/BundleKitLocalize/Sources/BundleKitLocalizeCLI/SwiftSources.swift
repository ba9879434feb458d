import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsTable

/// The Swift files a command reads: given one by one, or found in folders.
enum SwiftSources {
  /// The `.swift` files under `paths`, sorted, skipping .build, .git, DerivedData, Pods and
  /// Carthage.
  static func paths(in paths: [String]) -> [String] {
    var found: [String] = []
    for path in paths {
      if path.hasSuffix(".swift") {
        found.append(path)
        continue
      }
      DirectoryWalker.walk(path) { entry in
        if entry.isFolder { return SkippedFolders.skips(entry.name) ? .skip : .descend }
        if entry.name.hasSuffix(".swift"), entry.isDecodable {
          found.append(Paths.join(path, entry.relativePath))
        }
        return .descend
      }
    }
    return found.sorted()
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
}
