import BundleKitFileSystem
import BundleKitLocalization
import BundleKitTestSupport
import Foundation
import Testing

/// A language comes from strangers (a catalog, an XLIFF file, a folder name, the environment)
/// and becomes a folder name: anything that is no language tag is an error, never a path and
/// never a trap.
@Suite("Hostile languages")
struct HostileLanguageTests {
  static func catalog(languages: [String], source: String = "en") -> String {
    let localizations = languages.map {
      "\"\($0)\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"x\" } }"
    }.joined(separator: ", ")
    return """
      {
        "sourceLanguage" : "\(source)",
        "strings" : {
          "Menu" : { "localizations" : { \(localizations) } }
        },
        "version" : "1.0"
      }

      """
  }

  /// Every file below `folder`, relative, and every file below its parent that is not in it.
  static func filesOutside(_ folder: TemporaryFolder, besides known: Set<String>) -> [String] {
    let parent = Paths.parent(folder.path)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
    return names.filter { $0.hasPrefix("escaped") && !known.contains($0) }
  }

  @Test("LanguageResolver.normalize and LanguageName: no trap, nil for what names no language")
  func normalizeNeverTraps() {
    for text in [
      "-", "_", "--", "-_-", "", " ", "../x", "en/..", "e n", "en-", "-en", "1en", "a\u{0}b",
    ] {
      #expect(LanguageResolver.normalize(text) == nil, "\(text)")
      #expect(!LanguageResolver.isLanguageTag(text), "\(text)")
    }
    #expect(LanguageResolver.normalize("pt_BR.UTF-8") == "pt-BR")
    #expect(LanguageResolver.normalize("zh_TW") == "zh-Hant")
    #expect(LanguageResolver.normalize("es-419") == "es-419")
    for tag in ["en", "Base", "English", "zh-Hans", "sr-Latn-RS", "es-419", "pt_BR", "x-pseudo"] {
      #expect(LanguageResolver.isLanguageTag(tag), "\(tag)")
    }
    let preferred = LanguageResolver.preferredLanguages(environment: [
      "LANG": "de_DE", "LANGUAGE": "-:_:fr",
    ])
    #expect(preferred.prefix(2) == ["fr", "de-DE"], "\(preferred)")
  }

