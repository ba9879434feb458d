import BundleKitFileSystem
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
    try manifest().graphAndTypes
  }

  /// The manifest as `swift package dump-package` reads it: each target's dependencies by
  /// name, its type and its folder.
  static func manifest(of folder: String = Corpus.packageRoot.path) throws -> Manifest {
    let swift = try #require(Tool.path("swift"), "swift is not on PATH")
    // A scratch folder of its own: `swift test` holds the package's .build lock.
    let scratch = try TemporaryFolder()
    let run = try Tool.run(
      swift, ["package", "--scratch-path", scratch.path, "dump-package"], in: folder)
    let package = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    var manifest = Manifest()
    for target in package?["targets"] as? [[String: Any]] ?? [] {
      guard let name = target["name"] as? String, let type = target["type"] as? String else {
        continue
      }
      manifest.types[name] = type
      let folder = ["test": "Tests", "plugin": "Plugins"][type] ?? "Sources"
      manifest.paths[name] = target["path"] as? String ?? "\(folder)/\(name)"
      var names: [String] = []
      for dependency in target["dependencies"] as? [[String: [Any]]] ?? [] {
        for (_, value) in dependency {
          if let first = value.first as? String { names.append(first) }
        }
      }
      manifest.graph[name] = names
    }
    return manifest
  }

  /// What the tests read from the manifest.
  struct Manifest {
    /// Each target's direct dependencies (targets and products) by name.
    var graph: [String: [String]] = [:]
    /// Each target's type.
    var types: [String: String] = [:]
    /// Each target's folder, relative to the package.
    var paths: [String: String] = [:]

    var graphAndTypes: (graph: [String: [String]], types: [String: String]) { (graph, types) }
  }

  /// The modules a Swift file imports (`import X`, `@testable import X`,
  /// `import struct X.Y`, `internal import X` ...).
  static func imports(in text: String) -> Set<String> {
    var modules: Set<String> = []
    let kinds: Set<Substring> = [
      "struct", "class", "enum", "protocol", "func", "var", "let", "typealias",
    ]
    let modifiers: Set<Substring> = [
      "public", "internal", "package", "private", "fileprivate", "@testable", "@_exported",
      "@preconcurrency", "@_implementationOnly",
    ]
    var inString = false
    for line in text.split(separator: "\n") {
      // Lines of a multi-line string literal (a template's text) import nothing.
      if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
      if inString { continue }
      var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
      while let first = words.first, modifiers.contains(first) { words = words.dropFirst() }
      guard words.first == "import", words.count >= 2 else { continue }
      words = words.dropFirst()
      if let kind = words.first, kinds.contains(kind), words.count >= 2 {
        words = words.dropFirst()
      }
      if let module = words.first?.split(separator: ".").first { modules.insert(String(module)) }
    }
    return modules
  }

  /// The Swift files below `folder` of the package, by path relative to the package.
  @Test(
    "no hand-built JSON in the translation server: its answers are Encodable values through one encoder"
  )
  func serverAnswersAreEncodable() throws {
    let folder = "Packages/BundleKitTranslate/Sources/BundleKitTranslationServer"
    let files = try Self.swiftFiles(under: folder)
    #expect(files.count > 5, "the server's sources are not where this test looks")
    for file in files {
      // Joined pieces of JSON text, the old helper, a second encoder or JSONSerialization's.
      for word in [
        "JSONText", "JSONSerialization.data", "\"[\" +", "+ \"]\"", "\"{\" +", "+ \"}\"",
        "joined(separator: \",\")",
      ] {
        #expect(!file.text.contains(word), "\(file.path) holds \(word)")
      }
      if !file.path.hasSuffix("/Answers.swift") {
        #expect(!file.text.contains("JSONEncoder("), "\(file.path) has a JSON encoder of its own")
      }
    }
  }

  @Test(
    "one route table in the translation server: the router and the event loop's handler both read Endpoint"
  )
  func oneRouteTable() throws {
    let folder = "Packages/BundleKitTranslate/Sources/BundleKitTranslationServer"
    let files = try Self.swiftFiles(under: folder)
    #expect(files.contains { $0.path.hasSuffix("/Endpoint.swift") })
    for file in files where !file.path.hasSuffix("/Endpoint.swift") {
      for word in ["router.get(", "router.post(", "\"/lookup\"", "\"/translate\"", "\"lookup\""] {
        #expect(!file.text.contains(word), "\(file.path) holds \(word): a route outside Endpoint")
      }
    }
  }

  static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
    let root = Corpus.packageRoot.appendingPathComponent(folder).path
    guard FileManager.default.fileExists(atPath: root) else { return [] }
    return try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
      .filter { $0.hasSuffix(".swift") && !$0.contains("/Fixtures/") && !$0.hasPrefix("Fixtures/") }
      .map { (folder + "/" + $0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
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
    let (graph, _) = try Self.package()
    for product in ["BundleKitLocalization", "BundleKitMorse", "BundleKitPropertyListCore"] {
      let reached = Self.closure(of: product, in: graph).union([product])
      #expect(
        reached.isSubset(of: [
          "BundleKitLocalization", "BundleKitPropertyListCore", "BundleKitMorse",
          "BundleKitDiagnostics", "OrderedCollections",
        ]),
        "\(product) reaches \(reached.sorted())")
    }
    // And the sources of those modules import none of it, nor start processes.
    let forbidden = [
      "import CBundleKitLibXML2", "import CBundleKitArchive", "import CBundleKitThreads",
      "import BundleKitFileSystem",
      "import BundleKitPropertyList\n",
      "Process(", "import FoundationNetworking", "import FoundationXML",
    ]
    for module in [
      "BundleKitLocalization", "BundleKitPropertyListCore", "BundleKitMorse",
      "BundleKitDiagnostics",
    ] {
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

  @Test("the plugins' tool links no database, web server, networking, swift-syntax or Morse")
  func toolIsLean() throws {
    let (graph, _) = try Self.package()
    let reached = Self.closure(of: "bundlekit", in: graph)
    for heavy in [
      "GRDB", "Hummingbird", "NIOCore", "BundleKitTranslation", "BundleKitTranslationServer",
      "BundleKitMorse", "SwiftSyntax",
    ] {
      #expect(!reached.contains(heavy), "bundlekit reaches \(heavy)")
    }
  }

  @Test(
    "bundlekit starts without libarchive and libxml2: neither is linked, both load when used",
    .enabled(if: Tool.path("ldd") != nil, "ldd lists what a Linux executable links"))
  func archiveLibrariesLoadWhenUsed() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built beside the tests")
    let ldd = try #require(Tool.path("ldd"))
    let linked = try Tool.run(ldd, [tool])
    #expect(linked.status == 0)
    let libraries = String(decoding: linked.stdout, as: UTF8.self)
    #expect(libraries.contains("libz.so"), "\(libraries)")
    for lazy in ["libarchive", "libxml2", "libicu"] {
      #expect(!libraries.contains(lazy), "bundlekit links \(lazy)")
    }
    // Loaded when used: an archive written and read back, and XML only libxml2 reads (not
    // UTF-8).
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("tree/a.txt"))
    try FileIO.writeAtomically(Array("a".utf8), to: folder.file("tree/a.txt"))
    let created = try BundleKitTool.run([
      "archive", "create", folder.file("tree"), "-o", folder.file("tree.tar.gz"),
    ])
    #expect(created.status == 0, "\(created.stderr)")
    let listed = try BundleKitTool.run(["archive", "list", folder.file("tree.tar.gz")])
    #expect(listed.stdout.contains("tree/a.txt"), "\(listed.stderr)")
    let latin1 =
      Array(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist version=\"1.0\"><dict><key>N</key><string>caf"
          .utf8) + [0xE9] + Array("</string></dict></plist>\n".utf8)
    try FileIO.writeAtomically(latin1, to: folder.file("latin1.plist"))
    let read = try BundleKitTool.run(["plist", "get", folder.file("latin1.plist"), "N"])
    #expect(read.stdout == "café\n", "\(read.stderr)")
  }

  @Test("every module an app can import carries the BundleKit prefix, in all three packages")
  func prefixedModules() throws {
    var checked = 0
    for folder in ["", "Packages/BundleKitTranslate", "Packages/BundleKitLocalize"] {
      let manifest = try Self.manifest(
        of: Corpus.packageRoot.appendingPathComponent(folder).path)
      for (name, type) in manifest.types where type == "regular" || type == "system" {
        checked += 1
        // SwiftPM needs module names unique across an app's whole graph.
        #expect(
          ["BundleKit", "_BundleKit", "CBundleKit"].contains { name.hasPrefix($0) },
          "\(folder.isEmpty ? "BundleKit" : folder): module \(name) has no BundleKit prefix")
      }
    }
    #expect(checked > 15)
  }

  @Test("libraries depend downward only: none on the command line, no cycle")
  func downwardOnly() throws {
    let (graph, types) = try Self.package()
    for (target, type) in types where type == "regular" {
      let reached = Self.closure(of: target, in: graph)
      #expect(!reached.contains("bundlekit"), "\(target) reaches the CLI")
      #expect(!reached.contains(target), "\(target) depends on itself through \(reached.sorted())")
    }
  }

  @Test("every module a source imports is a dependency its target declares, in all three packages")
  func importsAreDeclared() throws {
    let root = try Self.manifest()
    // Our modules and the products we depend on; system modules (Foundation, Glibc,
    // Testing ...) are the toolchain's.
    let rootModules = Set(root.types.keys).union(root.graph.values.joined())
    var checked = 0
    for folder in ["", "Packages/BundleKitTranslate", "Packages/BundleKitLocalize"] {
      let manifest =
        folder.isEmpty
        ? root : try Self.manifest(of: Corpus.packageRoot.appendingPathComponent(folder).path)
      // A helper package's sources may reach BundleKit's modules only through products it
      // declares: an undeclared one builds today by luck of the graph.
      let known = rootModules.union(manifest.types.keys).union(manifest.graph.values.joined())
      for (target, type) in manifest.types where type != "plugin" && type != "system-target" {
        // Products for BundleKit's own packages carry an underscore: `_BundleKitFileSystem`
        // is the module BundleKitFileSystem.
        let products = manifest.graph[target] ?? []
        let modules = products.compactMap { name -> String? in
          name.hasPrefix("_") && rootModules.contains(String(name.dropFirst()))
            ? String(name.dropFirst()) : nil
        }
        let declared = Set(products).union(modules).union([target])
        let path = manifest.paths[target] ?? ""
        for file in try Self.swiftFiles(under: folder.isEmpty ? path : folder + "/" + path) {
          checked += 1
          for module in Self.imports(in: file.text) where known.contains(module) {
            #expect(
              declared.contains(module),
              "\(file.path) imports \(module), which \(target) does not declare")
          }
        }
      }
    }
    #expect(checked > 200, "only \(checked) files read: the targets' folders moved?")
    // The reader itself.
    #expect(
      Self.imports(
        in:
          "@testable import bundlekit\nimport struct Foundation.Date\n  internal import Mustache\n// import Nope"
      )
        == ["bundlekit", "Foundation", "Mustache"])
    #expect(Self.imports(in: "let t = \"\"\"\nimport Hidden\n\"\"\"\nimport Seen") == ["Seen"])
  }

  /// The command-line layers of all three packages: where commands live.
  static let commandFolders = [
    "Sources/BundleKitCLI", "Sources/BundleKitMorseCLI",
    "Packages/BundleKitTranslate/Sources/BundleKitTranslateCLI",
    "Packages/BundleKitLocalize/Sources/BundleKitLocalizeCLI",
  ]

  @Test("no command computes an exit code: ToolMain's DiagnosticsEngine decides it")
  func noCommandExits() throws {
    var files = 0
    for folder in Self.commandFolders {
      for file in try Self.swiftFiles(under: folder) {
        files += 1
        for word in ["ExitCode", "exit(", "_exit(", "EXIT_FAILURE"] {
          #expect(!file.text.contains(word), "\(file.path) holds \(word)")
        }
      }
    }
    #expect(files > 40)
  }

  @Test("per-run state: the engine and the settings are the run's, handed in, never a static")
  func perRunState() throws {
    for folder in Self.commandFolders + ["Sources/_BundleKitCommandLineTool"] {
      for file in try Self.swiftFiles(under: folder) {
        for word in [
          "ToolMain.diagnostics", "ToolMain.configuration", "ToolMain.settings",
          "static let diagnostics", "static var diagnostics", "static var configuration:",
          "ConfigurationStore",
        ] {
          #expect(!file.text.contains(word), "\(file.path) holds \(word)")
        }
        // The one place a flag and the --config file's value are merged.
        if file.path != "Sources/_BundleKitCommandLineTool/ToolRun.swift" {
          #expect(!file.text.contains("?? run.configuration."), "\(file.path) merges by hand")
        }
      }
    }
  }

  @Test("no hand-built JSON: commands print Encodable values through one encoder")
  func noHandBuiltJSON() throws {
    // `plist print` and `plist get` convert the user's document, which is a property list.
    let converters: Set<String> = [
      "Sources/BundleKitCLI/Commands/Plist/PlistPrint.swift",
      "Sources/BundleKitCLI/Commands/Plist/PlistGet.swift",
    ]
    for folder in Self.commandFolders + ["Sources/_BundleKitCommandLineTool"] {
      for file in try Self.swiftFiles(under: folder) where !converters.contains(file.path) {
        for word in [
          "encoded(as: .json)", "PropertyListDictionary", "JSONSerialization", "{\\\"",
        ] {
          #expect(!file.text.contains(word), "\(file.path) holds \(word)")
        }
        if file.path != "Sources/_BundleKitCommandLineTool/StandardStreams.swift" {
          #expect(!file.text.contains("JSONEncoder("), "\(file.path) has a JSON encoder of its own")
        }
      }
    }
  }

  @Test("the translation server and its LibreTranslate client read and write JSON as Codable types")
  func translationJSONIsCodable() throws {
    let folders = [
      "Packages/BundleKitTranslate/Sources/BundleKitTranslationServer",
      "Packages/BundleKitTranslate/Sources/BundleKitTranslation/Remote",
    ]
    var files = 0
    for folder in folders {
      for file in try Self.swiftFiles(under: folder) {
        files += 1
        for word in ["JSONSerialization", "{\\\"", "[String: Any]", "as? [Any]"] {
          #expect(!file.text.contains(word), "\(file.path) holds \(word)")
        }
      }
    }
    #expect(files >= 8)
  }

  @Test("the translation memory is async from the socket to the database: nothing blocks a thread")
  func translationMemoryIsAsync() throws {
    var files = 0
    for folder in [
      "Packages/BundleKitTranslate/Sources/BundleKitTranslation",
      "Packages/BundleKitTranslate/Sources/BundleKitTranslationPostgres",
      "Packages/BundleKitTranslate/Sources/BundleKitTranslationServer",
    ] {
      for file in try Self.swiftFiles(under: folder) {
        files += 1
        for word in [
          "DispatchSemaphore", "NSCondition", "Task.detached", ".wait()", "BlockingPool",
          "waitFor(",
        ] {
          #expect(!file.text.contains(word), "\(file.path) holds \(word)")
        }
      }
    }
    #expect(files >= 30)
  }

  @Test("the plugins declare outputs by the tool's own table layout: one file, linked")
  func sharedTableLayout() throws {
    let root = Corpus.packageRoot
    let linked = root.appendingPathComponent("Plugins/PluginsShared/Plain/TableLayout.swift")
    let library = root.appendingPathComponent(
      "Sources/BundleKitStringsTable/Layout/TableLayout.swift")
    #expect(
      linked.resolvingSymlinksInPath().path == library.resolvingSymlinksInPath().path,
      "the plugins' TableLayout.swift is not a link to the library's")
  }

  @Test("every test that reads ../shared/corpus is gated on it, so a fresh clone skips it")
  func corpusReadsAreGated() throws {
    var checked = 0
    for folder in [
      "Tests", "Packages/BundleKitTranslate/Tests", "Packages/BundleKitLocalize/Tests",
    ] {
      for file in try Self.swiftFiles(under: folder)
      where file.path != "Tests/Support/TestSupport.swift" {
        checked += 1
        for finding in CorpusGate.ungatedReads(in: file.text) {
          Issue.record(
            "\(file.path):\(finding.line): reads the corpus without .enabled(if: Corpus.has(...)): \(finding.text)"
          )
        }
      }
    }
    #expect(checked > 60)
  }

  @Test("the corpus gate check finds an ungated read and accepts each gated form")
  func corpusGateCheck() {
    let ungated = """
      struct A {
        @Test("reads \\(x) { in a string")
        func a() throws {
          let x = try FileIO.read(Corpus.path("cpython-plistlib/a.plist"))
        }
      }
      """
    #expect(CorpusGate.ungatedReads(in: ungated).map(\.line) == [4])
    let member = """
      struct B {
        static let file = Corpus.path("x/y")
        @Test("gated", .enabled(if: Corpus.has("x"), Corpus.reason("x")))
        func b() { _ = Self.file }
        @Test("not gated")
        func c() { _ = Self.file }
      }
      """
    #expect(CorpusGate.ungatedReads(in: member).map(\.line) == [2])
    let gated = """
      @Suite(.enabled(if: Corpus.has("x"), Corpus.reason("x")))
      struct C {
        static let file = Corpus.path("x/y")
        @Test func c() { _ = Self.file; _ = Corpus.path("x/z") }
        @Test func d() { let tables = ["x"].filter(Corpus.has).map { Corpus.path($0) } }
      }
      struct D {
        @Test(.enabled(if: Corpus.isPresent, Corpus.reason(".")))
        func e() {
          /* { */ let a = "}"; _ = Corpus.path("x")
        }
      }
      """
    #expect(CorpusGate.ungatedReads(in: gated).isEmpty)
  }

  @Test("bundlekit translate --help without the helper lists every subcommand the helper has")
  func translateOverview() throws {
    let folder = "Packages/BundleKitTranslate/Sources/BundleKitTranslateCLI/Commands"
    var names: [String] = []
    for file in try Self.swiftFiles(under: folder) {
      for line in file.text.split(separator: "\n") where line.contains("commandName: \"") {
        let name = line.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
        names.append(name)
      }
    }
    #expect(names.count >= 8, "\(names)")
    // The overview as written in the command's source: the lines under SUBCOMMANDS.
    let source = try #require(
      Self.swiftFiles(under: "Sources/BundleKitCLI/Commands/Translate").first {
        $0.path.hasSuffix("TranslateCommand.swift")
      }
    ).text
    let section = source.components(separatedBy: "SUBCOMMANDS:").dropFirst().first ?? ""
    let overview = section.components(separatedBy: "\"\"\"").first ?? ""
    let listed = overview.split(separator: "\n").compactMap {
      $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
    }
    #expect(Set(listed) == Set(names), "overview \(listed), helper \(names)")
  }
}
