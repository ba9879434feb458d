import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// The prebuilt tool: Scripts/make-artifactbundle.sh packs a release `bundlekit` as an
/// artifact bundle, and a user package runs it through a `binaryTarget` from a build-tool
/// plugin, compiling nothing of BundleKit.
@Suite(.serialized)
struct ArtifactBundleTests {
  @Test("the script's artifact bundle runs in a user package's plugin through a binaryTarget")
  func userPackage() throws {
    try #require(Tool.path("swift") != nil, "building the artifact bundle needs swift")
    try #require(Tool.path("python3") != nil, "building the artifact bundle needs python3")
    let folder = try TemporaryFolder()
    let user = folder.file("User")
    let script = Corpus.packageRoot.appendingPathComponent("Scripts/make-artifactbundle.sh").path
    let made = try Tool.run("/bin/bash", [script, "--output", user + "/Artifacts"])
    try #require(
      made.status == 0, "the artifact bundle could not be built:\n\(made.stderr.suffix(2000))")
    let info = try String(
      contentsOfFile: user + "/Artifacts/bundlekit.artifactbundle/info.json", encoding: .utf8)
    #expect(info.contains("\"type\": \"executable\""))
    #expect(
      FileManager.default.fileExists(atPath: user + "/Artifacts/bundlekit.artifactbundle.zip"))
    let files: [String: String] = [
      "Package.swift": """
      // swift-tools-version: 6.1
      import PackageDescription

      let package = Package(
        name: "User",
        defaultLocalization: "en",
        targets: [
          .binaryTarget(name: "BundleKitTool", path: "Artifacts/bundlekit.artifactbundle"),
          .plugin(name: "Compile", capability: .buildTool(), dependencies: ["BundleKitTool"]),
          .executableTarget(
            name: "App", resources: [.process("Resources")], plugins: ["Compile"]),
        ]
      )
      """,
      "Plugins/Compile/plugin.swift": """
      import PackagePlugin

      @main
      struct Compile: BuildToolPlugin {
        func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
          guard let target = target as? SourceModuleTarget else { return [] }
          let tables = target.sourceFiles.map(\\.url).filter { $0.pathExtension == "strings" }
          let output = context.pluginWorkDirectoryURL
          return [
            .buildCommand(
              displayName: "Compiling tables with the prebuilt bundlekit",
              executable: try context.tool(named: "bundlekit").url,
              arguments: ["strings", "compile"] + tables.map(\\.path) + ["--output-dir", output.path],
              inputFiles: tables,
              outputFiles: [output.appending(path: "en.lproj/Localizable.strings")])
          ]
        }
      }
      """,
      "Sources/App/main.swift": """
      import Foundation

      let url = Bundle.module.url(
        forResource: "Localizable", withExtension: "strings", subdirectory: nil,
        localization: "en")
      let head = url.flatMap { try? Data(contentsOf: $0) }?.prefix(8) ?? Data()
      print(String(decoding: head, as: UTF8.self))
      """,
      "Sources/App/Resources/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
    ]
    for (path, text) in files {
      try FileManager.default.createDirectory(
        atPath: (user + "/" + path as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      try text.write(toFile: user + "/" + path, atomically: true, encoding: .utf8)
    }
    let build = try Tool.swift(["build", "--package-path", user] + Tool.buildFlags)
    let log = String(decoding: build.stdout, as: UTF8.self) + build.stderr
    try #require(build.status == 0, "\(log)")
    #expect(log.contains("Compiling tables with the prebuilt bundlekit"), "\(log)")
    let run = try Tool.run(user + "/.build/debug/App", [])
    // The table reached the bundle compiled, by the binary from the artifact bundle.
    #expect(String(decoding: run.stdout, as: UTF8.self) == "bplist00\n", "\(run.stderr)")
  }
}

