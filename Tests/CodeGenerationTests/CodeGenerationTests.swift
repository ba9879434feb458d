import BundleKitCodeGeneration
import BundleKitTestSupport
import Foundation
import Testing

/// Generated Swift compared whole with the files in Fixtures/Expected/.
struct CodeGenerationTests {
  @Test("build info: every value, escaped; public or internal")
  func buildInfo() {
    var source = BuildInfoSource(date: "2026-11-23T07:00:00Z")
    source.version = "2.3.1"
    source.build = "46"
    source.commit = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
    #expect(ExpectedOutput.difference(source.code, expected: "BuildInfo.swift.expected") == nil)
    var unknown = BuildInfoSource(date: "1970-01-01T00:00:00Z")
    unknown.typeName = "About"
    unknown.isPublic = true
    unknown.version = "1.0 \"beta\"\n"
    #expect(
      ExpectedOutput.difference(unknown.code, expected: "BuildInfoPublic.swift.expected") == nil)
  }

  @Test("embedded files: names made identifiers, clashes and keywords, base64 in 76 columns")
  func embedded() {
    var source = EmbeddedFilesSource(files: [
      .init(name: "class", bytes: Array("keyword".utf8)),
      .init(name: "img/logo-2x.png", bytes: Array(0..<120)),
      .init(name: "style.css", bytes: Array("body { color: red }\n".utf8)),
      .init(name: "style_css", bytes: []),
      .init(name: "données/été.txt", bytes: Array("chaud".utf8)),
    ])
    source.typeName = "Assets"
    #expect(ExpectedOutput.difference(source.code, expected: "Assets.swift.expected") == nil)
  }

  @Test(
    "identifiers as SwiftGen forms them",
    arguments: [
      ("welcome.title", "welcomeTitle"), ("URL path", "urlPath"), ("2x", "_2x"), ("", "key"),
      ("été.chaud", "étéChaud"), ("a-b_c", "aBC"),
    ])
  func memberNames(text: String, expected: String) {
    #expect(Identifier.memberName(text) == expected)
  }

  @Test("literals and comments: nothing in the text can end them")
  func escaping() {
    #expect(Identifier.stringLiteral("a\"b\\c\n\t\u{7}") == #""a\"b\\c\n\t\u{7}""#)
    #expect(Identifier.commentLines("one\r\ntwo\u{2028}") == ["one", "two\\u{2028}"])
    #expect(Identifier.escapeKeyword("class") == "`class`")
    #expect(Identifier.typeNameProblem("9Lives") != nil)
    #expect(Identifier.typeNameProblem("BuildInfo") == nil)
  }
}

/// The expected files are Swift that compiles: checked with the toolchain's type checker.
struct ExpectedFilesCompile {
  @Test("every expected file type-checks in Swift 6 mode")
  func typecheck() throws {
    let swiftc = try #require(
      Tool.path("swiftc"), "swiftc is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/Expected").path
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasSuffix(".swift.expected")
    }
    #expect(files.count == 3)
    let scratch = try TemporaryFolder()
    for file in files.sorted() {
      // Kept as `.expected` so formatters leave them as generated; compiled as `.swift`.
      let source = scratch.file(String(file.dropLast(".expected".count)))
      try FileManager.default.copyItem(atPath: folder + "/" + file, toPath: source)
      let result = try Tool.run(
        swiftc, ["-typecheck", "-swift-version", "6", "-module-name", "Generated", source])
      #expect(result.status == 0, "\(file): \(result.stderr)")
    }
  }
}
