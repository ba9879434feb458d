import BundleKitDiagnostics
import BundleKitLocalization
import BundleKitPropertyListCore
import Foundation
import OrderedCollections

/// A String Catalog's strings as Xcode's XLIFF units, and back.
///
/// Ids are Xcode's: the key for a plain string; `key|==|plural.one`, `key|==|device.iphone`,
/// `key|==|device.iphone.plural.one` for variations; `key|==|substitutions.NAME.plural.one`
/// for a substitution's cases, whose `%arg` is exported as the argument it stands for
/// (`%2$lld`) and imported back. Plural units follow the target language's categories
/// (Russian gets one, few, many and other for an English one and other), the source text of
/// a category English lacks being English's `other`.
enum CatalogExchange {
  /// The plural categories in CLDR order.
  static let pluralOrder = PluralCategory.allCases.map(\.rawValue)
  /// The device cases Xcode offers, `other` last.
  static let devices: Set<String> = [
    "applevision", "applewatch", "appletv", "ipad", "iphone", "ipod", "mac", "other",
  ]

  /// The categories a plural in `language` is exported with: the language's own, any the
  /// translation already has, and `zero` when the source has it (CoreFoundation uses a
  /// `zero` form for 0 in every language).
  static func categories(
    _ language: String, existing: some Sequence<String>, sourceHasZero: Bool,
    cache: inout [String: [String]]
  ) -> [String] {
    let own: [String]
    if let cached = cache[language] {
      own = cached
    } else {
      own = PluralRules.categories(for: language).map(\.rawValue)
      cache[language] = own
    }
    var wanted = Set(own).union(existing)
    if sourceHasZero { wanted.insert("zero") }
    return pluralOrder.filter(wanted.contains)
  }

  // MARK: Export

  /// The units of `catalog` for `language`, keys in Xcode's order; keys marked not to
  /// translate are left out.
  static func units(_ catalog: StringCatalog, language: String, cache: inout [String: [String]])
    -> [XLIFFDocument.Unit]
  {
    var units: [XLIFFDocument.Unit] = []
    for key in catalog.strings.keys.sorted() {
      guard let entry = catalog.strings[key], entry.shouldTranslate else { continue }
      let source =
        entry.localizations[catalog.sourceLanguage]
        ?? StringCatalog.Localization(
          stringUnit: StringCatalog.StringUnit(state: "translated", value: key), variations: nil,
          substitutions: [:])
      // The source language's own export: each unit's target is its source, as Xcode
      // writes it.
      let exportsSource = language == catalog.sourceLanguage
      let target = exportsSource ? source : entry.localizations[language]
      // A translation varied where the source is not (a plural only the target needs) is
      // exported in the translation's shape.
      let shape =
        target.map { $0.variations != nil || !$0.substitutions.isEmpty } == true
          && source.variations == nil ? target ?? source : source
      var found: [XLIFFDocument.Unit] = []
      walk(
        shape, source: source, target: target, path: [], key: key, language: language,
        cache: &cache, into: &found)
      for (name, substitution) in shape.substitutions.sorted(by: { $0.key < $1.key }) {
        let sourceSubstitution = source.substitutions[name] ?? substitution
        let targetSubstitution = target?.substitutions[name]
        let cases = substitution.variations?.cases ?? [:]
        let names = categories(
          language, existing: targetSubstitution?.variations?.cases.keys ?? [],
          sourceHasZero: cases["zero"] != nil, cache: &cache)
        for category in names {
          let sourceCase =
            sourceSubstitution.variations?.cases[category]
            ?? sourceSubstitution.variations?.cases["other"]
          let sourceText = (sourceCase?.stringUnit?.value ?? "").replacingArgPlaceholder(
            with: sourceSubstitution)
          let targetUnit = targetSubstitution?.variations?.cases[category]?.stringUnit
          found.append(
            unit(
              key: key, path: "substitutions.\(name).plural.\(category)", source: sourceText,
              target: targetUnit.map {
                (
                  $0.value.replacingArgPlaceholder(with: targetSubstitution ?? substitution),
                  $0.state
                )
              }))
        }
      }
      // The source language's own units keep the state its localization has (an edited
      // source is `translated`), and are new without one.
      let sourceState = entry.localizations[catalog.sourceLanguage] == nil ? "new" : nil
      for index in found.indices {
        found[index].note = entry.comment
        if exportsSource {
          found[index].target = found[index].source
          found[index].state = sourceState ?? found[index].state ?? "new"
        }
      }
      units += found
    }
    return units
  }

