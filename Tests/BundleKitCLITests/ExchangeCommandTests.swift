import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit strings export` and `import` as a user runs them, from the project's folder.
struct ExchangeCommandTests {
  static let catalog = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "%lld files" : {
          "comment" : "Count of files",
          "localizations" : {
            "de" : {
              "stringUnit" : {
                "state" : "translated",
                "value" : "%lld Dateien"
              }
            }
          }
        },
        "Open" : {

        }
      },
      "version" : "1.0"
    }
    """

  @Test(
    "export, import with --dry-run, import; a bad unit refuses itself, or everything with --strict"
  )
  func exportImport() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolder(folder.file("App"))
    try FileIO.writeAtomically(
      Array(Self.catalog.utf8), to: folder.file("App/Localizable.xcstrings"))

    let export = try BundleKitTool.run(
      ["strings", "export", "App", "--xcloc", "L10n", "--language", "fr"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout == "L10n/fr.xcloc\n")
    let xliffPath = folder.file("L10n/fr.xcloc/Localized Contents/fr.xliff")
    let xliff = try String(contentsOfFile: xliffPath, encoding: .utf8)
    #expect(
      xliff.contains(
        "<file original=\"App/Localizable.xcstrings\" source-language=\"en\" target-language=\"fr\" datatype=\"plaintext\">"
      ))
    #expect(xliff.contains("<note>Count of files</note>"))
    #expect(FileManager.default.fileExists(atPath: folder.file("L10n/fr.xcloc/contents.json")))
    #expect(
      FileManager.default.fileExists(
        atPath: folder.file("L10n/fr.xcloc/Source Contents/App/Localizable.xcstrings")))

    let translated =
      xliff
      .replacingOccurrences(
        of: "<source>Open</source>", with: "<source>Open</source>\n        <target>Ouvrir</target>")
    try FileIO.writeAtomically(Array(translated.utf8), to: xliffPath)
    // A real placeholder bug: an object where the source passes an integer.
    let bad = translated.replacingOccurrences(
      of: "\n        <target>Ouvrir</target>", with: ""
    ).replacingOccurrences(
      of: "<source>%lld files</source>",
      with: "<source>%lld files</source>\n        <target>%@ fichiers</target>"
    ).replacingOccurrences(of: "target-language=\"fr\"", with: "target-language=\"it\"")
    try FileIO.writeAtomically(Array(bad.utf8), to: folder.file("bad.xliff"))
    let before = try Data(
      contentsOf: URL(fileURLWithPath: folder.file("App/Localizable.xcstrings")))

    let refused = try BundleKitTool.run(
      ["strings", "import", "L10n/fr.xcloc", "bad.xliff", "--strict"], in: folder.path)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "bad.xliff:8:7: error: \"%lld files\": the translation argument 1 is an object (%@) but a 64-bit integer in the development language"
      ), "\(refused.stderr)")
    let dryRun = try BundleKitTool.run(
      ["strings", "import", "L10n/fr.xcloc", "--dry-run"], in: folder.path)
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(dryRun.stdout == "App/Localizable.xcstrings: 1 translation\n")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.file("App/Localizable.xcstrings"))) == before
    )

    // Without --strict the bad unit alone is refused: French is written, the run fails.
    let imported = try BundleKitTool.run(
      ["strings", "import", "L10n/fr.xcloc", "bad.xliff", "."], in: folder.path)
    #expect(imported.status == 1, "\(imported.stderr)")
    #expect(
      imported.stderr.contains(
        "bad.xliff:8:7: error: \"%lld files\": the translation argument 1 is an object (%@) but a 64-bit integer in the development language"
      ), "\(imported.stderr)")
    #expect(
      imported.stderr.hasSuffix(
        ".: error: 1 unit refused for its placeholders; the rest was imported\n"),
      "\(imported.stderr)")
    #expect(imported.stdout == "App/Localizable.xcstrings: 1 translation\n")
    let written = try String(
      contentsOfFile: folder.file("App/Localizable.xcstrings"), encoding: .utf8)
    #expect(
      written.contains(
        "\"fr\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            \"value\" : \"Ouvrir\""
      ))
    #expect(written.hasSuffix("\"version\" : \"1.0\"\n}"))
    let again = try BundleKitTool.run(["strings", "import", "L10n/fr.xcloc"], in: folder.path)
    #expect(again.status == 0)
    #expect(again.stderr.contains("nothing to import"))
  }
}
