import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation

/// Fills a String Catalog's missing languages: each entry without a localization in a
/// language gets one shaped like the source language's (plural cases for the target
/// language's categories), every string unit `needs_review`. The file is written as Xcode
/// writes it: key-sorted, pretty-printed JSON with ` : ` separators.
struct CatalogFill: FileJob {
  let path: String
  let table: String
  private let languages: [String]
  private let bytes: [UInt8]
  private let root: [String: Any]
  private let sourceLanguage: String
  /// Per entry and language: the localization template and its texts (variant, source text).
  private let missing: [(key: String, language: String, template: Any, texts: [(String, String)])]

  init(path: String, languages: [String], table: String) throws {
    self.path = path
    self.table = table
    self.languages = languages
    bytes = try FileIO.read(path)
    // The model checks the catalog (and names the line of a bad entry) before JSON is edited.
    let catalog = try StringCatalog(bytes: bytes, path: path)
    guard let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
      throw TranslationError.unreadableTable(path: path, message: "not a JSON object")
    }
    self.root = root
    sourceLanguage = catalog.sourceLanguage
    let strings = root["strings"] as? [String: Any] ?? [:]
    var missing: [(String, String, Any, [(String, String)])] = []
    for key in strings.keys.sorted() {
      guard let entry = strings[key] as? [String: Any],
        (entry["shouldTranslate"] as? Bool) != false
      else { continue }
      let localizations = entry["localizations"] as? [String: Any] ?? [:]
      let present = Set(localizations.keys.compactMap(LanguageTag.normalize))
      // The source language's localization, or the key itself as a plain unit.
      let source =
        localizations[catalog.sourceLanguage]
        ?? ["stringUnit": ["state": "translated", "value": key]] as [String: Any]
      for language in languages where !present.contains(language) {
        let template = Self.template(source, language: language)
        let texts = Self.texts(template, path: [])
        guard !texts.isEmpty, texts.allSatisfy({ !$0.1.isEmpty }) else { continue }
        missing.append((key, language, template, texts))
      }
    }
    self.missing = missing
  }

  /// The localization with plural variations' cases made the target language's.
  static func template(_ node: Any, language: String) -> Any {
    guard let object = node as? [String: Any] else { return node }
    var result: [String: Any] = [:]
    for (name, value) in object {
      if name == "plural", let cases = value as? [String: Any] {
        var plural: [String: Any] = [:]
        for category in PluralRules.categories(for: language) {
          if let form = cases[category.rawValue] ?? cases["other"] {
            plural[category.rawValue] = template(form, language: language)
          }
        }
        result[name] = plural
      } else {
        result[name] = template(value, language: language)
      }
    }
    return result
  }

  /// The texts in a localization with their variant paths, named as the memory names them.
  static func texts(_ node: Any, path: [String]) -> [(String, String)] {
    guard let object = node as? [String: Any] else { return [] }
    var result: [(String, String)] = []
    if let unit = object["stringUnit"] as? [String: Any], let value = unit["value"] as? String {
      result.append((path.joined(separator: "."), value))
    }
    if let variations = object["variations"] as? [String: Any] {
      for kind in variations.keys.sorted() {
        for (name, child) in (variations[kind] as? [String: Any] ?? [:]).sorted(by: {
          $0.key < $1.key
        }) {
          result += texts(child, path: path + [kind, name])
        }
      }
    }
    if let substitutions = object["substitutions"] as? [String: Any] {
      for (name, substitution) in substitutions.sorted(by: { $0.key < $1.key }) {
        guard let variations = (substitution as? [String: Any])?["variations"] as? [String: Any]
        else { continue }
        for kind in variations.keys.sorted() {
          for (category, child) in (variations[kind] as? [String: Any] ?? [:]).sorted(by: {
            $0.key < $1.key
          }) {
            result += texts(child, path: path + ["substitutions", name, kind, category])
          }
        }
      }
    }
    return result
  }

  /// The template with every string unit's value translated and marked `needs_review`.
  static func filled(_ node: Any, path: [String], _ lookup: (String) -> String?) -> Any? {
    guard var object = node as? [String: Any] else { return node }
    if object["stringUnit"] is [String: Any] {
      guard let text = lookup(path.joined(separator: ".")) else { return nil }
      object["stringUnit"] = ["state": "needs_review", "value": text]
    }
    if var variations = object["variations"] as? [String: Any] {
      for (kind, cases) in variations {
        var filledCases: [String: Any] = [:]
        for (name, child) in cases as? [String: Any] ?? [:] {
          guard let value = filled(child, path: path + [kind, name], lookup) else { return nil }
          filledCases[name] = value
        }
        variations[kind] = filledCases
      }
      object["variations"] = variations
    }
    if var substitutions = object["substitutions"] as? [String: Any] {
      for (name, substitution) in substitutions {
        guard var body = substitution as? [String: Any],
          var variations = body["variations"] as? [String: Any]
        else { continue }
        for (kind, cases) in variations {
          var filledCases: [String: Any] = [:]
          for (category, child) in cases as? [String: Any] ?? [:] {
            guard
              let value = filled(
                child, path: path + ["substitutions", name, kind, category], lookup)
            else { return nil }
            filledCases[category] = value
          }
          variations[kind] = filledCases
        }
        body["variations"] = variations
        substitutions[name] = body
      }
      object["substitutions"] = substitutions
    }
    return object
  }

  var needs: [FillNeed] {
    missing.flatMap { entry in
      entry.texts.map {
        FillNeed(language: entry.language, text: $0.1, table: table, key: entry.key, variant: $0.0)
      }
    }
  }

  func apply(
    found: [FillNeed: (String, FillOrigin)], failures: [FillNeed: String], to plan: inout FillPlan
  ) throws {
    var strings = root["strings"] as? [String: Any] ?? [:]
    var changed = false
    for entry in missing {
      var failure: String?
      var origins: [String: FillOrigin] = [:]
      let localization = Self.filled(entry.template, path: []) { variant in
        let text = entry.texts.first { $0.0 == variant }?.1 ?? ""
        let need = FillNeed(
          language: entry.language, text: text, table: table, key: entry.key, variant: variant)
        guard let (translation, origin) = found[need] else {
          failure = failure ?? failures[need] ?? "no translation"
          return nil
        }
        origins[variant] = origin
        return translation
      }
      guard let localization, var object = strings[entry.key] as? [String: Any] else {
        plan.unfilled.append(
          UnfilledEntry(
            path: path, key: entry.key, language: entry.language,
            reason: failure ?? "no translation"))
        continue
      }
      var localizations = object["localizations"] as? [String: Any] ?? [:]
      localizations[entry.language] = localization
      object["localizations"] = localizations
      strings[entry.key] = object
      changed = true
      for (variant, value) in Self.texts(localization, path: []) {
        plan.filled.append(
          FilledEntry(
            path: path, key: entry.key, variant: variant, language: entry.language, value: value,
            origin: origins[variant] ?? .memory))
      }
    }
    guard changed else { return }
    var newRoot = root
    newRoot["strings"] = strings
    let data = try JSONSerialization.data(
      withJSONObject: newRoot, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    var after = [UInt8](data)
    // Xcode writes no final line break; keep one if the file had it.
    if bytes.last == 0x0A, after.last != 0x0A { after.append(0x0A) }
    // Must read back as a catalog.
    _ = try StringCatalog(bytes: after, path: path)
    plan.changes.append(FillPlan.Change(path: path, before: bytes, after: after))
  }
}