  private static func walk(
    _ shape: StringCatalog.Localization, source: StringCatalog.Localization?,
    target: StringCatalog.Localization?, path: [String], key: String, language: String,
    cache: inout [String: [String]], into units: inout [XLIFFDocument.Unit]
  ) {
    guard path.count < 8 else { return }
    if let variations = shape.variations {
      let kind = variations.kind
      var names = Array(variations.cases.keys)
      if kind == "plural" {
        names = categories(
          language, existing: target?.variations?.cases.keys ?? [],
          sourceHasZero: source?.variations?.cases["zero"] != nil, cache: &cache)
      } else {
        names.sort { ($0 == "other" ? 1 : 0, $0) < ($1 == "other" ? 1 : 0, $1) }
      }
      for name in names {
        let sourceCase =
          source?.variations.map { $0.cases[name] ?? $0.cases["other"] } ?? source
        walk(
          variations.cases[name] ?? variations.cases["other"] ?? shape,
          source: sourceCase, target: target?.variations?.cases[name],
          path: path + [kind, name], key: key, language: language, cache: &cache, into: &units)
      }
      return
    }
    let sourceText = source?.stringUnit?.value ?? (path.isEmpty ? key : "")
    units.append(
      unit(
        key: key, path: path.joined(separator: "."), source: sourceText,
        target: target?.stringUnit.map { ($0.value, $0.state) }))
  }

  private static func unit(
    key: String, path: String, source: String, target: (value: String, state: String)?
  ) -> XLIFFDocument.Unit {
    XLIFFDocument.Unit(
      id: path.isEmpty ? key : key + "|==|" + path, source: source,
      target: target?.value, state: target.map { xliffState($0.state) }, note: nil)
  }

  /// A catalog state as XLIFF says it: `needs-review-l10n` for review, as Xcode writes it
  /// (Xcode 15.3's exports of Ketchup).
  static func xliffState(_ state: String) -> String {
    switch state {
    case "translated": "translated"
    case "needs_review", "stale": "needs-review-l10n"
    default: "new"
    }
  }

  /// An XLIFF state as a catalog says it: reviewed and final translations are translated,
  /// anything asking for review (or new) needs review.
  static func catalogState(_ state: String?) -> String {
    switch state {
    case nil, "translated", "final", "signed-off": "translated"
    default: "needs_review"
    }
  }

  // MARK: Import

  /// Where a unit's id points in a catalog entry.
  enum Path: Equatable {
    /// The localization's own string, or a variation case (`[("plural", "one")]`).
    case variation([(kind: String, name: String)])
    /// A substitution's plural case.
    case substitution(name: String, category: String)

    static func == (lhs: Path, rhs: Path) -> Bool {
      switch (lhs, rhs) {
      case (.variation(let a), .variation(let b)):
        a.map { "\($0.kind).\($0.name)" } == b.map { "\($0.kind).\($0.name)" }
      case (.substitution(let a, let b), .substitution(let c, let d)): a == c && b == d
      default: false
      }
    }
  }

  /// The key and path of an id; nil when the suffix is not one Xcode writes.
  static func parse(_ id: String) -> (key: String, path: Path)? {
    guard let range = id.range(of: "|==|", options: .backwards) else {
      return (id, .variation([]))
    }
    let key = String(id[..<range.lowerBound])
    let suffix = String(id[range.upperBound...])
    if suffix.hasPrefix("substitutions.") {
      let rest = suffix.dropFirst("substitutions.".count)
      guard let plural = rest.range(of: ".plural.", options: .backwards) else { return nil }
      let name = String(rest[..<plural.lowerBound])
      let category = String(rest[plural.upperBound...])
      guard !name.isEmpty, !category.isEmpty else { return nil }
      return (key, .substitution(name: name, category: category))
    }
    let parts = suffix.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count.isMultiple(of: 2), !parts.isEmpty else { return nil }
    var steps: [(kind: String, name: String)] = []
    for index in stride(from: 0, to: parts.count, by: 2) {
      guard ["plural", "device"].contains(parts[index]), !parts[index + 1].isEmpty else {
        return nil
      }
      steps.append((parts[index], parts[index + 1]))
    }
    return (key, .variation(steps))
  }
}

