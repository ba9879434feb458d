import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

@Suite("Translation memory", .offThePool)
struct MemoryTests {
  let fixture: MemoryFixture
  let memory: TranslationMemory

  init() throws {
    fixture = try MemoryFixture()
    memory = try TranslationMemory(path: fixture.memoryPath)
  }

  @Test("The memory knows its languages and development language")
  func languages() {
    #expect(memory.developmentLanguage == "en")
    #expect(memory.languages == ["de", "de-CH", "en", "fr", "pt-BR", "zh-Hans"])
    #expect(memory.supportedLanguage("pt_BR") == "pt-BR")
    #expect(memory.supportedLanguage("pt") == "pt-BR")
    #expect(memory.supportedLanguage("zh_CN") == "zh-Hans")
    #expect(memory.supportedLanguage("de-AT") == "de")
    #expect(memory.supportedLanguage("ja") == nil)
  }

  @Test("By key: every language's value, with comment and source text")
  func byKey() async throws {
    let records = try await memory.records(forKey: "menu.settings", table: "Localizable")
    #expect(
      records.map { "\($0.language)=\($0.value)" }
        == ["de=Einstellungen", "de-CH=Iistellige", "en=Settings", "pt-BR=Ajustes"])
    let english = try #require(records.first { $0.language == "en" })
    #expect(english.comment == "Opens the settings screen.")
    #expect(records.allSatisfy { $0.source == "Settings" })
    #expect(records.allSatisfy { $0.table == "Localizable" && $0.variant.isEmpty })
  }

  @Test("By key with a language follows the fallback chain")
  func byKeyFallback() async throws {
    #expect(
      try await memory.records(forKey: "menu.settings", language: "de-CH").map(\.value) == [
        "Iistellige"
      ])
    #expect(
      try await memory.records(forKey: "menu.settings", language: "de-AT").map(\.value) == [
        "Einstellungen"
      ])
    #expect(
      try await memory.records(forKey: "menu.settings", language: "ja").map(\.value) == ["Settings"]
    )
    #expect(try await memory.records(forKey: "no.such.key").isEmpty)
    await #expect(throws: TranslationError.invalidLanguage(code: "")) {
      try await memory.records(forKey: "menu.settings", language: "")
    }
  }

  @Test("Plural forms of .stringsdict and catalogs are entries of their own")
  func plurals() async throws {
    let files = try await memory.records(forKey: "%d files", language: "de")
    #expect(
      files.map { "\($0.variant)=\($0.value)" }
        == ["files.one=%d Datei", "files.other=%d Dateien", "format=%#@files@"])
    #expect(files.first?.source == "%d file")
    let items = try await memory.records(forKey: "items.count", language: "fr")
    #expect(items.map(\.variant) == ["plural.one", "plural.other"])
    #expect(try await memory.translate("%lld items", to: "fr") == "%lld éléments")
    #expect(try await memory.translate("%d files", to: "de") == "%d Dateien")
  }

  @Test("A catalog key with no source value is its own source; shouldTranslate false stays")
  func catalogSources() async throws {
    #expect(try await memory.translate("Delete", to: "fr") == "Supprimer")
    let delete = try await memory.records(forKey: "Delete", language: "en")
    #expect(delete.map(\.value) == ["Delete"])
    #expect(delete.first?.comment == "Menu item that deletes")
    #expect(try await memory.records(forKey: "Brand").map(\.language) == ["en"])
  }

  @Test("By text: the most used translation first, every candidate listed")
  func candidates() async throws {
    let matches = try await memory.matches(for: "Cancel", to: "de")
    #expect(matches.map(\.translation) == ["Abbrechen", "Stornieren"])
    #expect(matches.map(\.occurrences) == [2, 1])
    #expect(matches.allSatisfy { $0.kind == .exact && $0.score == 1 && $0.language == "de" })
    #expect(matches[1].record.key == "toolbar.cancel")
    #expect(matches[0].record.source == "Cancel")
    #expect(try await memory.translate("Cancel", to: "de") == "Abbrechen")
  }

  @Test("By text from another language into another")
  func betweenTranslations() async throws {
    #expect(try await memory.translate("Einstellungen", to: "pt_BR", from: "de") == "Ajustes")
    #expect(try await memory.translate("Abbrechen", to: "zh_CN", from: "de") == "取消")
    // From `auto`: the text is found in whichever language has it.
    #expect(try await memory.translate("Ajustes", to: "de") == "Einstellungen")
  }

  @Test("Fallback: de-CH has its own value, else de; a language with none gives the source")
  func fallback() async throws {
    #expect(try await memory.translate("Settings", to: "de-CH") == "Iistellige")
    #expect(try await memory.translate("Cancel", to: "de-CH") == "Abbrechen")
    #expect(try await memory.translate("Only in English", to: "de") == "Only in English")
    #expect(try await memory.translate("Cancel", to: "ja") == "Cancel")
    let fallback = try #require(try await memory.matches(for: "Only in English", to: "de").first)
    #expect(fallback.language == "en")
  }

  @Test("Never empty: unknown text comes back as it is")
  func unknown() async throws {
    #expect(
      try await memory.translate("Something nobody wrote", to: "de") == "Something nobody wrote")
    #expect(try await memory.matches(for: "Something nobody wrote", to: "de", fuzzy: false).isEmpty)
  }

  @Test("Normalised match sets case, punctuation and spacing aside")
  func normalized() async throws {
    let match = try #require(try await memory.matches(for: "  cancel!! ", to: "de").first)
    #expect(match.kind == .normalized)
    #expect(match.translation == "Abbrechen")
    #expect(match.matchedText == "Cancel")
    #expect(try await memory.translate("SETTINGS", to: "pt-BR") == "Ajustes")
  }

  @Test("Fuzzy match with a score when nothing matches exactly")
  func fuzzy() async throws {
    let match = try #require(try await memory.matches(for: "Open the doors", to: "de").first)
    #expect(match.kind == .fuzzy)
    #expect(match.translation == "Öffne die Tür")
    #expect(match.matchedText == "Open the door")
    #expect(match.score > 0.8 && match.score < 1)
    #expect(try await memory.matches(for: "Open the doors", to: "de", minimumScore: 0.99).isEmpty)
    #expect(try await memory.matches(for: "Open the doors", to: "de", fuzzy: false).isEmpty)
    // Fuzzy matches are suggestions: translate() takes exact and normalised ones only.
    #expect(try await memory.translate("Open the doors", to: "de") == "Open the doors")
  }

  @Test("Detection by exact match")
  func detect() async throws {
    #expect(try await memory.detectLanguages(of: "Abbrechen").first?.language == "de")
    #expect(try await memory.detectLanguages(of: "Cancel").first?.language == "en")
    #expect(try await memory.detectLanguages(of: "Iistellige").first?.language == "de-CH")
    #expect(try await memory.detectLanguages(of: "zzz").isEmpty)
  }

  @Test("The async API gives what the synchronous one gives")
  func async() async throws {
    let matches = try await memory.matches(for: "Cancel", to: "de")
    #expect(matches == (try await memory.matches(for: "Cancel", to: "de")))
    #expect(try await memory.translate("Settings", to: "pt-BR") == "Ajustes")
    #expect(
      try await memory.records(forKey: "greeting", language: "de").map(\.value) == ["Hallo, %@!"])
    // Many lookups at once from many tasks.
    let shared = memory
    try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<64 { group.addTask { try await shared.translate("Cancel", to: "de") } }
      for try await translation in group { #expect(translation == "Abbrechen") }
    }
  }

  @Test("A preloaded memory answers exactly as the database does")
  func preloadAgrees() async throws {
    let preloaded = try TranslationMemory(path: fixture.memoryPath, preload: true)
    for text in ["Cancel", "cancel!", "Settings", "Open the doors", "Delete", "%d files", "nope"] {
      for language in ["de", "de-CH", "fr", "pt", "zh_CN", "ja", "en"] {
        #expect(
          try await preloaded.matches(for: text, to: language)
            == (try await memory.matches(for: text, to: language)), "\(text) → \(language)")
      }
    }
    for key in ["menu.settings", "%d files", "items.count", "Delete", "nope"] {
      #expect(try await preloaded.records(forKey: key) == (try await memory.records(forKey: key)))
    }
  }
}

