import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit-localize extract` as a user runs it.
@Suite struct ExtractCommandTests {
  /// The helper built beside the tests.
  static var tool: String? {
    guard let folder = BundleKitTool.buildFolder else { return nil }
    let path = folder.appendingPathComponent("bundlekit-localize").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// What `extract PATHS --format json` prints, each string's fields; the run must pass.
  static func rows(_ tool: String, _ paths: [String]) throws -> [[String: Any]] {
    let result = try Tool.run(tool, ["extract"] + paths + ["--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
  }

  @Test("JSON for scripts, --strict for CI, a clear error for a file that is not text")
  func command() throws {
    let tool = try #require(Self.tool, "bundlekit-localize was not built")
    let folder = try TemporaryFolder()
    try Data(#"Text("Hello \(name)")"#.utf8).write(to: URL(fileURLWithPath: folder.file("A.swift")))
    var result = try Tool.run(tool, ["extract", folder.path, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    #expect(rows.count == 1)
    #expect(rows.first?["key"] as? String == "Hello %@")
    #expect(rows.first?["table"] as? String == "Localizable")
    #expect(rows.first?["line"] as? Int == 1)
    #expect(rows.first?["value"] as? String == "Hello %@")
    #expect(rows.first?["comment"] is NSNull)
    #expect(rows.first?["file"] as? String == folder.file("A.swift"))
    #expect(result.stderr.contains("cannot tell the type of 'name'"))
    result = try Tool.run(tool, ["extract", folder.path, "--strict"])
    #expect(result.status == 1)
    try Data([0x54, 0x65, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: folder.file("B.swift")))
    result = try Tool.run(tool, ["extract", folder.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("B.swift: error: not UTF-8 text"), "\(result.stderr)")
  }
}

/// Calls of a local package's public API, as Xcode's compiler knows them.
@Suite struct LocalPackageTests {
  @Test(
    "a Swift file in a project's folder that no target compiles is not extracted nor synced, as Xcode never builds it; a package's, a synchronized folder's and a file named alone are"
  )
  func unbuiltFiles() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try TemporaryFolder()
    // The shape of a real app: a view left in the folder after its file reference was
    // removed from the project.
    let project = """
      // !$*UTF8*$!
      {
      	archiveVersion = 1;
      	objectVersion = 77;
      	objects = {
      		G0000001 = {isa = PBXGroup; children = (F0000001, F0000002, F0000003, Y0000001, Y0000002); sourceTree = "<group>"; };
      		F0000001 = {isa = PBXFileReference; path = App/Home.swift; sourceTree = "<group>"; };
      		F0000002 = {isa = PBXFileReference; path = App/Tests.swift; sourceTree = "<group>"; };
      		F0000003 = {isa = PBXFileReference; path = APP/Cased.swift; sourceTree = "<group>"; };
      		Y0000001 = {isa = PBXFileSystemSynchronizedRootGroup; path = Synced; sourceTree = "<group>"; };
      		Y0000002 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (E0000001); path = Intents; sourceTree = "<group>"; };
      		E0000001 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (SetToggle.swift); target = T0000001; };
      		B0000001 = {isa = PBXBuildFile; fileRef = F0000001; };
      		B0000002 = {isa = PBXBuildFile; fileRef = F0000002; };
      		B0000003 = {isa = PBXBuildFile; fileRef = F0000003; };
      		S0000001 = {isa = PBXSourcesBuildPhase; files = (B0000001, B0000003); };
      		S0000002 = {isa = PBXSourcesBuildPhase; files = (B0000002); };
      		T0000001 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; buildPhases = (S0000001); fileSystemSynchronizedGroups = (Y0000001); name = App; productType = "com.apple.product-type.application"; };
      		T0000002 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; buildPhases = (S0000002); name = AppTests; productType = "com.apple.product-type.bundle.unit-test"; };
      		L0000001 = {isa = XCConfigurationList; buildConfigurations = (C0000001); };
      		C0000001 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
      		P0000001 = {isa = PBXProject; buildConfigurationList = L0000001; mainGroup = G0000001; targets = (T0000001, T0000002); };
      	};
      	rootObject = P0000001;
      }

      """
    try ExportCodeTests.write(
      [
        "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/Shop.xcodeproj/project.pbxproj": project,
        "repo/App/Home.swift": "import SwiftUI\nlet a = Text(\"Home\")\n",
        // Named by the project as a Mac's file system finds it, whatever the case.
        "repo/App/Cased.swift": "import SwiftUI\nlet f = Text(\"Cased\")\n",
        "repo/App/EditTaskView.swift": "import SwiftUI\nlet b = Text(\"Delete Task\")\n",
        "repo/App/Tests.swift": "import SwiftUI\nlet c = Text(\"Only a test\")\n",
        "repo/Synced/Card.swift": "import SwiftUI\nlet d = Text(\"Synced\")\n",
        // A folder no target holds, one file of which a target adds (Xcode 16's exception set).
        "repo/Intents/SetToggle.swift": "import SwiftUI\nlet g = Text(\"Set Toggle\")\n",
        "repo/Intents/Unlisted.swift": "import SwiftUI\nlet h = Text(\"Unlisted\")\n",
        "repo/App/Kit/Package.swift": "let package = Package(name: \"Kit\")\n",
        "repo/App/Kit/Sources/Kit/Row.swift": "import SwiftUI\nlet e = Text(\"In a package\")\n",
      ], in: folder)
    func keys(_ paths: [String]) throws -> [String] {
      try ExtractCommandTests.rows(tool, paths).compactMap { $0["key"] as? String }.sorted()
    }
    // Overlapping folders read each file once.
    #expect(
      try keys([folder.file("repo"), folder.file("repo/App")])
        == ["Cased", "Home", "In a package", "Set Toggle", "Synced"])
    #expect(try keys([folder.file("repo/App/EditTaskView.swift")]) == ["Delete Task"])
  }

  @Test(
    "a function the project names in LOCALIZED_STRING_MACRO_NAMES extracts as NSLocalizedString does; a project linked from outside the repository is not read"
  )
  func macroNames() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try TemporaryFolder()
    // The shape of a macOS app seen on a real repository: its own wrapper of
    // NSLocalizedString, listed in the project's build settings beside the defaults.
    let project = """
      // !$*UTF8*$!
      { objects = {
        C1 = { isa = XCBuildConfiguration; buildSettings = {
          LOCALIZED_STRING_MACRO_NAMES = (
            MFLocalizedString,
            NSLocalizedString,
            CFCopyLocalizedString,
          );
        }; name = Debug; };
        C2 = { isa = XCBuildConfiguration; buildSettings = {
          LOCALIZED_STRING_MACRO_NAMES = "AppString $(inherited)";
        }; name = Release; };
      }; }
      """
    let source = """
      func MFLocalizedString(_ key: String, tableName: String? = nil, value: String = "", comment: String) -> String { key }
      func AppString(_ key: String, comment: String) -> String { key }
      func OtherString(_ key: String, comment: String) -> String { key }
      let a = MFLocalizedString("trial.body", tableName: "Trial", value: "Your trial", comment: "Shown once")
      let b = AppString("menu.quit", comment: "")
      let c = OtherString("not.listed", comment: "")
      let d = MFLocalizedString("built \\(a)", comment: "")
      let e = helper.MFLocalizedString("a.member", comment: "")
      """
    try ExportCodeTests.write(
      [
        "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/Mac.xcodeproj/project.pbxproj": project,
        "repo/App/Strings.swift": source,
        // Linked in from outside: its macro names are no setting of this repository's code.
        "other/.git/HEAD": "ref: refs/heads/main\n", "other/App/Strings.swift": source,
        "outside/project.pbxproj": project,
      ], in: folder)
    try FileManager.default.createDirectory(
      atPath: folder.file("other/Mac.xcodeproj"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("other/Mac.xcodeproj/project.pbxproj"),
      withDestinationPath: folder.file("outside/project.pbxproj"))
    func rows(_ path: String) throws -> [[String: Any]] {
      try ExtractCommandTests.rows(tool, [path])
    }
    let found = try rows(folder.file("repo/App"))
    #expect(found.compactMap { $0["key"] as? String }.sorted() == ["menu.quit", "trial.body"])
    let trial = try #require(found.first { $0["key"] as? String == "trial.body" })
    #expect(trial["table"] as? String == "Trial")
    #expect(trial["comment"] as? String == "Shown once")
    #expect(trial["defaultValue"] as? String == "Your trial", "\(trial)")
    #expect(try rows(folder.file("other/App")).isEmpty)
  }

  @Test(
    "a local package's public initialisers with localized parameters extract at their calls, from the app (through the project) and from another package; nothing internal, nothing from outside the repository"
  )
  func localPackages() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try TemporaryFolder()
    let repository = folder.file("repo")
    let files: [String: String] = [
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      // The app: a folder of an Xcode project that references the packages.
      "repo/App.xcodeproj/project.pbxproj": """
      // !$*UTF8*$!
      { objects = {
        A1 /* XCLocalSwiftPackageReference "Packages/UI" */ = {
          isa = XCLocalSwiftPackageReference;
          relativePath = Packages/UI;
        };
      }; }
      """,
      "repo/App/Root.swift": """
      import UI
      struct Root: View {
        var body: some View {
          AppButton("Save", systemImage: "tray")
          AppButton(secret: "Not public")
          Banner(title: "Welcome")
          Badge("Outside")
          // A `String` overload beside the localized one takes the literal, as Swift picks it.
          AppRow("Plain", systemImage: "x") {}
          AppRow("Only localized", detail: "x")
        }
      }
      """,
      "repo/Packages/UI/Package.swift": """
      // swift-tools-version: 6.0
      import PackageDescription
      let package = Package(name: "UI", dependencies: [.package(path: "../Design"), .package(path: "../../../outside")], targets: [.target(name: "UI")])
      """,
      "repo/Packages/UI/Sources/UI/AppButton.swift": """
      import SwiftUI
      public struct AppButton: View {
        public init(_ title: LocalizedStringKey, systemImage: String) {}
        init(secret: LocalizedStringKey) {}
        public var body: some View { Text("Inside the package") }
      }
      public struct AppRow {
        public init(_ title: LocalizedStringKey, systemImage: String? = nil, action: () -> Void) {}
        public init(_ title: String, systemImage: String? = nil, action: () -> Void) {}
        public init(_ title: LocalizedStringKey, detail: String) {}
      }
      """,
      "repo/Packages/Design/Package.swift": """
      // swift-tools-version: 6.0
      import PackageDescription
      let package = Package(name: "Design", targets: [.target(name: "Design")])
      """,
      "repo/Packages/Design/Sources/Design/Banner.swift": """
      import SwiftUI
      public struct Banner: View { public var body: some View { EmptyView() } }
      public extension Banner {
        init(title: LocalizedStringKey) { self.init() }
      }
      """,
      // A package outside the repository is not read, even when a manifest names it.
      "outside/Package.swift": "let package = Package(name: \"outside\")\n",
      "outside/Sources/Outside/Badge.swift": """
      public struct Badge { public init(_ text: LocalizedStringKey) {} }
      """,
    ]
    for (path, text) in files {
      let full = folder.file(path)
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }
    func keys(_ path: String) throws -> [String] {
      let result = try Tool.run(tool, ["extract", path, "--format", "json"])
      #expect(result.status == 0, "\(result.stderr)")
      let rows = try #require(
        try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
      return rows.compactMap { $0["key"] as? String }.sorted()
    }
    #expect(try keys(repository + "/App") == ["Only localized", "Save", "Welcome"])
    // From a module of a package: its dependency's declarations, its own strings only.
    try Data(#"struct S { let b = Banner(title: "Hello") }"#.utf8).write(
      to: URL(fileURLWithPath: folder.file("repo/Packages/UI/Sources/UI/Screen.swift")))
    #expect(
      try keys(folder.file("repo/Packages/UI/Sources/UI")) == ["Hello", "Inside the package"])
    // A package whose `Sources` is a link out of the repository is not read through it.
    try FileManager.default.createDirectory(
      atPath: folder.file("repo/Packages/Linked"), withIntermediateDirectories: true)
    try Data("let package = Package(name: \"Linked\")\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("repo/Packages/Linked/Package.swift")))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("repo/Packages/Linked/Sources"),
      withDestinationPath: folder.file("outside/Sources"))
    try Data(
      #"let package = Package(name: "UI", dependencies: [.package(path: "../Design"), .package(path: "../Linked")])"#
        .utf8
    ).write(to: URL(fileURLWithPath: folder.file("repo/Packages/UI/Package.swift")))
    try Data(#"struct T { let b = Badge("Through a link") }"#.utf8).write(
      to: URL(fileURLWithPath: folder.file("repo/Packages/UI/Sources/UI/Linked.swift")))
    #expect(
      try keys(folder.file("repo/Packages/UI/Sources/UI")) == ["Hello", "Inside the package"])
    // Without a repository around them, the sources are read alone, as before.
    try FileManager.default.removeItem(atPath: folder.file("repo/.git"))
    #expect(try keys(repository + "/App") == [])
  }
}

/// `bundlekit strings extract` runs the helper beside it, with the same answer.
@Suite struct ForwardingTests {
  @Test("bundlekit strings extract prints what bundlekit-localize extract prints")
  func forwarded() throws {
    let helper = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    _ = try #require(
      BundleKitTool.path,
      "bundlekit was not built here: swift build --package-path Packages/BundleKitLocalize --product bundlekit"
    )
    let fixtures = ExtractionTests.fixtures.appendingPathComponent("Inbox").path
    let direct = try Tool.run(helper, ["extract", fixtures, "--format", "json"])
    let forwarded = try BundleKitTool.run(["strings", "extract", fixtures, "--format", "json"])
    #expect(forwarded.status == 0, "\(forwarded.stderr)")
    #expect(forwarded.stdout == String(decoding: direct.stdout, as: UTF8.self))
    #expect(forwarded.stdout.contains("\"key\" : \"%lld attachments (%.1f MB)\""))
  }
}
