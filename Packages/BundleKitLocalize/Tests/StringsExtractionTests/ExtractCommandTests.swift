import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit-localize extract` as a user runs it.
@Suite struct ExtractCommandTests {
  /// The helper built beside the tests.
  static var tool: String? {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates =
      [folder] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    return candidates.map { $0.appendingPathComponent("bundlekit-localize").path }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
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
