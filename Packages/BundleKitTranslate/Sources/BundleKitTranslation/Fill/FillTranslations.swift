import Foundation

/// Finds translations for fill needs: memories first (the same key and form when it has the
/// same source text, else the same text anywhere), then the remote provider in batches.
struct FillTranslations {
  let memories: [TranslationMemory]
  let remote: LibreTranslateClient?
  let developmentLanguage: String

  /// The translation of each need that has one, with its origin; failures of the provider
  /// come back as the reason per need.
  func resolve(_ needs: [FillNeed]) async -> (
    found: [FillNeed: (String, FillOrigin)], failures: [FillNeed: String]
  ) {
    var found: [FillNeed: (String, FillOrigin)] = [:]
    var failures: [FillNeed: String] = [:]
    var remaining: [FillNeed] = []
    for need in needs {
      if !Self.needsTranslator(need.text) {
        found[need] = (need.text, .copied)
      } else if let text = await fromMemories(need) {
        found[need] = (text, .memory)
      } else {
        remaining.append(need)
      }
    }
    guard let remote else {
      for need in remaining { failures[need] = "no translation in the memory" }
      return (found, failures)
    }
    // One batch per language (in chunks a server accepts), each text asked once.
    let byLanguage = Dictionary(grouping: remaining, by: \.language)
    for language in byLanguage.keys.sorted() {
      let group = byLanguage[language] ?? []
      var texts: [String] = []
      for need in group where !texts.contains(need.text) { texts.append(need.text) }
      var translated: [String: String] = [:]
      var failure: String?
      for start in stride(from: 0, to: texts.count, by: 100) {
        let chunk = Array(texts[start..<min(start + 100, texts.count)])
        do {
          let answers = try await remote.translate(chunk, from: developmentLanguage, to: language)
          // An answer equal to the question is no translation (BundleKit's own server gives
          // the text back when its memory lacks it).
          for (text, answer) in zip(chunk, answers) where !answer.isEmpty && answer != text {
            translated[text] = answer
          }
        } catch {
          failure = "the provider failed: \(error)"
        }
      }
      for need in group {
        if let text = translated[need.text] {
          found[need] = (text, .provider)
        } else {
          failures[need] = failure ?? "the provider has no translation"
        }
      }
    }
    return (found, failures)
  }

  private func fromMemories(_ need: FillNeed) async -> String? {
    for memory in memories {
      // The same entry elsewhere (another bundle with this table), when its source agrees or
      // the form has no source of its own (a plural category the development language lacks).
      if let records = try? await memory.records(
        forKey: need.key, table: need.table, language: need.language)
      {
        if let record = records.first(where: {
          $0.language == need.language && $0.variant == need.variant
            && ($0.source == need.text || $0.source == nil) && !$0.value.isEmpty
            && $0.value != need.text
        }) {
          return record.value
        }
      }
      guard
        let matches = try? await memory.matches(
          for: need.text, to: need.language, from: developmentLanguage, fuzzy: false, limit: 20)
      else { continue }
      // A value equal to its source in another language is an untranslated copy: filling
      // with it would only hide that the text still needs a translator.
      let exact = matches.filter {
        $0.kind == .exact && $0.language == need.language && $0.translation != need.text
      }
      let sameEntry = exact.first { $0.record.key == need.key && $0.record.variant == need.variant }
      // A plural case the source lacks (Russian `many` from English `other`): the matching
      // entry's own case of that category, when it has one.
      if let category = Self.pluralCategory(of: need.variant) {
        for candidate in exact {
          guard
            let sibling = Self.pluralCategory(of: candidate.record.variant).map({ _ in
              candidate.record.variant.split(separator: ".").dropLast().joined(separator: ".")
                + ".\(category)"
            })
          else { continue }
          if sibling == candidate.record.variant { return candidate.translation }
          let relatives =
            (try? await memory.records(
              forKey: candidate.record.key, table: candidate.record.table, language: need.language))
            ?? []
          if let relative = relatives.first(where: {
            $0.variant == sibling && $0.bundle == candidate.record.bundle
              && $0.language == need.language && !$0.value.isEmpty
          }) {
            return relative.value
          }
        }
      }
      if let best = sameEntry ?? exact.first, !best.translation.isEmpty {
        return best.translation
      }
    }
    return nil
  }

  /// The plural category a variant path ends in (`files.few` → `few`), if any.
  static func pluralCategory(of variant: String) -> String? {
    guard let last = variant.split(separator: ".").last.map(String.init),
      ["zero", "one", "two", "few", "many", "other"].contains(last)
    else { return nil }
    return last
  }

  /// Whether a text has words to translate: a format made only of placeholders
  /// (`%#@files@`, `%1$@ %2$d`) is the same in every language.
  static func needsTranslator(_ text: String) -> Bool {
    var scalars = text.unicodeScalars[...]
    while let first = scalars.first {
      scalars = scalars.dropFirst()
      if first == "%" {
        // `%#@name@`: up to the closing `@`; else flags and width up to the conversion.
        if scalars.first == "#", scalars.dropFirst().first == "@" {
          scalars = scalars.dropFirst(2)
          if let end = scalars.firstIndex(of: "@") {
            scalars = scalars[scalars.index(after: end)...]
          }
          continue
        }
        while let next = scalars.first {
          scalars = scalars.dropFirst()
          if next.properties.isAlphabetic || next == "@" || next == "%" {
            // Length modifiers (l, ll, h, q, z, t, j) come before the conversion.
            if "lhqztjL".unicodeScalars.contains(next) { continue }
            break
          }
        }
        continue
      }
      if first.properties.isAlphabetic { return true }
    }
    return false
  }
}
