import BundleKitLocalization
import Foundation

/// Language codes as tables and clients write them (`en_GB`, `en-GB`, `zh_CN`, `pt-BR`,
/// `de.lproj`), in one spelling, and the order in which to fall back from one to another.
public enum LanguageTag {
  /// The BCP 47 spelling of `code`: `en_GB` → `en-GB`, `zh_CN` → `zh-Hans`, `PT-br` → `pt-BR`;
  /// `Base` stays `Base`. Nil for empty, `C` and `POSIX`.
  public static func normalize(_ code: String) -> String? {
    let trimmed = code.trimmingCharacters(in: .whitespaces)
    if trimmed.caseInsensitiveCompare("Base") == .orderedSame { return "Base" }
    return LanguageResolver.normalize(trimmed)
  }

  /// The languages to try, in order, for `language` among `available`: the language itself,
  /// its shorter forms (`de-CH` → `de`), the same language with any region (`pt` finds `pt-BR`
  /// when there is no plain `pt`), then the development language and `Base`.
  public static func fallbackChain(
    for language: String, available: [String], developmentLanguage: String
  ) -> [String] {
    var chain = LanguageResolver.fallbackChain(
      preferred: [language], available: available, developmentLanguage: developmentLanguage)
    // A client asking for `pt` or `zh` still wants `pt-BR` or `zh-Hans` when that is all the
    // memory holds: insert regional forms of the base language before the development language.
    if let tag = normalize(language) {
      let base = tag.split(separator: "-").first.map(String.init) ?? tag
      let regional = available.filter {
        $0.hasPrefix(base + "-") && !chain.contains($0)
      }.sorted()
      if !regional.isEmpty {
        let developmentIndex =
          chain.firstIndex { normalize($0) == normalize(developmentLanguage) } ?? chain.endIndex
        let insertAt = base == normalize(developmentLanguage) ? chain.endIndex : developmentIndex
        chain.insert(contentsOf: regional, at: min(insertAt, chain.endIndex))
      }
    }
    return chain
  }

  /// The language's English name (`de` → `German`, `pt-BR` → `Portuguese (Brazil)`), or the
  /// code itself when the system does not know it.
  public static func englishName(of code: String) -> String {
    let english = Locale(identifier: "en")
    let parts = code.split(separator: "-").map(String.init)
    guard let language = parts.first, let name = english.localizedString(forLanguageCode: language)
    else { return code }
    guard parts.count > 1 else { return name }
    let qualifier: String? =
      parts[1].count == 4
      ? english.localizedString(forScriptCode: parts[1])
      : english.localizedString(forRegionCode: parts[1])
    return qualifier.map { "\(name) (\($0))" } ?? name
  }
}