/// BundleKitPlugins, the package a release publishes beside the zip: a consumer depending on
/// it builds the runtime and its own code, and not one file of the tool.
@Suite(.serialized)
struct PluginPackageTests {
  @Test("a consumer of BundleKitPlugins builds cold without compiling the tool")
  func consumerColdBuild() throws {
    try #require(Tool.path("swift") != nil, "building the artifact bundle needs swift")
    try #require(Tool.path("python3") != nil, "building the artifact bundle needs python3")
    let folder = try TemporaryFolder()
    let script = Corpus.packageRoot.appendingPathComponent("Scripts/make-artifactbundle.sh").path
    let plugins = folder.file("BundleKitPlugins")
    let made = try Tool.run(
      "/bin/bash", [script, "--output", folder.file("Artifacts"), "--plugin-package", plugins])
    try #require(
      made.status == 0, "the artifact bundle could not be built:\n\(made.stderr.suffix(2000))")
    // The demo, depending on BundleKitPlugins by path instead of BundleKit.
    let demo = folder.file("DemoApp")
    try FileManager.default.copyItem(
      atPath: Corpus.packageRoot.appendingPathComponent("Examples/DemoApp").path, toPath: demo)
    var manifest = try String(contentsOfFile: demo + "/Package.swift", encoding: .utf8)
    manifest = manifest.replacingOccurrences(
      of: #".package(name: "BundleKit", path: "../..")"#,
      with: ".package(name: \"BundleKitPlugins\", path: \"\(plugins)\")"
    )
    .replacingOccurrences(of: #"package: "BundleKit")"#, with: #"package: "BundleKitPlugins")"#)
    #expect(!manifest.contains(#""BundleKit""#))
    try manifest.write(toFile: demo + "/Package.swift", atomically: true, encoding: .utf8)
    let started = Date()
    let build = try Tool.swift(["build", "--package-path", demo] + Tool.buildFlags)
    let seconds = Date().timeIntervalSince(started)
    let log = String(decoding: build.stdout, as: UTF8.self) + build.stderr
    try #require(build.status == 0, "\(log.suffix(4000))")
    print("BundleKitPlugins consumer: cold build of Examples/DemoApp in \(Int(seconds)) s")
    // Nothing of the tool was compiled: none of its modules, no executable.
    let modules = try FileManager.default.contentsOfDirectory(
      atPath: demo + "/.build/debug/Modules")
    for toolModule in [
      "BundleKitStringsTable", "BundleKitVersioning", "BundleKitArchiving", "ArgumentParser",
      "bundlekit",
    ] {
      #expect(!modules.contains { $0.hasPrefix(toolModule + ".") }, "\(toolModule) was built")
    }
    #expect(!FileManager.default.fileExists(atPath: demo + "/.build/debug/bundlekit"))
    #expect(modules.contains("BundleKitLocalization.swiftmodule"))
    // The plugins ran the prebuilt tool: compiled tables and generated accessors work.
    let run = try Tool.run(demo + "/.build/debug/DemoApp", [])
    let printed = String(decoding: run.stdout, as: UTF8.self)
    #expect(printed.contains("fr: Bonjour | Réglages | 0 fichier, 1 fichier"), "\(printed)")
    #expect(printed.contains("ru typed: 1 файл, 2 файла, 5 файлов, 21 файл"), "\(printed)")
    // pruneBelow: Italian begun but not translated is built with the development text, so
    // an Italian user sees the app in English, not a mix.
    let kit = demo + "/Sources/DemoKit"
    try FileIO.createFolders(for: kit + "/Resources/it.lproj/Messages.strings")
    try FileIO.writeAtomically(
      Array("/* Italian: to do */\n".utf8), to: kit + "/Resources/it.lproj/Messages.strings")
    try FileIO.writeAtomically(Array(#"{ "pruneBelow": 0.7 }"#.utf8), to: kit + "/bundlekit.json")
    let pruned = try Tool.swift(["build", "--package-path", demo] + Tool.buildFlags)
    let prunedLog = String(decoding: pruned.stdout, as: UTF8.self) + pruned.stderr
    try #require(pruned.status == 0, "\(prunedLog.suffix(4000))")
    let bundle = demo + "/.build/debug/DemoApp_DemoKit.resources"
    #expect(
      try FileIO.read(bundle + "/it.lproj/Messages.strings")
        == FileIO.read(bundle + "/en.lproj/Messages.strings"))
    #expect(
      try FileIO.read(bundle + "/fr.lproj/Messages.strings")
        != FileIO.read(bundle + "/en.lproj/Messages.strings"))
    // A release names the zip by URL and checksum instead of copying the bundle in.
    let release = try Tool.run(
      "/usr/bin/env",
      [
        "python3",
        Corpus.packageRoot.appendingPathComponent("Scripts/make-plugin-package.py").path,
        folder.file("Released"), "--url", "https://example.com/bundlekit.artifactbundle.zip",
        "--checksum", "abc123",
      ])
    #expect(release.status == 0, "\(release.stderr)")
    let released = try String(
      contentsOfFile: folder.file("Released/Package.swift"), encoding: .utf8)
    #expect(released.contains("url: \"https://example.com/bundlekit.artifactbundle.zip\""))
    #expect(released.contains("checksum: \"abc123\""))
    #expect(
      !FileManager.default.fileExists(atPath: folder.file("Released/bundlekit.artifactbundle")))
  }
}
