import BundleKitDiagnostics
import BundleKitLocalization
import BundleKitPropertyListCore

/// `.strings` and `.stringsdict` tables as Xcode's XLIFF units, and back.
///
/// A `.strings` unit's id is its key. A `.stringsdict` has one unit for each entry's format
/// (`/key:dict/NSStringLocalizedFormatKey:dict/:string`) and one for each plural form
/// (`/key:dict/VARIABLE:dict/one:dict/:string`), the forms following the target language's
/// categories. Imports rewrite the target language's table in Xcode's layout, keeping every
/// entry it had that the XLIFF does not mention.
enum StringsExchange {
  /// `DIR/en.lproj/T.strings` for `fr`: `DIR/fr.lproj/T.strings`; nil when the path is not
  /// in a `.lproj` folder.
  static func translatedPath(_ path: String, language: String) -> String? {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return nil }
    parts[parts.count - 2] = language + ".lproj"
    return parts.joined(separator: "/")
  }

  // MARK: .strings

  /// One unit per key of the development table, ordered by key as Xcode orders them, with
  /// the translation from `target` when it has one (no `state`: Xcode gives a `.strings`
  /// translation none) and the comment as written as its note.
  static func units(strings source: StringsFile, target: StringsFile?) -> [XLIFFDocument.Unit] {
    var units: [XLIFFDocument.Unit] = []
    var seen: Set<String> = []
    for entry in source.entries where seen.insert(entry.key).inserted {
      guard let value = source.dictionary[entry.key]?.stringValue else { continue }
      let translation = target?.dictionary[entry.key]?.stringValue
      units.append(
        XLIFFDocument.Unit(
          id: entry.key, source: value, target: translation, state: nil,
          note: entry.commentAsWritten ?? entry.comment))
    }
    return units.sorted { numericOrder($0.id, $1.id) }
  }

  /// Xcode's order of a `.strings` table's units: by code point, case first
  /// ("CreateWithKeyword" before "Created"), a run of digits by its value ("Last6Months"
  /// before "Last12Months"); the whole ids decide a tie ("01" and "1").
  static func numericOrder(_ a: String, _ b: String) -> Bool {
    let x = Array(a.unicodeScalars)
    let y = Array(b.unicodeScalars)
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }
    var i = 0
    var j = 0
    while i < x.count, j < y.count {
      if isDigit(x[i]), isDigit(y[j]) {
        var endI = i
        var endJ = j
        while endI < x.count, isDigit(x[endI]) { endI += 1 }
        while endJ < y.count, isDigit(y[endJ]) { endJ += 1 }
        // Values compared without converting: leading zeros dropped, then length, then digits.
        var startI = i
        var startJ = j
        while startI < endI - 1, x[startI] == "0" { startI += 1 }
        while startJ < endJ - 1, y[startJ] == "0" { startJ += 1 }
        let lengthI = endI - startI
        let lengthJ = endJ - startJ
        if lengthI != lengthJ { return lengthI < lengthJ }
        for (p, q) in zip(x[startI..<endI], y[startJ..<endJ]) where p != q {
          return p.value < q.value
        }
        i = endI
        j = endJ
        continue
      }
      if x[i] != y[j] { return x[i].value < y[j].value }
      i += 1
      j += 1
    }
    if (x.count - i) != (y.count - j) { return (x.count - i) < (y.count - j) }
    return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
  }

  /// Merges a file's units into the language's `.strings` table (`target`, nil when it does
  /// not exist yet): the table is written again in the development table's order, each entry
  /// under its comment, entries only the translation has kept next, then units the
  /// development table lacks.
  ///
  /// Xcode exports a `.strings` table with the strings it extracts from code, which the table
  /// may not hold, and imports them: so does this, with one warning for the file. With
  /// `addingUnknown` false (the development language's own table) they are left out.
  static func apply(
    _ file: XLIFFDocument.File, source: StringsFile, target: StringsFile?, xliffPath: String,
    addingUnknown: Bool = true, created: Bool = false
  ) -> CatalogExchange.Applied {
    var applied = CatalogExchange.Applied()
    var values: [String: String] = [:]
    var unknown: [XLIFFDocument.Unit] = []
    var unknownCount = 0
    for unit in file.units {
      let known = source.dictionary[unit.id]?.stringValue
      if known == nil { unknownCount += 1 }
      guard let value = known ?? (addingUnknown ? unit.source : nil) else { continue }
      // An empty target is no translation, except for an empty source (FocusedWork's
      // `"STORE_KEYWORDS" = "";`, which Xcode exports as `<target/>`).
      guard let translation = unit.target, !translation.isEmpty || value.isEmpty,
        target?.dictionary[unit.id]?.stringValue != translation
      else { continue }
      // Only a translation that changes the table is checked (the table's own is the
      // project's, whatever its placeholders).
      guard
        check(
          unit, translation: translation, source: value, plural: false, into: &applied, xliffPath)
      else { continue }
      values[unit.id] = translation
      if known == nil { unknown.append(unit) }
      applied.changed += 1
    }
    if created {
      // A table with no translation to take is not created: nothing to say.
      if applied.changed > 0 {
        applied.diagnostics.append(
          Diagnostic(
            .warning, path: xliffPath, line: file.line, column: file.column,
            "\(source.path) does not exist: created with \(applied.changed) of its \(unknownCount) unit\(unknownCount == 1 ? "" : "s"), as Xcode creates it on import (an Info.plist's strings, or strings from code)"
          ))
      }
    } else if unknownCount > 0 {
      applied.diagnostics.append(
        Diagnostic(
          .warning, path: xliffPath, line: file.line, column: file.column,
          "\(unknownCount) unit\(unknownCount == 1 ? " is" : "s are") not in \(source.path) (Xcode exports the strings it extracts from code, or an intent definition's, with the table): \(addingUnknown ? "imported with the others" : "left out of the development language's table")"
        ))
    }
    guard applied.changed > 0, !applied.diagnostics.contains(where: { $0.severity == .error })
    else { return applied }
    var blocks: [String] = []
    var written: Set<String> = []
    for entry in source.entries where written.insert(entry.key).inserted {
      guard let value = values[entry.key] ?? target?.dictionary[entry.key]?.stringValue else {
        continue
      }
      blocks.append(StringsText.entry(key: entry.key, value: value, comment: entry.comment))
    }
    for entry in target?.entries ?? [] where written.insert(entry.key).inserted {
      guard let value = values[entry.key] ?? target?.dictionary[entry.key]?.stringValue else {
        continue
      }
      blocks.append(StringsText.entry(key: entry.key, value: value, comment: entry.comment))
    }
    for unit in unknown where written.insert(unit.id).inserted {
      guard let value = values[unit.id] else { continue }
      blocks.append(StringsText.entry(key: unit.id, value: value, comment: unit.note))
    }
    let encoding = target?.encoding ?? .utf8
    let marks: [UInt8] =
      switch encoding {
      case .utf8: []
      case .utf8WithBOM: [0xEF, 0xBB, 0xBF]
      case .utf16LittleEndian: [0xFF, 0xFE]
      case .utf16BigEndian: [0xFE, 0xFF]
      }
    applied.bytes = marks + StringsText.encode(blocks.joined(separator: "\n"), as: encoding)
    return applied
  }

  // MARK: .stringsdict

  /// Where a `.stringsdict` unit points: the entry, and the variable and category (both nil
  /// for the format).
  struct DictPath: Hashable {
    var key: String
    var variable: String?
    var category: String?
  }

  static let formatKey = "NSStringLocalizedFormatKey"

  static func id(_ path: DictPath) -> String {
    guard let variable = path.variable, let category = path.category else {
      return "/\(path.key):dict/\(formatKey):dict/:string"
    }
    return "/\(path.key):dict/\(variable):dict/\(category):dict/:string"
  }

  /// The variables of an entry (every dictionary value but the format), in order.
  static func variables(_ entry: PropertyListDictionary) -> [(String, PropertyListDictionary)] {
    entry.compactMap { name, value in
      guard name != formatKey, let rule = value.dictionaryValue else { return nil }
      return (name, rule)
    }
  }

  /// Every unit of the development `.stringsdict`, forms following `language`'s categories
  /// (a form the source lacks gets the source's `other`), ordered by id as Xcode orders them
  /// (`…:dict/one`, `…:dict/other`, `…:dict/zero`: Xcode 13 and 14's exports).
  static func units(
    stringsdict source: StringsdictFile, target: StringsdictFile?, language: String,
    cache: inout [String: [String]]
  ) -> [XLIFFDocument.Unit] {
    var units: [XLIFFDocument.Unit] = []
    for (key, value) in source.entries {
      guard let entry = value.dictionaryValue, let format = entry[formatKey]?.stringValue else {
        continue
      }
      let translated = target?.entries[key]?.dictionaryValue
      let translatedFormat = translated?[formatKey]?.stringValue
      units.append(
        XLIFFDocument.Unit(
          id: id(DictPath(key: key)), source: format, target: translatedFormat, state: nil,
          note: nil))
      for (variable, rule) in variables(entry) {
        let targetRule = translated?[variable]?.dictionaryValue
        let existing = (targetRule?.keys.filter(StringsdictFile.pluralCategories.contains)) ?? []
        let categories = CatalogExchange.categories(
          language, existing: existing, sourceHasZero: rule["zero"] != nil, cache: &cache)
        for category in categories {
          let text = (rule[category] ?? rule["other"])?.stringValue ?? ""
          let translation = targetRule?[category]?.stringValue
          units.append(
            XLIFFDocument.Unit(
              id: id(DictPath(key: key, variable: variable, category: category)), source: text,
              target: translation, state: nil, note: nil))
        }
      }
    }
    return units.sorted { numericOrder($0.id, $1.id) }
  }

  /// Merges a file's units into the language's `.stringsdict` (`target`, nil when it does not
  /// exist yet), written as an XML property list; entries it had that the XLIFF does not
  /// mention are kept.
  static func apply(
    _ file: XLIFFDocument.File, source: StringsdictFile, target: StringsdictFile?,
    xliffPath: String, cache: inout [String: [String]]
  ) throws(PropertyListError) -> CatalogExchange.Applied {
    var applied = CatalogExchange.Applied()
    guard let language = file.targetLanguage else { return applied }
    var known: [String: DictPath] = [:]
    for (key, value) in source.entries {
      guard let entry = value.dictionaryValue else { continue }
      known[id(DictPath(key: key))] = DictPath(key: key)
      for (variable, _) in variables(entry) {
        for category in StringsdictFile.pluralCategories {
          let path = DictPath(key: key, variable: variable, category: category)
          known[id(path)] = path
        }
      }
    }
    let allowed = Set(
      CatalogExchange.categories(language, existing: [], sourceHasZero: true, cache: &cache))
    var entries = target?.entries ?? [:]
    for unit in file.units {
      guard let path = known[unit.id] else {
        applied.diagnostics.append(
          .error(
            xliffPath, line: unit.line, column: unit.column,
            "\"\(unit.id)\" names no entry, variable or plural form of \(source.path)"))
        continue
      }
      guard let translation = unit.target, !translation.isEmpty else { continue }
      guard let sourceEntry = source.entries[path.key]?.dictionaryValue else { continue }
      // The table's own translation is not checked (a form the language lacks included):
      // importing it changes nothing.
      let current = target?.entries[path.key]?.dictionaryValue
      let held =
        if let variable = path.variable, let category = path.category {
          current?[variable]?.dictionaryValue?[category]?.stringValue
        } else {
          current?[formatKey]?.stringValue
        }
      guard held != translation else { continue }
      if let category = path.category, !allowed.contains(category) {
        applied.diagnostics.append(
          .error(
            xliffPath, line: unit.line, column: unit.column,
            "'\(category)' is not a plural category of '\(language)' (it has \(CatalogExchange.pluralOrder.filter(allowed.contains).joined(separator: ", ")))"
          ))
        continue
      }
      guard
        check(
          unit, translation: translation, source: unit.source, plural: path.category != nil,
          into: &applied, xliffPath)
      else { continue }
      // A new entry starts from the source's shape: its format and each variable's type
      // keys, no text.
      var entry =
        entries[path.key]?.dictionaryValue
        ?? sourceEntry.mapValues { value in
          guard var rule = value.dictionaryValue else { return value }
          for category in StringsdictFile.pluralCategories { rule[category] = nil }
          return .dictionary(rule)
        }
      if let variable = path.variable, let category = path.category {
        var rule = entry[variable]?.dictionaryValue ?? sourceEntry[variable]?.dictionaryValue ?? [:]
        guard rule[category]?.stringValue != translation else { continue }
        rule[category] = .string(translation)
        entry[variable] = .dictionary(rule)
      } else {
        guard entry[formatKey]?.stringValue != translation || target?.entries[path.key] == nil
        else { continue }
        entry[formatKey] = .string(translation)
      }
      entries[path.key] = .dictionary(entry)
      applied.changed += 1
    }
    if applied.changed > 0, !applied.diagnostics.contains(where: { $0.severity == .error }) {
      applied.bytes = try PropertyListValue.dictionary(entries).encoded(as: .xml1)
    }
    return applied
  }

  // MARK: Placeholders

  /// Whether the translation passes the source's arguments; an error refusing the unit
  /// (false) for one it does not have or of another type, a warning for one it leaves out
  /// (not for plural forms, which often spell the number out). A `%` before a space and a
  /// word is text, as lint reads it ("50% of" and its translation "50 % der"), unless the
  /// source uses that very placeholder. A source with no placeholder is not used as a
  /// format, so a `%` its translation adds ("50 %ige Chance") is a warning, not a refusal:
  /// Xcode imports those translations (Ketchup's German).
  static func check(
    _ unit: XLIFFDocument.Unit, translation: String, source: String, plural: Bool,
    into applied: inout CatalogExchange.Applied, _ xliffPath: String
  ) -> Bool {
    var accepted = true
    let sourceSpecifiers = StringsLinter.lintSpecifiers(source)
    let translationSpecifiers = StringsLinter.lintSpecifiers(
      translation, formatted: Set(sourceSpecifiers.map(\.text)))
    for problem in StringsLinter.compare(
      FormatSignature(specifiers: translationSpecifiers),
      with: FormatSignature(specifiers: sourceSpecifiers))
    {
      if problem.severity == .error, !sourceSpecifiers.isEmpty {
        applied.refused.append(
          .error(
            xliffPath, line: unit.line, column: unit.column,
            "\(StringsFile.literal(unit.id)): the translation \(problem.message)"))
        accepted = false
      } else if problem.severity == .error || !plural {
        applied.diagnostics.append(
          Diagnostic(
            .warning, path: xliffPath, line: unit.line, column: unit.column,
            "\(StringsFile.literal(unit.id)): the translation \(problem.message)"))
      }
    }
    return accepted
  }
}
