import BundleKitTranslation
import Testing

@Suite("Language codes")
struct LanguageTagTests {
  @Test(
    "Spellings normalise to BCP 47",
    arguments: [
      ("en_GB", "en-GB"), ("en-GB", "en-GB"), ("EN-gb", "en-GB"), ("zh_CN", "zh-Hans"),
      ("zh-Hans", "zh-Hans"), ("zh_TW", "zh-Hant"), ("pt_BR", "pt-BR"), ("pt-BR", "pt-BR"),
      ("de", "de"), ("Base", "Base"), ("sr_Latn_RS", "sr-Latn-RS"),
    ])
  func normalize(_ input: String, _ expected: String) {
    #expect(LanguageTag.normalize(input) == expected)
  }

  @Test("Empty, C and POSIX name no language")
  func noLanguage() {
    #expect(LanguageTag.normalize("") == nil)
    #expect(LanguageTag.normalize("C") == nil)
    #expect(LanguageTag.normalize("POSIX") == nil)
  }

  @Test("de-CH falls back to de, then the development language")
  func fallback() {
    let available = ["de", "en", "fr", "pt-BR", "zh-Hans", "Base"]
    #expect(
      LanguageTag.fallbackChain(for: "de-CH", available: available, developmentLanguage: "en")
        == ["de", "en", "Base"])
    #expect(
      LanguageTag.fallbackChain(for: "de_CH", available: available, developmentLanguage: "en")
        == ["de", "en", "Base"])
    // A bare language finds its regional or script form when that is all there is.
    #expect(
      LanguageTag.fallbackChain(for: "pt", available: available, developmentLanguage: "en")
        == ["pt-BR", "en", "Base"])
    #expect(
      LanguageTag.fallbackChain(for: "zh_CN", available: available, developmentLanguage: "en")
        == ["zh-Hans", "en", "Base"])
    #expect(
      LanguageTag.fallbackChain(for: "ja", available: available, developmentLanguage: "en")
        == ["en", "Base"])
  }

  @Test("English names for /languages")
  func names() {
    #expect(LanguageTag.englishName(of: "de") == "German")
    #expect(LanguageTag.englishName(of: "pt-BR") == "Portuguese (Brazil)")
    // ICU words scripts its own way ("Simplified" or "Simplified Han").
    #expect(LanguageTag.englishName(of: "zh-Hans").hasPrefix("Chinese (Simplified"))
  }
}

@Suite("Text matching")
struct MatchingTests {
  @Test("Normalisation sets case, punctuation and white space aside")
  func normalize() {
    #expect(TextNormalizer.normalize("  Hello,\tWORLD!! ") == "hello world")
    #expect(TextNormalizer.normalize("on/off") == "on off")
    #expect(TextNormalizer.normalize("Café – 3 items…") == "café 3 items")
    #expect(TextNormalizer.normalize("?!") == "")
  }

  @Test("Bigram similarity: identical 1, disjoint 0, near in between")
  func similarity() {
    func score(_ a: String, _ b: String) -> Double {
      BigramProfile(normalized: a).similarity(to: BigramProfile(normalized: b))
    }
    #expect(score("cancel", "cancel") == 1)
    #expect(score("abc", "xyz") == 0)
    let near = score("cancel", "cancl")
    #expect(near > 0.6 && near < 1)
    #expect(score("open the door", "open the doors") > score("open the door", "close a window"))
    // Dice's coefficient over the bigrams as a multiset, worked by hand: "night" and "nacht"
    // share "ht" of 4 + 4; "aaaa" holds "aa" three times and "aa" once, one shared of 3 + 1;
    // "日本語" and "日本" share "日本" of 2 + 1 (scalars, not bytes). A text of one scalar is
    // its own profile, which no bigram matches; two empty texts are alike.
    #expect(score("night", "nacht") == 0.25)
    #expect(score("aaaa", "aa") == 0.5)
    #expect(score("日本語", "日本") == 2.0 * 1 / 3)
    #expect(score("a", "a") == 1)
    #expect(score("a", "b") == 0)
    #expect(score("a", "ab") == 0)
    #expect(score("", "") == 1)
    #expect(score("", "ab") == 0)
  }
}
