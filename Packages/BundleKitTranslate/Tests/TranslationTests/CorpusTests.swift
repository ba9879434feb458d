import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

/// Lookups checked against the corpus files as Foundation and JSONSerialization read them.
@Suite("Translation memory: corpus", .serialized, .offThePool)
struct CorpusTests {
  static let homeAssistant = Corpus.path("home-assistant-ios")
  static let iceCubes = Corpus.path("icecubes-xcstrings/Localizable.xcstrings")

  @Test(
    "home-assistant: every key in every language, and every English text into German",
    .enabled(if: Corpus.has("home-assistant-ios"), Corpus.reason("home-assistant-ios"))
  )
  func homeAssistant() async throws {
    let folder = try TemporaryFolder()
    let started = Date()
    let summary = try MemoryBuilder().build(
      from: [Self.homeAssistant], to: folder.file("ha.sqlite"))
    print(
      "home-assistant: \(summary.translations) translations, \(summary.languages.count) languages, "
        + "\(summary.files) files indexed in \(Date().timeIntervalSince(started)) s (debug build)")
    #expect(summary.languages.count == 35)
    let memory = try TranslationMemory(path: folder.file("ha.sqlite"), preload: true)

    // Foundation's reading of every table: language -> table -> key -> value.
    var tables: [String: [String: [String: String]]] = [:]
    for language in try FileManager.default.contentsOfDirectory(atPath: Self.homeAssistant)
    where language.hasSuffix(".lproj") {
      let tag = try #require(LanguageTag.normalize(String(language.dropLast(6))))
      for file in try FileManager.default.contentsOfDirectory(
        atPath: "\(Self.homeAssistant)/\(language)") where file.hasSuffix(".strings")
      {
        let data = try Data(
          contentsOf: URL(fileURLWithPath: "\(Self.homeAssistant)/\(language)/\(file)"))
        let object = try PropertyListSerialization.propertyList(from: data, format: nil)
        tables[tag, default: [:]][String(file.dropLast(8))] = try #require(
          object as? [String: String])
      }
    }
    var checked = 0
    for (language, byTable) in tables {
      for (table, entries) in byTable {
        for (key, value) in entries {
          let records = try await memory.records(forKey: key, table: table, language: language)
          #expect(records.map(\.value) == [value], "\(language) \(table) \(key)")
          #expect(records.first?.language == language)
          checked += 1
        }
      }
    }
    print("home-assistant: \(checked) key lookups agree with Foundation")
    #expect(checked > 100_000)

    // By text: each English text of Localizable into German gives exactly the German values
    // of the keys that have it, the most common first; the English text itself when none does.
    let english = try #require(tables["en"]?["Localizable"])
    let german = try #require(tables["de"]?["Localizable"])
    var keysByText: [String: [String]] = [:]
    for (key, value) in english { keysByText[value, default: []].append(key) }
    var texts = 0
    var severalCandidates = 0
    for (text, keys) in keysByText {
      // Other tables may hold the same text: take them into account too.
      var expected: [String: Int] = [:]
      for (table, entries) in tables["en"] ?? [:] {
        for (key, value) in entries where value == text {
          if let translated = tables["de"]?[table]?[key] { expected[translated, default: 0] += 1 }
        }
      }
      let matches = try await memory.matches(
        for: text, to: "de", from: "en", fuzzy: false, limit: 100)
      if expected.isEmpty {
        #expect(matches.first?.translation == text, "\(text)")
        #expect(matches.first?.language == "en")
      } else {
        #expect(Set(matches.map(\.translation)) == Set(expected.keys), "\(text)")
        // The most used translation first, untranslated copies after real translations.
        let real = expected.filter { $0.key != text }
        let best = real.isEmpty ? expected.values.max() : real.values.max()
        #expect(matches.first.map { expected[$0.translation] } == best, "\(text)")
        if !real.isEmpty { #expect(matches.first?.translation != text, "\(text)") }
        if expected.count > 1 { severalCandidates += 1 }
      }
      _ = keys
      _ = german
      texts += 1
    }
    print(
      "home-assistant: \(texts) English texts translated, \(severalCandidates) with several candidates"
    )
    #expect(severalCandidates > 0)
  }

  @Test(
    "IceCubes catalog: every string unit in every language, plural forms included",
    .enabled(if: Corpus.has("icecubes-xcstrings"), Corpus.reason("icecubes-xcstrings"))
  )
  func iceCubes() async throws {
    let folder = try TemporaryFolder()
    _ = try MemoryBuilder().build(from: [Self.iceCubes], to: folder.file("ic.sqlite"))
    let memory = try TranslationMemory(path: folder.file("ic.sqlite"))
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.iceCubes)))
        as? [String: Any])
    let strings = try #require(root["strings"] as? [String: Any])
    var checked = 0
    var plural = 0
    for (key, entry) in strings {
      guard let localizations = (entry as? [String: Any])?["localizations"] as? [String: Any]
      else { continue }
      let records = try await memory.records(forKey: key)
      for (language, localization) in localizations {
        let tag = try #require(LanguageTag.normalize(language))
        let object = try #require(localization as? [String: Any])
        if let unit = object["stringUnit"] as? [String: Any], let value = unit["value"] as? String {
          #expect(
            records.first { $0.language == tag && $0.variant.isEmpty }?.value == value,
            "\(key) \(language)")
          checked += 1
        }
        if let cases = (object["variations"] as? [String: Any])?["plural"] as? [String: Any] {
          for (category, form) in cases {
            let value =
              ((form as? [String: Any])?["stringUnit"] as? [String: Any])?["value"] as? String
            #expect(
              records.first { $0.language == tag && $0.variant == "plural.\(category)" }?.value
                == value, "\(key) \(language) \(category)")
            plural += 1
          }
        }
      }
    }
    print(
      "IceCubes: \(checked) string units and \(plural) plural forms agree with JSONSerialization")
    #expect(checked > 10_000)
    #expect(plural > 0)
  }
}