  @Test("LANG=_ or LANGUAGE=- in the environment: strings lookup answers, no trap")
  func environmentLanguage() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("App/en.lproj/Localizable.strings"))
    try FileIO.writeAtomically(
      Array("\"hello\" = \"Hello\";\n".utf8), to: folder.file("App/en.lproj/Localizable.strings"))
    let tool = try #require(BundleKitTool.path)
    for environment in [["LANG": "_"], ["LANG": "-"], ["LC_ALL": "-_-", "LANGUAGE": "_:-"]] {
      let run = try Tool.run(
        tool, ["strings", "lookup", "hello", "--in", folder.file("App")],
        environment: environment)
      #expect(run.status == 0, "\(environment): \(run.stderr)")
      #expect(String(decoding: run.stdout, as: UTF8.self) == "Hello\n")
    }
  }

  @Test(
    "a catalog language '../../../escaped': lint and compile refuse it, nothing outside is written")
  func catalogLanguageIsNoPath() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("App/Menu.xcstrings"))
    try FileIO.writeAtomically(
      Array(Self.catalog(languages: ["en", "../../../escaped-catalog"]).utf8),
      to: folder.file("App/Menu.xcstrings"))
    let lint = try BundleKitTool.run(["strings", "lint", folder.file("App")])
    #expect(lint.status == 1)
    #expect(
      lint.stderr.contains(
        "Menu.xcstrings:4:1: error: \"Menu\": localization '../../../escaped-catalog' is no language"
      ),
      "\(lint.stderr)")
    let out = folder.file("out/a/b/c")
    let compile = try BundleKitTool.run([
      "strings", "compile", folder.file("App"), "--output-dir", out,
    ])
    #expect(compile.status == 1)
    #expect(compile.stderr.contains("is no language"), "\(compile.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("out/escaped-catalog.lproj")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("out/a/escaped-catalog.lproj")))
    // The source language too.
    try FileIO.writeAtomically(
      Array(Self.catalog(languages: ["en"], source: "../up").utf8),
      to: folder.file("App/Menu.xcstrings"))
    let source = try BundleKitTool.run(["strings", "lint", folder.file("App")])
    #expect(source.status == 1)
    #expect(source.stderr.contains("\"sourceLanguage\" '../up' is no language"), "\(source.stderr)")
  }

  @Test("a folder '-.lproj': lint and compile name it, with the invalid-language rule")
  func lprojFolderName() throws {
    let folder = try TemporaryFolder()
    for language in ["en", "-"] {
      try FileIO.createFolders(for: folder.file("App/\(language).lproj/Localizable.strings"))
      try FileIO.writeAtomically(
        Array("\"a\" = \"b\";\n".utf8), to: folder.file("App/\(language).lproj/Localizable.strings")
      )
    }
    let lint = try BundleKitTool.run(["strings", "lint", folder.file("App")])
    #expect(lint.status == 1)
    #expect(
      lint.stderr.contains(
        "-.lproj/Localizable.strings: error: its folder '-.lproj' names no language"))
    let compile = try BundleKitTool.run([
      "strings", "compile", folder.file("App"), "--output-dir", folder.file("out"),
    ])
    #expect(compile.status == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  /// A project with an English `.strings` table and its XLIFF for `language`.
  func project(targetLanguage language: String) throws -> (TemporaryFolder, String) {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("App/en.lproj/Localizable.strings"))
    try FileIO.writeAtomically(
      Array("\"hello\" = \"Hello\";\n".utf8), to: folder.file("App/en.lproj/Localizable.strings"))
    let xliff = """
      <?xml version="1.0" encoding="UTF-8"?>
      <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
        <file original="App/en.lproj/Localizable.strings" source-language="en" target-language="\(language)" datatype="plaintext">
          <body>
            <trans-unit id="hello" xml:space="preserve">
              <source>Hello</source>
              <target state="translated">Bonjour</target>
            </trans-unit>
          </body>
        </file>
      </xliff>

      """
    try FileIO.writeAtomically(Array(xliff.utf8), to: folder.file("in.xliff"))
    return (folder, folder.file("in.xliff"))
  }

  @Test("strings import: a target-language that is no language is refused at its line")
  func importLanguage() throws {
    for language in ["../../escaped-import", "-", "fr/..", "fr fr"] {
      let (folder, xliff) = try project(targetLanguage: language)
      let run = try BundleKitTool.run(["strings", "import", xliff, folder.path])
      #expect(run.status == 1, "\(language)")
      #expect(run.stderr.contains("in.xliff:3:3: error:"), "\(language): \(run.stderr)")
      #expect(run.stderr.contains("target-language"), "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.file("escaped-import.lproj")))
      #expect(!FileManager.default.fileExists(atPath: folder.file("App/-.lproj")))
    }
  }

  @Test("strings import: a table that is a link out of the project is not written through")
  func importThroughLink() throws {
    let (folder, xliff) = try project(targetLanguage: "fr")
    let outside = try TemporaryFolder()
    try FileIO.writeAtomically(Array("victim\n".utf8), to: outside.file("victim.txt"))
    try FileIO.createFolder(folder.file("App/fr.lproj"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("App/fr.lproj/Localizable.strings"),
      withDestinationPath: outside.file("victim.txt"))
    let run = try BundleKitTool.run(["strings", "import", xliff, folder.path])
    #expect(run.status == 1)
    #expect(run.stderr.contains("is a link that leads out of"), "\(run.stderr)")
    #expect(try FileIO.read(outside.file("victim.txt")) == Array("victim\n".utf8))
    // A dangling link would create its target wherever it points.
    try FileManager.default.removeItem(atPath: folder.file("App/fr.lproj/Localizable.strings"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("App/fr.lproj/Localizable.strings"),
      withDestinationPath: outside.file("created.txt"))
    let dangling = try BundleKitTool.run(["strings", "import", xliff, folder.path])
    #expect(dangling.status == 1)
    #expect(!FileManager.default.fileExists(atPath: outside.file("created.txt")))
    // A link that stays in the project is followed, as Xcode would.
    try FileManager.default.removeItem(atPath: folder.file("App/fr.lproj/Localizable.strings"))
    try FileIO.writeAtomically(
      Array("\"hello\" = \"Salut\";\n".utf8), to: folder.file("App/fr.strings"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("App/fr.lproj/Localizable.strings"), withDestinationPath: "../fr.strings")
    let inside = try BundleKitTool.run(["strings", "import", xliff, folder.path])
    #expect(inside.status == 0, "\(inside.stderr)")
    #expect(
      String(decoding: try FileIO.read(folder.file("App/fr.strings")), as: UTF8.self).contains(
        "Bonjour"))
  }

  @Test("strings export of ../.. and --language ../x: nothing written outside the output folder")
  func exportStaysInside() throws {
    let folder = try TemporaryFolder()
    let project = folder.file("work/deep/project")
    try FileIO.createFolders(for: project + "/App/en.lproj/Localizable.strings")
    try FileIO.writeAtomically(
      Array("\"hello\" = \"Hello\";\n".utf8), to: project + "/App/en.lproj/Localizable.strings")
    try FileIO.createFolders(for: project + "/App/fr.lproj/Localizable.strings")
    try FileIO.writeAtomically(
      Array("\"hello\" = \"Bonjour\";\n".utf8), to: project + "/App/fr.lproj/Localizable.strings")
    let cwd = folder.file("work/deep/project/App/en.lproj")
    let out = folder.file("work/out")
    let run = try BundleKitTool.run(["strings", "export", "../..", "--xcloc", out], in: cwd)
    #expect(run.status == 0, "\(run.stderr)")
    let written = try FileManager.default.subpathsOfDirectory(atPath: out)
    #expect(
      written.contains("fr.xcloc/Source Contents/App/en.lproj/Localizable.strings"), "\(written)")
    #expect(written.allSatisfy { !$0.contains("..") })
    // Nothing beside the output folder but the project.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.file("work")).sorted() == [
        "deep", "out",
      ])
    let bad = try BundleKitTool.run([
      "strings", "export", project, "--xcloc", folder.file("x"), "--language", "../escaped-export",
    ])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("'../escaped-export' is no language"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("escaped-export.xcloc")))
  }
}