extension CatalogExchange {
  /// The outcome of importing one `<file>` into its table.
  struct Applied {
    /// The table's new bytes; nil when no unit changed it.
    var bytes: [UInt8]?
    /// Errors (nothing may be written) and warnings.
    var diagnostics: [Diagnostic] = []
    /// Units refused on their own (a translation whose placeholders disagree with the
    /// source's): the rest of the file is still merged.
    var refused: [Diagnostic] = []
    /// How many units changed a translation.
    var changed = 0
  }

  /// Checks every unit of `file` against `catalog` and merges the translations into it: an
  /// unknown key or id, a plural category the language does not have, a placeholder the
  /// source does not pass, each is an error at the unit's line in `xliffPath`. A unit whose
  /// translation is already the catalog's changes nothing, not even its state, so that an
  /// export imported unedited leaves every byte.
  static func apply(
    _ file: XLIFFDocument.File, to catalog: StringCatalog, xliffPath: String,
    cache: inout [String: [String]]
  ) throws(PropertyListError) -> Applied {
    var applied = Applied()
    guard let language = file.targetLanguage else { return applied }
    func error(_ unit: XLIFFDocument.Unit, _ message: String) {
      applied.diagnostics.append(
        .error(xliffPath, line: unit.line, column: unit.column, message))
    }
    var (root, entries) = try CatalogJSON.read(catalog)
    let allowed = Set(categories(language, existing: [], sourceHasZero: true, cache: &cache))
    for unit in file.units {
      guard let (key, path) = parse(unit.id) else {
        error(unit, "\"\(unit.id)\" is not an id Xcode writes for a String Catalog")
        continue
      }
      guard let model = catalog.strings[key], var entry = entries[key] as? [String: Any] else {
        error(unit, "\(catalog.path) has no key \(StringsFile.literal(key))")
        continue
      }
      guard model.shouldTranslate else {
        error(unit, "\(StringsFile.literal(key)) is marked not to be translated in \(catalog.path)")
        continue
      }
      let source = model.localizations[catalog.sourceLanguage]
      // The path must be one the catalog can hold for this language; judged only when the
      // unit changes the catalog (a form the catalog already holds, as exported, is the
      // project's own, even one the language does not have).
      var problems: [String] = []
      switch path {
      case .variation(let steps):
        for step in steps {
          if step.kind == "plural", !allowed.contains(step.name) {
            problems.append(
              "'\(step.name)' is not a plural category of '\(language)' (it has \(categoryList(allowed)))"
            )
          } else if step.kind == "device", !devices.contains(step.name) {
            problems.append(
              "'\(step.name)' is not a device Xcode knows (\(devices.sorted().joined(separator: ", ")))"
            )
          }
        }
      case .substitution(let name, let category):
        if source?.substitutions[name] == nil,
          model.localizations[language]?.substitutions[name] == nil
        {
          problems.append("\(StringsFile.literal(key)) has no substitution '\(name)'")
        } else if !allowed.contains(category) {
          problems.append(
            "'\(category)' is not a plural category of '\(language)' (it has \(categoryList(allowed)))"
          )
        }
      }
      // An empty target is no translation, except for an empty source (Xcode exports the
      // empty key's empty translation as `<target state="translated"/>`).
      guard let target = unit.target, !target.isEmpty || unit.source.isEmpty else { continue }
      // The source language's own export gives each unit its source as target (state new,
      // or its localization's): read back unedited, that is the catalog's own text, not a
      // translation to write.
      if language == catalog.sourceLanguage, target == unit.source {
        continue
      }
      let plural: Bool
      switch path {
      case .variation(let steps): plural = steps.contains { $0.kind == "plural" }
      case .substitution: plural = true
      }
      var localizations = entry["localizations"] as? [String: Any] ?? [:]
      var localization = localizations[language] as? [String: Any] ?? [:]
      let state = catalogState(unit.state)
      let changed: Bool
      switch path {
      case .variation(let steps):
        changed = set(&localization, steps: steps[...], value: target, state: state)
      case .substitution(let name, let category):
        // The model the export wrote the placeholder with: the language's own substitution
        // (it may lack the source's argNum), else the source's.
        let model =
          model.localizations[language]?.substitutions[name] ?? source?.substitutions[name]
        var substitutions = localization["substitutions"] as? [String: Any] ?? [:]
        var substitution = substitutions[name] as? [String: Any] ?? [:]
        if substitution.isEmpty, let model {
          if let argNum = model.argNum { substitution["argNum"] = argNum }
          substitution["formatSpecifier"] = model.formatSpecifier
        }
        var value = target
        if let model {
          let placeholder =
            model.argNum.map { "%\($0)$\(model.formatSpecifier)" } ?? "%\(model.formatSpecifier)"
          value = target.replacingOccurrences(of: placeholder, with: "%arg")
        }
        changed = set(
          &substitution, steps: [("plural", category)][...], value: value, state: state)
        substitutions[name] = substitution
        localization["substitutions"] = substitutions
      }
      // A translation the catalog already holds is not checked: it is the project's own,
      // and importing it changes nothing. A new one must fit and pass the source's arguments.
      guard changed else { continue }
      guard problems.isEmpty else {
        for problem in problems { error(unit, problem) }
        continue
      }
      guard
        StringsExchange.check(
          unit, translation: target, source: unit.source, plural: plural, into: &applied,
          xliffPath)
      else { continue }
      applied.changed += 1
      localizations[language] = localization
      entry["localizations"] = localizations
      entries[key] = entry
    }
    if applied.changed > 0, !applied.diagnostics.contains(where: { $0.severity == .error }) {
      root["strings"] = entries
      applied.bytes = try CatalogJSON.bytes(root, like: catalog.contents, path: catalog.path)
    }
    return applied
  }