@Suite("Translation memory: building and bad input", .offThePool)
struct MemoryBuildTests {
  @Test("Compiled tables index as their text forms do")
  func compiledTables() async throws {
    guard let tool = BundleKitTool.path else {
      Issue.record("bundlekit was not built")
      return
    }
    _ = tool
    let fixture = try MemoryFixture()
    let compiled = fixture.folder.file("compiled")
    let result = try BundleKitTool.run([
      "strings", "compile", fixture.folder.file("App"), "--output-dir", compiled,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let compiledMemory = fixture.folder.file("compiled.sqlite")
    _ = try MemoryBuilder().build(from: [compiled], to: compiledMemory)
    let text = try TranslationMemory(path: fixture.memoryPath)
    let binary = try TranslationMemory(path: compiledMemory)
    for key in ["alert.cancel", "menu.settings", "greeting", "%d files", "door.open"] {
      let expected = try await text.records(forKey: key, table: "Localizable").map {
        "\($0.language) \($0.variant) \($0.value) \($0.source ?? "-")"
      }
      let actual = try await binary.records(forKey: key, table: "Localizable").map {
        "\($0.language) \($0.variant) \($0.value) \($0.source ?? "-")"
      }
      #expect(actual == expected, "\(key)")
    }
    #expect(try await binary.translate("Cancel", to: "de") == "Abbrechen")
  }

  @Test(
    "A memory without the development language: a fuzzy lookup into a language with no fallback finds nothing, and does not trap"
  )
  func noFallbackLanguage() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file("App/de.lproj"), withIntermediateDirectories: true)
    try "\"door.open\" = \"Die Tür öffnen\";\n\"cancel\" = \"Abbrechen\";\n".write(
      toFile: folder.file("App/de.lproj/Localizable.strings"), atomically: true, encoding: .utf8)
    _ = try MemoryBuilder(developmentLanguage: "en").build(
      from: [folder.file("App")], to: folder.file("m.sqlite"))
    for preload in [false, true] {
      let memory = try TranslationMemory(path: folder.file("m.sqlite"), preload: preload)
      #expect(memory.languages == ["de"])
      #expect(try memory.fallbackChain(for: "fr").isEmpty)
      // Exact, normalised and fuzzy: each finds German rows, none has a French side.
      for text in ["Die Tür öffnen", "die tür öffnen!", "Die Tür öffne"] {
        #expect(try await memory.matches(for: text, to: "fr", from: "de").isEmpty, "\(text)")
      }
      let fuzzy = try await memory.matches(for: "Die Tür öffne", to: "de", from: "de")
      #expect(fuzzy.first?.kind == .fuzzy && fuzzy.first?.translation == "Die Tür öffnen")
    }
  }

