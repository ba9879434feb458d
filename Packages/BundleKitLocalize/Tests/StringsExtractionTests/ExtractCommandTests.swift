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