  /// A new catalog for a file whose catalog the project lacks (`InfoPlist.xcstrings`, or a
  /// catalog for strings from code), as Xcode creates it on import: a key per unit with the
  /// unit's note as its comment, and the source text as the source language's where it is
  /// not the key itself. Its translations are then applied like any catalog's. A
  /// substitution's unit cannot be rebuilt from its text: an error at its line.
  static func created(
    _ file: XLIFFDocument.File, path: String, xliffPath: String, diagnostics: inout [Diagnostic]
  ) throws(PropertyListError) -> [UInt8] {
    var entries: [String: Any] = [:]
    var keys = 0
    for unit in file.units {
      guard let (key, unitPath) = parse(unit.id) else {
        diagnostics.append(
          .error(
            xliffPath, line: unit.line, column: unit.column,
            "\"\(unit.id)\" is not an id Xcode writes for a String Catalog"))
        continue
      }
      guard case .variation(let steps) = unitPath else {
        diagnostics.append(
          .error(
            xliffPath, line: unit.line, column: unit.column,
            "\"\(unit.id)\": \(path) does not exist, and a substitution cannot be created from its text; create the catalog in Xcode first"
          ))
        continue
      }
      var entry = entries[key] as? [String: Any] ?? [:]
      if entry.isEmpty { keys += 1 }
      if let note = unit.note, !note.isEmpty { entry["comment"] = note }
      if !steps.isEmpty || unit.source != key {
        var localizations = entry["localizations"] as? [String: Any] ?? [:]
        var localization = localizations[file.sourceLanguage] as? [String: Any] ?? [:]
        _ = set(&localization, steps: steps[...], value: unit.source, state: "new")
        localizations[file.sourceLanguage] = localization
        entry["localizations"] = localizations
      }
      entries[key] = entry
    }
    diagnostics.append(
      Diagnostic(
        .warning, path: xliffPath, line: file.line, column: file.column,
        "\(path) does not exist: created with its \(keys) key\(keys == 1 ? "" : "s"), as Xcode creates it on import"
      ))
    let root: [String: Any] = [
      "sourceLanguage": file.sourceLanguage, "strings": entries, "version": "1.0",
    ]
    return try CatalogJSON.bytes(root, like: [], path: path)
  }

  /// Sets the string unit at `steps` below `node`; false when it already held `value`.
  private static func set(
    _ node: inout [String: Any], steps: ArraySlice<(kind: String, name: String)>, value: String,
    state: String
  ) -> Bool {
    guard let step = steps.first else {
      if let unit = node["stringUnit"] as? [String: Any], unit["value"] as? String == value {
        return false
      }
      node["stringUnit"] = ["state": state, "value": value]
      // A string is plain or varied, not both.
      node["variations"] = nil
      return true
    }
    var variations = node["variations"] as? [String: Any] ?? [:]
    var cases = variations[step.kind] as? [String: Any] ?? [:]
    var child = cases[step.name] as? [String: Any] ?? [:]
    let changed = set(&child, steps: steps.dropFirst(), value: value, state: state)
    guard changed else { return false }
    cases[step.name] = child
    variations = [step.kind: cases]
    node["variations"] = variations
    node["stringUnit"] = nil
    return true
  }

  private static func categoryList(_ categories: Set<String>) -> String {
    pluralOrder.filter(categories.contains).joined(separator: ", ")
  }
}