  @Test("A broken table names its file, line and column, and leaves the old memory as it was")
  func brokenTable() throws {
    let fixture = try MemoryFixture()
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.memoryPath))
    let broken = fixture.folder.file("App/fr.lproj/Localizable.strings")
    try FileManager.default.createDirectory(
      atPath: fixture.folder.file("App/fr.lproj"), withIntermediateDirectories: true)
    try "\"ok\" = \"fine\";\n\"bad\" = \"no semicolon\"\n\"next\" = \"x\";\n".write(
      toFile: broken, atomically: true, encoding: .utf8)
    do {
      _ = try MemoryBuilder().build(from: [fixture.folder.file("App")], to: fixture.memoryPath)
      Issue.record("a broken table was indexed")
    } catch {
      let message = "\(error)"
      #expect(message.contains("\(broken):3:1:"), "\(message)")
      #expect(message.contains("error:"), "\(message)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.memoryPath)) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test("A missing path, a missing memory and a file that is not one are clear errors")
  func badFiles() throws {
    let folder = try TemporaryFolder()
    #expect(throws: TranslationError.self) {
      try MemoryBuilder().build(from: [folder.file("absent")], to: folder.file("m.sqlite"))
    }
    do {
      _ = try TranslationMemory(path: folder.file("absent.sqlite"))
      Issue.record("opened a missing memory")
    } catch {
      #expect("\(error)".contains("absent.sqlite: error: no such file"))
    }
    try "not a database at all".write(
      toFile: folder.file("junk.sqlite"), atomically: true, encoding: .utf8)
    do {
      _ = try TranslationMemory(path: folder.file("junk.sqlite"))
      Issue.record("opened a file that is not a memory")
    } catch {
      #expect("\(error)".contains("junk.sqlite: error: not a translation memory"), "\(error)")
    }
  }
}
