import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

/// A package whose German and Russian tables lack entries that a memory or a provider has.
struct FillFixture {
  let folder: TemporaryFolder
  var package: String { folder.file("Package") }
  let memoryPath: String
  let providerMemoryPath: String

  init() throws {
    let folder = try TemporaryFolder()
    self.folder = folder
    func write(_ relative: String, _ bytes: [UInt8]) throws {
      let path = folder.file(relative)
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    let resources = "Package/Sources/App/Resources"
    try write(
      "\(resources)/en.lproj/Localizable.strings",
      Array(
        """
        /* Button that closes a dialog. */
        "alert.cancel" = "Cancel";
        "menu.settings" = "Settings";
        "greeting" = "Hello";
        /* Only the provider knows this one. */
        "rare" = "Rare words";
        "quote" = "Say \\"hi\\"";
        "empty" = "";

        """.utf8))
    // German in UTF-16 little-endian with a BOM, as older Xcode projects have.
    let german = "\"greeting\" = \"Hallo\";\n"
    try write(
      "\(resources)/de.lproj/Localizable.strings",
      [0xFF, 0xFE] + german.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    try write(
      "\(resources)/en.lproj/Localizable.stringsdict",
      Array(MemoryFixture.plurals(one: "%d file", other: "%d files").utf8))
    try write(
      "\(resources)/de.lproj/Localizable.stringsdict",
      Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- Kept as it is. -->
        <dict>
        </dict>
        </plist>

        """.utf8))
    try write(
      "\(resources)/Menu.xcstrings",
      Array(
        """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Delete" : {
              "comment" : "Menu item",
              "localizations" : {
                "fr" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Supprimer"
                  }
                }
              }
            },
            "Logo" : {
              "shouldTranslate" : false
            }
          },
          "version" : "1.0"
        }
        """.utf8))
    // The memory: German and Russian for most texts, from another app's tables.
    try write(
      "Memory/en.lproj/Other.strings",
      Array(
        "\"a\" = \"Cancel\";\n\"b\" = \"Settings\";\n\"c\" = \"Delete\";\n\"d\" = \"Hello\";\n\"e\" = \"Say \\\"hi\\\"\";\n"
          .utf8))
    try write(
      "Memory/de.lproj/Other.strings",
      Array(
        "\"a\" = \"Abbrechen\";\n\"b\" = \"Einstellungen\";\n\"c\" = \"Löschen\";\n\"e\" = \"Sag \\\"hallo\\\"\";\n"
          .utf8))
    try write(
      "Memory/ru.lproj/Other.strings",
      Array(
        "\"a\" = \"Отмена\";\n\"b\" = \"Настройки\";\n\"c\" = \"Удалить\";\n\"d\" = \"Привет\";\n"
          .utf8))
    try write(
      "Memory/en.lproj/Other.stringsdict",
      Array(MemoryFixture.plurals(one: "%d file", other: "%d files").utf8))
    try write(
      "Memory/ru.lproj/Other.stringsdict",
      Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>%d files</key><dict>
          <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
          <key>files</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d файл</string>
            <key>few</key><string>%d файла</string>
            <key>many</key><string>%d файлов</string>
            <key>other</key><string>%d файла</string>
          </dict></dict></dict></plist>
        """.utf8))
    memoryPath = folder.file("memory.sqlite")
    _ = try MemoryBuilder().build(from: [folder.file("Memory")], to: memoryPath)
    // What only the provider knows.
    try write(
      "Provider/en.lproj/P.strings",
      Array(
        "\"r\" = \"Rare words\";\n\"x\" = \"%d file\";\n\"y\" = \"%d files\";\n\"z\" = \"%#@files@\";\n"
          .utf8))
    try write(
      "Provider/de.lproj/P.strings",
      Array(
        "\"r\" = \"Seltene Wörter\";\n\"x\" = \"%d Datei\";\n\"y\" = \"%d Dateien\";\n\"z\" = \"%#@files@\";\n"
          .utf8))
    try write("Provider/ru.lproj/P.strings", Array("\"r\" = \"Редкие слова\";\n".utf8))
    providerMemoryPath = folder.file("provider.sqlite")
    _ = try MemoryBuilder().build(from: [folder.file("Provider")], to: providerMemoryPath)
  }

  func read(_ relative: String) throws -> [UInt8] {
    try FileIO.read("\(package)/Sources/App/Resources/\(relative)")
  }
}

