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
    guard let swift = Tool.path("swift"), Tool.path("python3") != nil else {
      print("skipped: building the artifact bundle needs swift and python3")
      return
    }
    let folder = try TemporaryFolder()
    let user = folder.file("User")
    let script = Corpus.packageRoot.appendingPathComponent("Scripts/make-artifactbundle.sh").path
    let made = try Tool.run("/bin/bash", [script, "--output", user + "/Artifacts"])
    guard made.status == 0 else {
      print("skipped: the artifact bundle could not be built here:\n\(made.stderr.suffix(2000))")
      return
    }
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
    let build = try Tool.run(swift, ["build", "--package-path", user])
    let log = String(decoding: build.stdout, as: UTF8.self) + build.stderr
    try #require(build.status == 0, "\(log)")
    #expect(log.contains("Compiling tables with the prebuilt bundlekit"), "\(log)")
    let run = try Tool.run(user + "/.build/debug/App", [])
    // The table reached the bundle compiled, by the binary from the artifact bundle.
    #expect(String(decoding: run.stdout, as: UTF8.self) == "bplist00\n", "\(run.stderr)")
  }
}
