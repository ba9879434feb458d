import BundleKitTestSupport
import Foundation
import Testing

/// The package's shape, read from `swift package dump-package`: what each module may depend
/// on, so the runtime stays linkable into apps on every Apple platform and the plugins' tool
/// stays lean.
struct PackageShapeTests {
  /// Each target's dependencies by name (targets and products alike), and each target's type
  /// (`regular`, `executable`, `test`, `plugin`, `system`).
  static func package() throws -> (graph: [String: [String]], types: [String: String]) {
    guard let swift = Tool.path("swift") else { throw CocoaError(.fileNoSuchFile) }
    // A scratch folder of its own: `swift test` holds the package's .build lock.
    let scratch = try TemporaryFolder()
    let run = try Tool.run(
      swift, ["package", "--scratch-path", scratch.path, "dump-package"],
      in: Corpus.packageRoot.path)
    let package = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    var graph: [String: [String]] = [:]
    var types: [String: String] = [:]
    for target in package?["targets"] as? [[String: Any]] ?? [] {
      guard let name = target["name"] as? String else { continue }
      types[name] = target["type"] as? String
      var names: [String] = []
      for dependency in target["dependencies"] as? [[String: [Any]]] ?? [] {
        for (_, value) in dependency {
          if let first = value.first as? String { names.append(first) }
        }
      }
      graph[name] = names
    }
    return (graph, types)
  }

  /// Every target `name` depends on, directly or not.
  static func closure(of name: String, in graph: [String: [String]]) -> Set<String> {
    var seen: Set<String> = []
    var pending = graph[name] ?? []
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      pending += graph[next] ?? []
    }
    return seen
  }

  @Test(
    "the runtime (Localization, PropertyList, Morse, Diagnostics) links no libxml2, libarchive or files layer"
  )
  func runtimeIsPure() throws {
    guard Tool.path("swift") != nil else {
      print("skipped: swift is not on PATH")
      return
    }
    let (graph, _) = try Self.package()
    for product in ["Localization", "Morse", "PropertyList"] {
      let reached = Self.closure(of: product, in: graph).union([product])
      #expect(
        reached.isSubset(of: [
          "Localization", "PropertyList", "Morse", "Diagnostics", "OrderedCollections",
        ]),
        "\(product) reaches \(reached.sorted())")
    }
    // And the sources of those modules import none of it, nor start processes.
    let forbidden = [
      "import CLibXML2", "import CArchive", "import FileSystem", "import PropertyListXML",
      "import CBundleKitSystem", "Process(", "import FoundationNetworking", "import FoundationXML",
    ]
    for module in ["Localization", "PropertyList", "Morse", "Diagnostics"] {
      let folder = Corpus.packageRoot.appendingPathComponent("Sources/\(module)").path
      for file in try FileManager.default.subpathsOfDirectory(atPath: folder)
      where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        for word in forbidden {
          #expect(!text.contains(word), "Sources/\(module)/\(file) holds \(word)")
        }
      }
    }
  }

  @Test("the plugins' tool links no database, web server or networking")
  func toolIsLean() throws {
    guard Tool.path("swift") != nil else { return }
    let (graph, _) = try Self.package()
    let reached = Self.closure(of: "bundlekit", in: graph)
    for heavy in ["GRDB", "Hummingbird", "NIOCore", "Translation", "TranslationServer"] {
      #expect(!reached.contains(heavy), "bundlekit reaches \(heavy)")
    }
  }

  @Test("libraries depend downward only: none on the command line, no cycle")
  func downwardOnly() throws {
    guard Tool.path("swift") != nil else { return }
    let (graph, types) = try Self.package()
    for (target, type) in types where type == "regular" {
      let reached = Self.closure(of: target, in: graph)
      #expect(!reached.contains("bundlekit"), "\(target) reaches the CLI")
      #expect(!reached.contains(target), "\(target) depends on itself through \(reached.sorted())")
    }
  }
}