@Suite("translate fill", .serialized, .offThePool)
struct FillTests {
  @Test("From a memory: each format keeps its encoding and layout, entries marked for review")
  func fromMemory() async throws {
    let fixture = try FillFixture()
    let germanBefore = try fixture.read("de.lproj/Localizable.strings")
    let pluralsBefore = try fixture.read("de.lproj/Localizable.stringsdict")
    let catalogBefore = try fixture.read("Menu.xcstrings")
    let plan = try await TableFiller(memoryPaths: [fixture.memoryPath])
      .plan(package: fixture.package, languages: ["de", "ru"])
    try TableFiller.write(plan)

    // .strings, UTF-16LE with BOM: the old bytes untouched, the new entries appended in UTF-16.
    let german = try fixture.read("de.lproj/Localizable.strings")
    #expect(german.starts(with: germanBefore))
    let germanFile = try StringsFile(bytes: german, path: "de")
    #expect(germanFile.encoding == .utf16LittleEndian)
    #expect(germanFile.dictionary["alert.cancel"]?.stringValue == "Abbrechen")
    #expect(germanFile.dictionary["menu.settings"]?.stringValue == "Einstellungen")
    #expect(germanFile.dictionary["quote"]?.stringValue == "Sag \"hallo\"")
    #expect(germanFile.dictionary["greeting"]?.stringValue == "Hallo")
    #expect(germanFile.dictionary["rare"] == nil)
    #expect(germanFile.dictionary["empty"] == nil)
    let cancel = try #require(germanFile.entries.first { $0.key == "alert.cancel" })
    #expect(
      cancel.comment
        == "Button that closes a dialog. — filled by bundlekit translate fill from the memory; needs review"
    )
    // Foundation reads the file as we do.
    let foundation = try #require(
      try PropertyListSerialization.propertyList(from: Data(german), format: nil)
        as? [String: String])
    #expect(foundation["alert.cancel"] == "Abbrechen")
    #expect(foundation.count == 4)

    // A new Russian table, UTF-8.
    let russian = try StringsFile(bytes: fixture.read("ru.lproj/Localizable.strings"), path: "ru")
    #expect(russian.encoding == .utf8)
    #expect(russian.dictionary["greeting"]?.stringValue == "Привет")

    // .stringsdict: German had none of the memory's plurals; Russian gets its four categories.
    #expect(try fixture.read("de.lproj/Localizable.stringsdict") == pluralsBefore)
    let plurals = try StringsdictFile(
      bytes: fixture.read("ru.lproj/Localizable.stringsdict"), path: "ru")
    let files = try #require(
      plurals.entries["%d files"]?.dictionaryValue?["files"]?.dictionaryValue)
    #expect(files["one"]?.stringValue == "%d файл")
    #expect(files["few"]?.stringValue == "%d файла")
    #expect(files["many"]?.stringValue == "%d файлов")
    #expect(files["other"]?.stringValue == "%d файла")
    #expect(files["NSStringFormatValueTypeKey"]?.stringValue == "d")
    #expect(plurals.validate().filter { $0.severity == .error }.isEmpty)
    let pluralText = String(
      decoding: try fixture.read("ru.lproj/Localizable.stringsdict"), as: UTF8.self)
    #expect(
      pluralText.contains(
        "<!-- filled by bundlekit translate fill from the memory; needs review -->"))

    // The catalog: the new languages needs_review, everything else as it was.
    let catalog = try #require(
      try JSONSerialization.jsonObject(with: Data(fixture.read("Menu.xcstrings"))) as? [String: Any]
    )
    let delete = try #require(
      ((catalog["strings"] as? [String: Any])?["Delete"] as? [String: Any])?["localizations"]
        as? [String: Any])
    let germanUnit = (delete["de"] as? [String: Any])?["stringUnit"] as? [String: String]
    #expect(germanUnit == ["state": "needs_review", "value": "Löschen"])
    let russianUnit = (delete["ru"] as? [String: Any])?["stringUnit"] as? [String: String]
    #expect(russianUnit?["value"] == "Удалить")
    #expect(
      ((delete["fr"] as? [String: Any])?["stringUnit"] as? [String: String])?["state"]
        == "translated")
    let logo = (catalog["strings"] as? [String: Any])?["Logo"] as? [String: Any]
    #expect(logo?["localizations"] == nil)
    // Only lines added: the old text is all there, in order.
    let before = String(decoding: catalogBefore, as: UTF8.self).split(separator: "\n")
    let after = String(decoding: try fixture.read("Menu.xcstrings"), as: UTF8.self).split(
      separator: "\n")
    var index = after.startIndex
    for line in before {
      guard let found = after[index...].firstIndex(of: line) else {
        Issue.record("line lost: \(line)")
        break
      }
      index = found + 1
    }

    // What nobody had is reported, not invented.
    let missing = Set(plan.unfilled.map { "\($0.language) \($0.key)" })
    #expect(missing == ["de rare", "ru rare", "ru quote", "de %d files"])
  }

  @Test("The provider fills what the memory lacks; the package's own tables count as memory")
  func fromProvider() async throws {
    let fixture = try FillFixture()
    let provider = try await RunningServer.translation(
      memory: TranslationMemory(path: fixture.providerMemoryPath, preload: true))
    try await provider.serving {
      let client = LibreTranslateClient(configuration: .init(baseURL: provider.url))
      let plan = try await TableFiller(memoryPaths: [fixture.memoryPath], remote: client)
        .plan(package: fixture.package, languages: ["de"])
      try TableFiller.write(plan)
      let german = try StringsFile(bytes: fixture.read("de.lproj/Localizable.strings"), path: "de")
      #expect(german.dictionary["rare"]?.stringValue == "Seltene Wörter")
      let rare = try #require(german.entries.first { $0.key == "rare" })
      #expect(
        rare.comment?.hasSuffix(
          "filled by bundlekit translate fill from the provider; needs review") == true)
      #expect(plan.filled.first { $0.key == "rare" }?.origin == .provider)
      // German plurals came from the provider text by text.
      let plurals = try StringsdictFile(
        bytes: fixture.read("de.lproj/Localizable.stringsdict"), path: "de")
      let files = plurals.entries["%d files"]?.dictionaryValue?["files"]?.dictionaryValue
      #expect(files?["one"]?.stringValue == "%d Datei")
      #expect(files?["other"]?.stringValue == "%d Dateien")
      // The comment in the XML before the new entry stayed where it was.
      let text = String(
        decoding: try fixture.read("de.lproj/Localizable.stringsdict"), as: UTF8.self)
      #expect(text.contains("<!-- Kept as it is. -->"))
      #expect(plan.unfilled.isEmpty, "\(plan.unfilled)")
    }
  }

  @Test("A broken table stops the fill before anything is written")
  func allOrNothing() async throws {
    let fixture = try FillFixture()
    let broken = "\(fixture.package)/Sources/App/Resources/fr.lproj/Localizable.strings"
    try FileManager.default.createDirectory(
      atPath: (broken as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try "\"greeting\" = \"Bonjour\"\n\"x\" = \"y\";".write(
      toFile: broken, atomically: true, encoding: .utf8)
    let before = try fixture.read("de.lproj/Localizable.strings")
    do {
      _ = try await TableFiller(memoryPaths: [fixture.memoryPath])
        .plan(package: fixture.package, languages: ["de", "fr"])
      Issue.record("a broken table was filled")
    } catch {
      #expect("\(error)".contains("fr.lproj/Localizable.strings:2:1:"), "\(error)")
    }
    #expect(try fixture.read("de.lproj/Localizable.strings") == before)
    #expect(
      !FileManager.default.fileExists(atPath: "\(fixture.package)/Sources/App/Resources/ru.lproj"))
  }

  @Test("The command: --dry-run writes nothing; missing entries exit 1 and are listed")
  func command() throws {
    let fixture = try FillFixture()
    let before = try fixture.read("de.lproj/Localizable.strings")
    var result = try BundleKitTool.run([
      "translate", "fill", fixture.package, "--to", "de", "--memory", fixture.memoryPath,
      "--dry-run",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("would fill"))
    #expect(result.stderr.contains("rare (de) not filled: no translation in the memory"))
    #expect(try fixture.read("de.lproj/Localizable.strings") == before)
    result = try BundleKitTool.run([
      "translate", "fill", fixture.package, "--to", "de", "--memory", fixture.memoryPath,
      "--format", "json",
    ])
    #expect(result.status == 1)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((report["filled"] as? [Any])?.isEmpty == false)
    #expect(try fixture.read("de.lproj/Localizable.strings") != before)
    result = try BundleKitTool.run(["translate", "fill", fixture.package, "--to", "C"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\"C\" is not a language code"))
  }

  @Test("A table in XML property-list form stays XML: new pairs before </dict>, marked")
  func xmlStrings() throws {
    let folder = try TemporaryFolder()
    func write(_ relative: String, _ text: String) throws {
      let path = folder.file(relative)
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(Array(text.utf8), to: path)
    }
    try write("Memory/en.lproj/M.strings", "\"a\" = \"Cancel\";\n\"b\" = \"Open & close\";\n")
    try write(
      "Memory/de.lproj/M.strings", "\"a\" = \"Abbrechen\";\n\"b\" = \"Öffnen & schließen\";\n")
    try write(
      "App/en.lproj/Localizable.strings",
      "\"title\" = \"Settings\";\n\"cancel\" = \"Cancel\";\n\"toggle\" = \"Open & close\";\n")
    // As a translation platform exports it.
    let exported = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>title</key>
        <string>Einstellungen</string>
      </dict>
      </plist>

      """
    try write("App/de.lproj/Localizable.strings", exported)
    let memory = folder.file("tm.sqlite")
    #expect(
      try BundleKitTool.run(["translate", "index", folder.file("Memory"), "-o", memory]).status == 0
    )
    let fill = try BundleKitTool.run([
      "translate", "fill", folder.file("App"), "--to", "de", "--memory", memory,
    ])
    #expect(fill.status == 0, "\(fill.stderr)")
    let text = String(
      decoding: try FileIO.read(folder.file("App/de.lproj/Localizable.strings")), as: UTF8.self)
    #expect(text.hasPrefix(exported.components(separatedBy: "</dict>")[0]))
    #expect(text.contains("  <key>cancel</key>\n  <string>Abbrechen</string>\n"))
    #expect(text.contains("  <string>Öffnen &amp; schließen</string>\n"))
    #expect(text.contains("<!-- filled by bundlekit translate fill"))
    #expect(text.hasSuffix("</dict>\n</plist>\n"))
    let table = try StringsFile(contentsOfFile: folder.file("App/de.lproj/Localizable.strings"))
    #expect(table.propertyListFormat == .xml1)
    #expect(table.dictionary["toggle"] == "Öffnen & schließen")
    #expect(table.dictionary["title"] == "Einstellungen")
    if let plutil = Tool.path("plutil") {
      let reading = try Tool.run(
        plutil, ["-convert", "json", "-o", "-", folder.file("App/de.lproj/Localizable.strings")])
      #expect(reading.status == 0)
      let object = try JSONSerialization.jsonObject(with: reading.stdout) as? [String: String]
      #expect(object?["cancel"] == "Abbrechen")
    }
  }
}
