import BundleKitTestSupport
import Foundation
import Testing

/// The sync-strings command plugin as a user runs it: a package that depends on
/// BundleKitLocalize by path, `swift package sync-strings` under a timeout.
@Suite struct SyncPluginTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("sync-strings: --check fails listing the new keys, a run writes them, then --check passes")
  func plugin() throws {
    try #require(Tool.path("swift") != nil, "swift is not on PATH")
    let folder = try TemporaryFolder()
    let target = folder.file("Sources/Inbox")
    try FileManager.default.createDirectory(
      atPath: target + "/Resources", withIntermediateDirectories: true)
    let fixtures = ExtractionTests.fixtures.appendingPathComponent("Inbox")
    for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
      try FileManager.default.copyItem(
        atPath: fixtures.appendingPathComponent(name).path, toPath: target + "/" + name)
    }
    let empty =
      "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n\n  },\n  \"version\" : \"1.0\"\n}"
    try Data(empty.utf8).write(
      to: URL(fileURLWithPath: target + "/Resources/Localizable.xcstrings"))
    let manifest = """
      // swift-tools-version: 6.1
      import PackageDescription

      let package = Package(
        name: "Consumer",
        defaultLocalization: "en",
        dependencies: [.package(name: "BundleKitLocalize", path: "\(Self.packageRoot.path)")],
        targets: [.target(name: "Inbox", resources: [.process("Resources")])]
      )
      """
    try Data(manifest.utf8).write(to: URL(fileURLWithPath: folder.file("Package.swift")))
    // In the tests' scratch folder: the plugin's tool and swift-syntax are built there already.
    func plugin(_ arguments: [String]) throws -> Tool.Result {
      try ConsumerPackage(path: folder.path).swift(
        "package", ["--allow-writing-to-package-directory", "sync-strings"] + arguments,
        timeout: 900)
    }
    let started = Date()
    let check = try plugin(["--check"])
    print("sync-strings: build and first run in \(Int(Date().timeIntervalSince(started))) s")
    #expect(check.status != 0 && check.status != 124, "\(check.stderr)")
    let listed = String(decoding: check.stdout, as: UTF8.self) + check.stderr
    #expect(listed.contains("added \"%lld messages, %lld unread\""), "\(listed)")
    #expect(
      try String(contentsOfFile: target + "/Resources/Localizable.xcstrings", encoding: .utf8)
        == empty)

    let run = try plugin([])
    #expect(run.status == 0, "\(run.stderr)")
    let catalog = try String(
      contentsOfFile: target + "/Resources/Localizable.xcstrings", encoding: .utf8)
    #expect(catalog.contains("\"Signed in as %@\" : {\n\n    }"))
    #expect(try plugin(["--check"]).status == 0)
  }
}
