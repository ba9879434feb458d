import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

struct PluralRulesTests {
  func category(_ number: String, _ language: String) -> PluralCategory {
    PluralRules.category(for: PluralOperands(decimal: number), language: language)
  }

  func expect(
    _ language: String, _ expected: PluralCategory, _ numbers: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for number in numbers {
      #expect(
        category(number, language) == expected, "\(language) \(number)",
        sourceLocation: sourceLocation)
    }
  }

  func range(_ bounds: ClosedRange<Int>) -> [String] { bounds.map(String.init) }

  // The samples below are CLDR's own (plurals.xml, the @integer and @decimal lists).

  @Test("English: one is exactly 1, and 1.0 is other")
  func english() {
    expect("en", .one, ["1"])
    expect("en", .other, ["0", "2", "16", "100", "1000", "1000000", "0.0", "1.0", "1.5", "2.0"])
  }

  @Test("French: 0 and 1 are one, millions are many")
  func french() {
    expect("fr", .one, ["0", "1", "0.0", "0.5", "1.0", "1.5"])
    expect("fr", .many, ["1000000", "2000000", "10000000"])
    expect("fr", .other, range(2...17) + ["100", "1000", "10000", "100000", "2.0", "2.5", "3.5"])
  }

  @Test("Russian: one, few, many, other")
  func russian() {
    expect("ru", .one, ["1", "21", "31", "41", "51", "61", "71", "81", "101", "1001"])
    expect(
      "ru", .few,
      range(2...4) + range(22...24) + range(32...34) + ["42", "52", "62", "102", "1002"])
    expect("ru", .many, ["0"] + range(5...19) + ["100", "1000", "10000", "100000", "1000000"])
    expect("ru", .other, ["0.0", "1.5", "10.0", "100.0", "1000.0"])
  }

  @Test("Polish: one is only 1, few and many by the last digits")
  func polish() {
    expect("pl", .one, ["1"])
    expect(
      "pl", .few,
      range(2...4) + range(22...24) + range(32...34) + ["42", "52", "62", "102", "1002"])
    expect("pl", .many, ["0"] + range(5...19) + ["21", "25", "100", "1000", "10000", "1000000"])
    expect("pl", .other, ["0.0", "1.5", "10.0", "100.0"])
  }

  @Test("Arabic: all six categories, decimals too")
  func arabic() {
    expect("ar", .zero, ["0", "0.0", "0.00"])
    expect("ar", .one, ["1", "1.0"])
    expect("ar", .two, ["2", "2.0"])
    expect("ar", .few, range(3...10) + range(103...110) + ["1003", "3.0", "10.0", "103.0"])
    expect("ar", .many, range(11...26) + ["111", "1011", "11.0", "99.0"])
    expect(
      "ar", .other,
      range(100...102) + range(200...202) + ["600", "1000", "10000", "0.1", "0.9", "1.1", "10.1"])
  }

  @Test("Japanese: only other")
  func japanese() {
    expect("ja", .other, ["0", "1", "2", "5", "11", "100", "1.5"])
    #expect(PluralRules.category(for: 1, language: "zh-Hans") == .other)
  }

  @Test("integers and floating-point values; regional and Apple spellings")
  func operands() {
    #expect(PluralRules.category(for: 21, language: "ru") == .one)
    #expect(PluralRules.category(for: PluralOperands(1.5), language: "en") == .other)
    #expect(PluralRules.category(for: PluralOperands(2.0), language: "ru") == .few)
    #expect(PluralRules.category(for: 0, language: "pt_BR") == .one)  // Brazilian: 0 and 1
    #expect(PluralRules.category(for: 0, language: "pt-PT") == .other)  // European: 1 only
    #expect(PluralRules.category(for: 1, language: "de-CH") == .one)
    let operands = PluralOperands(decimal: "1.50")
    #expect(
      operands.i == 1 && operands.v == 2 && operands.w == 1 && operands.f == 50 && operands.t == 5)
  }

  @Test("agrees with Babel's evaluation of CLDR for seventeen languages")
  func babel() throws {
    let path = Corpus.packageRoot.appendingPathComponent(
      "Tests/LocalizationTests/Fixtures/plural-samples.json"
    ).path
    let fixture = try PropertyListDocument(contentsOfFile: path).value
    #expect(fixture["cldr"]?.stringValue == PluralRules.cldrVersion)
    let samples = try #require(fixture["samples"]?.dictionaryValue)
    var checked = 0
    for (language, numbers) in samples {
      for (number, expected) in numbers.dictionaryValue ?? [:] {
        #expect(
          category(number, language).rawValue == expected.stringValue, "\(language) \(number)")
        checked += 1
      }
    }
    #expect(checked > 2_000)
  }
}

struct LanguageTests {
  @Test("codes normalised from POSIX, BCP 47 and Apple spellings")
  func normalize() {
    #expect(LanguageResolver.normalize("pt_BR.UTF-8") == "pt-BR")
    #expect(LanguageResolver.normalize("pt-br") == "pt-BR")
    #expect(LanguageResolver.normalize("zh_CN") == "zh-Hans")
    #expect(LanguageResolver.normalize("zh_TW.UTF-8") == "zh-Hant")
    #expect(LanguageResolver.normalize("zh-hans") == "zh-Hans")
    #expect(LanguageResolver.normalize("en_US@euro") == "en-US")
    #expect(LanguageResolver.normalize("C") == nil)
    #expect(LanguageResolver.normalize("POSIX") == nil)
  }

  @Test("the environment: LANGUAGE list, then LC_ALL, LC_MESSAGES, LANG")
  func environment() {
    #expect(
      LanguageResolver.preferredLanguages(environment: ["LANG": "fr_FR.UTF-8"]).first == "fr-FR")
    #expect(
      LanguageResolver.preferredLanguages(environment: [
        "LANG": "fr_FR.UTF-8", "LC_ALL": "de_DE.UTF-8",
      ]).first == "de-DE")
    #expect(
      Array(
        LanguageResolver.preferredLanguages(environment: [
          "LANGUAGE": "pl:ru", "LANG": "en_US.UTF-8",
        ]).prefix(3)) == ["pl", "ru", "en-US"])
    #expect(
      LanguageResolver.preferredLanguages(environment: ["LANGUAGE": "pl", "LANG": "C"]).contains(
        "pl") == false)
  }

  @Test("fallback chain: specific, shorter, development language, Base")
  func chain() {
    let available = ["Base", "de", "en", "pt_BR", "zh-Hans"]
    #expect(
      LanguageResolver.fallbackChain(
        preferred: ["de-CH"], available: available, developmentLanguage: "en") == [
          "de", "en", "Base",
        ])
    #expect(
      LanguageResolver.fallbackChain(
        preferred: ["pt-BR"], available: available, developmentLanguage: "en") == [
          "pt_BR", "en", "Base",
        ])
    #expect(
      LanguageResolver.fallbackChain(
        preferred: ["zh_CN"], available: available, developmentLanguage: "en") == [
          "zh-Hans", "en", "Base",
        ])
    #expect(
      LanguageResolver.fallbackChain(
        preferred: ["ja"], available: available, developmentLanguage: "en") == ["en", "Base"])
  }
}
