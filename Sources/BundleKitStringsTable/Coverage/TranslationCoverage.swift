/// How much of each table is translated into each language: the gate a team puts in CI
/// (`bundlekit strings coverage --min 0.9`).
///
/// The keys a table must have are its development language's: the keys of its
/// `<dev>.lproj` `.strings` and `.stringsdict` together, or a catalog's keys that are to be
/// translated and not stale. A `.strings` or `.stringsdict` key counts as translated in a
/// language when that language's file of the table has it; a catalog key when every string
/// unit of the language's localization (variations and substitutions included) is in state
/// `translated`; `needs_review` and `new` count as not yet. A regional variant (`de-CH`)
/// counts what it inherits from its base (`de`), as the app shows it.
public struct TranslationCoverage: Sendable {
  /// One language of one table.
  public struct Row: Sendable, Hashable, Encodable {
    /// The folder holding the table's `.lproj` folders (or the catalog).
    public var bundleFolder: String
    /// The table's name (`Localizable`).
    public var table: String
    /// The language.
    public var language: String
    /// The keys translated.
    public var translated: Int
    /// The keys the development language has.
    public var total: Int
    /// The keys not translated, sorted.
    public var missing: [String]

    /// The translated share, 1 for a table without keys.
    public var share: Double { total == 0 ? 1 : Double(translated) / Double(total) }
  }

  /// Every language of every table, sorted by folder, table and language.
  public var rows: [Row] = []

  /// Works out the coverage of the tables loaded.
  ///
  /// - Parameters:
  ///   - loaded: The tables, as ``StringsTableSet/load(_:)`` reads them.
  ///   - developmentLanguage: The language of the `.lproj` tables' keys (catalogs name
  ///     their own).
  public init(_ loaded: StringsTableSet, developmentLanguage: String) {
    // `.lproj` tables: keys per bundle, table and language.
    struct TableID: Hashable {
      var folder: String
      var table: String
    }
    var keys: [TableID: [String: Set<String>]] = [:]
    for location in loaded.locations {
      guard let language = location.language, language != "Base" else { continue }
      let id = TableID(folder: location.bundleFolder, table: location.table)
      var found: [String] = []
      if let file = loaded.strings[location] { found = file.entries.map(\.key) }
      if let file = loaded.stringsdicts[location] { found = Array(file.entries.keys) }
      keys[id, default: [:]][language, default: []].formUnion(found)
    }
    for (id, languages) in keys {
      guard let reference = languages[developmentLanguage] else { continue }
      for (language, present) in languages where language != developmentLanguage {
        var available = present
        // What a regional variant inherits from its base.
        var base = StringsLinter.base(of: language)
        while let current = base {
          available.formUnion(languages[current] ?? [])
          base = StringsLinter.base(of: current)
        }
        let missing = reference.subtracting(available).sorted()
        rows.append(
          Row(
            bundleFolder: id.folder, table: id.table, language: language,
            translated: reference.count - missing.count, total: reference.count,
            missing: missing))
      }
    }
    for (location, catalog) in loaded.catalogs {
      rows += Self.rows(of: catalog, location: location)
    }
    rows.sort {
      ($0.bundleFolder, $0.table, $0.language) < ($1.bundleFolder, $1.table, $1.language)
    }
  }

  /// A catalog's rows: one per language other than its source language.
  static func rows(of catalog: StringCatalog, location: TableLocation) -> [Row] {
    let keys = catalog.strings.filter { _, entry in
      entry.shouldTranslate && entry.extractionState != "stale"
    }
    var rows: [Row] = []
    for language in catalog.languages where language != catalog.sourceLanguage {
      var missing: [String] = []
      for (key, entry) in keys {
        var candidates = [language]
        var base = StringsLinter.base(of: language)
        while let current = base {
          candidates.append(current)
          base = StringsLinter.base(of: current)
        }
        let localization = candidates.lazy.compactMap { entry.localizations[$0] }.first
        if !(localization.map(isTranslated) ?? false) { missing.append(key) }
      }
      rows.append(
        Row(
          bundleFolder: location.bundleFolder, table: location.table, language: language,
          translated: keys.count - missing.count, total: keys.count, missing: missing.sorted()))
    }
    return rows
  }

  /// Whether every string unit of a localization is translated.
  static func isTranslated(_ localization: StringCatalog.Localization) -> Bool {
    var units = 0
    var translated = true
    func visit(_ localization: StringCatalog.Localization) {
      if let unit = localization.stringUnit {
        units += 1
        if unit.state != "translated" { translated = false }
      }
      if let cases = localization.variations?.cases {
        for variant in cases.values { visit(variant) }
      }
      for substitution in localization.substitutions.values {
        guard let cases = substitution.variations?.cases else { continue }
        for variant in cases.values { visit(variant) }
      }
    }
    visit(localization)
    return units > 0 && translated
  }

  /// Each language's share over every table together (what `--prune-below` compares).
  public var languageShares: [String: Double] {
    var translated: [String: Int] = [:]
    var total: [String: Int] = [:]
    for row in rows {
      translated[row.language, default: 0] += row.translated
      total[row.language, default: 0] += row.total
    }
    return total.reduce(into: [:]) { shares, item in
      shares[item.key] =
        item.value == 0 ? 1 : Double(translated[item.key] ?? 0) / Double(item.value)
    }
  }
}

extension TranslationCoverage.Row {
  private enum CodingKeys: String, CodingKey {
    case language, table, translated, total, share, missing
    case bundleFolder = "folder"
  }

  /// `language`, `table`, `folder`, `translated`, `total`, `share` and `missing`: the row
  /// as `strings coverage --format json` prints it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(language, forKey: .language)
    try container.encode(table, forKey: .table)
    try container.encode(bundleFolder, forKey: .bundleFolder)
    try container.encode(translated, forKey: .translated)
    try container.encode(total, forKey: .total)
    try container.encode(share, forKey: .share)
    try container.encode(missing, forKey: .missing)
  }
}
