import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsExtraction
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

  /// The extractor for the sources under `paths`: it knows the properties of their Core
  /// Data models (`*.xcdatamodeld`), whose classes Xcode generates.
  static func extractor(for paths: [String]) -> SwiftStringExtractor {
    var extractor = SwiftStringExtractor()
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
