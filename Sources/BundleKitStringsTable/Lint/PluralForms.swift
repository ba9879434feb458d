import BundleKitDiagnostics
import BundleKitLocalization

/// Whether a plural rule's forms cover the numbers a language gives them: CoreFoundation
/// picks the form of the number's CLDR category and falls back to `other`.
enum PluralForms {
  /// What is wrong with a rule holding `categories` for `language` (nil: unknown, so only
  /// `other` is required), or nil when nothing is. `integersOnly`: the argument is a
  /// whole number (`d`, `ld`, `lld`, `u`), so a language's fraction-only category is not
  /// needed.
  static func problem(_ categories: Set<String>, language: String?, integersOnly: Bool)
    -> (severity: Diagnostic.Severity, message: String)?
  {
    // A table of no known language is held to `other` alone.
    guard let language = language.flatMap({ $0 == "Base" ? nil : $0 }) else {
      return categories.contains("other")
        ? nil : (.error, "has no 'other' form, which every language needs")
    }
    let integers = PluralRules.integerCategories(for: language)
    let missing = integers.filter { !categories.contains($0.key.rawValue) }
      .sorted { $0.value < $1.value }
    let name = "'\(language)'"
    if categories.contains("other") {
      // `other` alone is a rule that does not vary (`%lld`): on purpose, not a gap.
      guard categories.count > 1, let first = missing.first else { return nil }
      return (
        .warning,
        "has no '\(first.key.rawValue)' form, which \(name) uses for numbers such as \(first.value) (they get 'other')"
      )
    }
    // Without `other`, every number must find its own category.
    if let needed = missing.first(where: { $0.key == .other }) ?? missing.first {
      return (
        .error,
        "has no '\(needed.key.rawValue)' form\(needed.key == .other ? "" : " and no 'other'"), which \(name) uses for numbers such as \(needed.value): they would find no text"
      )
    }
    guard integersOnly else {
      return (
        .warning,
        "has no 'other' form, which \(name) uses for fractions: a fractional argument would find no text"
      )
    }
    return (
      .warning,
      "has no 'other' form: \(name) needs none for whole numbers, which its forms cover, but CLDR asks for it"
    )
  }
}
