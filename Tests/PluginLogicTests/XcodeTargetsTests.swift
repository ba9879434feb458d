import BundleKitTestSupport
import Foundation
import Testing

/// What the build-tool plugins plan in Xcode targets, from inputs shaped as XcodeProjectPlugin
/// gives them (an app, a framework, an aggregate; a project whose targets use INFOPLIST_FILE
/// or a generated Info.plist), and the planned commands run against the built tool.
@Suite struct XcodeTargetsTests {
  static let projects = Corpus.packageRoot.appendingPathComponent(
    "Tests/VersioningTests/Fixtures/Projects")

  func target(
    _ name: String, _ product: XcodeTargetFacts.Product, files: [String],
    project: String = "Travel", folder: URL = projects.appendingPathComponent("Family"),
    work: URL = URL(fileURLWithPath: "/tmp/work")
  ) -> XcodeTargetFacts {
    XcodeTargetFacts(
      name: name, product: product, files: files.map { folder.appendingPathComponent($0) },
      projectFolder: folder, projectName: project, workFolder: work)
  }

  @Test("CompileStrings lints only: no output Xcode's resource phase also produces")
  func compileStringsLintsOnly() throws {
    let app = target(
      "Travel", .application,
      files: [
        "Travel/ContentView.swift", "Travel/en.lproj/Localizable.strings",
        "Travel/fr.lproj/Localizable.strings", "Travel/Localizable.xcstrings",
        "Travel/en.lproj/Localizable.stringsdict", "Travel/Assets.xcassets",
      ])
    let plan = try #require(XcodeTargets.compileStrings(app, configuration: .init()))
    #expect(plan.arguments.prefix(2) == ["strings", "lint"])
    #expect(plan.inputs.count == 4)
    #expect(plan.outputs.map(\.lastPathComponent) == ["strings-lint.stamp"])
    // Nothing a copy of the tables could clash with.
    #expect(
      !plan.outputs.contains {
        ["strings", "stringsdict", "xcstrings"].contains($0.pathExtension)
      })
    #expect(plan.arguments.contains("--stamp"))
    #expect(plan.arguments.contains("--as-build"))
    // A target without tables gets no command.
    #expect(
      XcodeTargets.compileStrings(
        target("Widget", .other("app-extension"), files: ["Widget/Widget.swift"]),
        configuration: .init()) == nil)
  }

  @Test("GenerateStrings reads the target's own bundle: main for an app, token otherwise")
  func generateStringsBundle() throws {
    let files = ["Kit/en.lproj/Localizable.strings"]
    let app = try #require(
      XcodeTargets.generateStrings(
        target("Travel", .application, files: files), configuration: .init()))
    let framework = try #require(
      XcodeTargets.generateStrings(target("Kit", .framework, files: files), configuration: .init()))
    func bundle(_ plan: PlannedCommand) -> String? {
      plan.arguments.firstIndex(of: "--bundle").map { plan.arguments[$0 + 1] }
    }
    #expect(bundle(app) == "main")
    #expect(bundle(framework) == "token")
    // A package target keeps Bundle.module (no --bundle at all).
    let package = StringsTables.generate(
      [URL(fileURLWithPath: "/p/Sources/A/en.lproj/L.strings")],
      into: URL(fileURLWithPath: "/w"), targetName: "A", configuration: .init())
    #expect(bundle(package) == nil)
  }

  @Test("BuildInfo resolves the project: INFOPLIST_FILE and the project file are inputs")
  func buildInfoInputs() throws {
    let folder = Self.projects.appendingPathComponent("Family")
    let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let plan = XcodeTargets.buildInfo(
      target("Watch", .application, files: []), projectEntries: entries)
    let arguments = plan.arguments
    #expect(
      arguments.firstIndex(of: "--xcode-project").map { arguments[$0 + 1] }
        == folder.appendingPathComponent("Travel.xcodeproj").path)
    #expect(arguments.firstIndex(of: "--target").map { arguments[$0 + 1] } == "Watch")
    let inputs = plan.inputs.map(\.path)
    #expect(inputs.contains(folder.appendingPathComponent("Travel.xcodeproj/project.pbxproj").path))
    #expect(inputs.contains(folder.appendingPathComponent("Watch/Info.plist").path))
    #expect(plan.outputs.map(\.lastPathComponent) == ["BuildInfo.swift"])
  }

  @Test("the project file: the one named after the project, else the only one, else none")
  func projectFile() {
    let folder = URL(fileURLWithPath: "/src")
    #expect(
      XcodeTargets.projectFile(
        in: folder, named: "App", entries: ["App.xcodeproj", "B.xcodeproj"])?
        .lastPathComponent == "App.xcodeproj")
    #expect(
      XcodeTargets.projectFile(in: folder, named: "App", entries: ["Other.xcodeproj", "x"])?
        .lastPathComponent == "Other.xcodeproj")
    #expect(
      XcodeTargets.projectFile(in: folder, named: "App", entries: ["A.xcodeproj", "B.xcodeproj"])
        == nil)
  }

  @Test("INFOPLIST_FILE values: quoted, $(SRCROOT), $(PROJECT_DIR); other settings left out")
  func infoPlistValues() {
    let pbxproj = """
      \t\t\t\tINFOPLIST_FILE = App/Info.plist;
      \t\t\t\tINFOPLIST_FILE = "My App/Info.plist";
      \t\t\t\tINFOPLIST_FILE = "$(SRCROOT)/Ext/Info.plist";
      \t\t\t\tINFOPLIST_FILE = ${PROJECT_DIR}/Kit/Kit-Info.plist;
      \t\t\t\tINFOPLIST_FILE = "$(TARGET_NAME)/Info.plist";
      \t\t\t\tINFOPLIST_FILE = App/Info.plist;
      """
    let found = XcodeTargets.infoPlists(named: pbxproj, projectFolder: URL(fileURLWithPath: "/p"))
    #expect(
      found.map(\.path) == [
        "/p/App/Info.plist", "/p/My App/Info.plist", "/p/Ext/Info.plist", "/p/Kit/Kit-Info.plist",
      ])
  }

  @Test("the planned commands run: build-info on an Xcode project, lint with its stamp")
  func plannedCommandsRun() throws {
    _ = try #require(BundleKitTool.path, "bundlekit was not built")
    let scratch = try TemporaryFolder()
    let work = URL(fileURLWithPath: scratch.path)
    let family = Self.projects.appendingPathComponent("Family")
    let entries = try FileManager.default.contentsOfDirectory(atPath: family.path)
    // INFOPLIST_FILE (the watch container) and a generated Info.plist (the app's settings).
    for (name, version, build) in [("Watch", "4.2", "12"), ("Travel", "4.2", "12")] {
      let plan = XcodeTargets.buildInfo(
        target(name, .application, files: [], work: work.appendingPathComponent(name)),
        projectEntries: entries)
      let result = try BundleKitTool.run(plan.arguments)
      #expect(result.status == 0, "\(result.stderr)")
      let code = try String(contentsOf: try #require(plan.outputs.first), encoding: .utf8)
      #expect(code.contains("static let version: String? = \"\(version)\""), "\(code)")
      #expect(code.contains("static let build: String? = \"\(build)\""), "\(code)")
    }
    // The lint plan on a real table writes its stamp; a broken table fails at its line.
    let tables = scratch.file("App/en.lproj")
    try FileManager.default.createDirectory(atPath: tables, withIntermediateDirectories: true)
    try Data("\"a\" = \"A\";\n".utf8).write(to: URL(fileURLWithPath: tables + "/L.strings"))
    let app = XcodeTargetFacts(
      name: "App", product: .application,
      files: [URL(fileURLWithPath: tables + "/L.strings")], projectFolder: work,
      projectName: "App", workFolder: work.appendingPathComponent("lint"))
    let lint = try #require(XcodeTargets.compileStrings(app, configuration: .init()))
    try FileManager.default.createDirectory(
      at: app.workFolder, withIntermediateDirectories: true)
    var result = try BundleKitTool.run(lint.arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: try #require(lint.outputs.first).path))
    try FileManager.default.removeItem(at: try #require(lint.outputs.first))
    try Data("\"a\" = \"A\"\n\"b\" = ;\n".utf8).write(
      to: URL(fileURLWithPath: tables + "/L.strings"))
    result = try BundleKitTool.run(lint.arguments)
    #expect(result.status == 1)
    #expect(result.stderr.contains("L.strings:2:"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: try #require(lint.outputs.first).path))
  }

  @Test("accessors for an Xcode framework type-check against the Localization runtime")
  func tokenAccessorsCompile() throws {
    let swiftc = try #require(
      Tool.path("swiftc"), "swiftc is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let modules = try #require(BundleKitTool.buildFolder, "bundlekit was not built")
      .appendingPathComponent("Modules").path
    let scratch = try TemporaryFolder()
    let tables = scratch.file("Kit/en.lproj")
    try FileManager.default.createDirectory(atPath: tables, withIntermediateDirectories: true)
    try Data("\"greeting\" = \"Hello %@\";\n".utf8).write(
      to: URL(fileURLWithPath: tables + "/Localizable.strings"))
    let framework = XcodeTargetFacts(
      name: "Kit", product: .framework,
      files: [URL(fileURLWithPath: tables + "/Localizable.strings")],
      projectFolder: URL(fileURLWithPath: scratch.path), projectName: "Kit",
      workFolder: URL(fileURLWithPath: scratch.file("work")))
    let plan = try #require(XcodeTargets.generateStrings(framework, configuration: .init()))
    let result = try BundleKitTool.run(plan.arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let source = try #require(plan.outputs.first).path
    let code = try String(contentsOfFile: source, encoding: .utf8)
    #expect(code.contains("Bundle(for: BundleKitBundleToken.self)"))
    #expect(!code.contains("Bundle.module"))
    let check = try Tool.run(
      swiftc, ["-typecheck", "-swift-version", "6", "-I", modules, "-module-name", "Kit", source])
    #expect(check.status == 0, "\(check.stderr)")
  }
}
