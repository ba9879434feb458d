import Foundation

/// Language codes as users and systems write them, normalised, and the order to try tables in.
public enum LanguageResolver {
  /// A BCP 47 tag from any common spelling: `pt_BR.UTF-8` → `pt-BR`, `zh_CN` → `zh-Hans`,
  /// `zh_TW` and `zh_HK` → `zh-Hant`, `en_US@euro` → `en-US`. Nil for `C`, `POSIX`, empty,
  /// and anything that is not a language tag (``isLanguageTag(_:)``): `-`, `_`, `../x`.
  public static func normalize(_ code: String) -> String? {
    var tag = code
    if let cut = tag.firstIndex(where: { $0 == "." || $0 == "@" }) { tag = String(tag[..<cut]) }
    tag = tag.replacingOccurrences(of: "_", with: "-").trimmingCharacters(in: .whitespaces)
    if tag == "C" || tag == "POSIX" || !isLanguageTag(tag) { return nil }
    var parts = tag.split(separator: "-").map(String.init)
    guard !parts.isEmpty else { return nil }
    parts[0] = parts[0].lowercased()
    for index in parts.indices.dropFirst() {
      let part = parts[index]
      if part.count == 4 {
        parts[index] = part.prefix(1).uppercased() + part.dropFirst().lowercased()  // script
      } else if part.count == 2 {
        parts[index] = part.uppercased()  // region
      }
    }
    // Chinese is localised by script; map the common regions to it.
    if parts[0] == "zh", parts.count >= 2, parts[1].count == 2 {
      let script = ["TW", "HK", "MO"].contains(parts[1]) ? "Hant" : "Hans"
      parts = ["zh", script]
    }
    return parts.joined(separator: "-")
  }

  /// Whether `name` is a language as tables, catalogs and `.lproj` folders name one: a BCP 47
  /// tag, or Apple's older spellings (`pt_BR`, `English`, `Base`). Anything else (`-`, `_`,
  /// `../x`, a space) is no language, and never a path.
  public static func isLanguageTag(_ name: String) -> Bool { LanguageName.isValid(name) }

  /// The languages the environment asks for, most wanted first: `LANGUAGE` (a `:` list, as
  /// gettext reads it, unless the locale is `C`), then `LC_ALL`, `LC_MESSAGES`, `LANG`, then
  /// Foundation's preferred languages.
  public static func preferredLanguages(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String] {
    var result: [String] = []
    func add(_ code: String?) {
      guard let code, let tag = normalize(code), !result.contains(tag) else { return }
      result.append(tag)
    }
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first {
      !$0.isEmpty
    }
    if let languages = environment["LANGUAGE"], locale.flatMap(normalize) != nil || locale == nil {
      for language in languages.split(separator: ":") { add(String(language)) }
    }
    add(locale)
    if locale == nil || locale.flatMap(normalize) == nil {
      for language in Locale.preferredLanguages { add(language) }
    }
    return result
  }

  /// The order in which to try the available languages for a list of preferred ones: each
  /// preferred language, then its shorter forms (`de-CH` → `de`), then the development
  /// language and `Base`. Available names may be written either way (`pt_BR` or `pt-BR`).
  public static func fallbackChain(
    preferred: [String], available: [String], developmentLanguage: String
  ) -> [String] {
    var byTag: [String: String] = [:]
    for name in available {
      if let tag = normalize(name), byTag[tag] == nil { byTag[tag] = name }
    }
    var chain: [String] = []
    func add(_ tag: String) {
      if let name = byTag[tag], !chain.contains(name) { chain.append(name) }
    }
    for language in preferred + [developmentLanguage] {
      guard var tag = normalize(language) else { continue }
      while true {
        add(tag)
        guard let dash = tag.lastIndex(of: "-") else { break }
        tag = String(tag[..<dash])
      }
    }
    if available.contains("Base"), !chain.contains("Base") { chain.append("Base") }
    return chain
  }
}
