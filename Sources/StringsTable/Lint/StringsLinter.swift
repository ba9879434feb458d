import Foundation
import Localization
import OrderedCollections
import PropertyList

/// Checks strings tables the way a reviewer would: syntax, duplicate keys, keys missing from
/// or extra to the development language, empty values, placeholders that disagree across
/// languages, invalid plural rules, and a table defined both as `.strings` and `.xcstrings`.
public struct StringsLinter: Sendable {
  /// The language other languages are compared with.
  public var developmentLanguage: String

  /// A linter comparing against `developmentLanguage`.
  public init(developmentLanguage: String = "en") {
    self.developmentLanguage = developmentLanguage
  }

  /// Placeholders that are unsafe in localized strings: C strings and characters cannot be
  /// passed from Swift safely, `%p` prints addresses, `%n` writes memory.
  static let unsafeKinds: Set<FormatSpecifier.Kind> = [.cString, .character, .pointer]

  /// Tables read from disk, ready to check and compile; files that failed to parse are
  /// left out and reported in `diagnostics`.
  public struct LoadedTables: Sendable {
    /// Every table that was asked for, in order.
    public var locations: [TableLocation] = []
    /// The `.strings` files that parsed.
    public var strings: [TableLocation: StringsFile] = [:]
    /// The `.stringsdict` files that parsed.
    public var stringsdicts: [TableLocation: StringsdictFile] = [:]
    /// The catalogs that parsed.
    public var catalogs: [TableLocation: StringCatalog] = [:]
    /// Parse errors.
    public var diagnostics: [Diagnostic] = []
  }

  /// Reads every table once.
  public static func load(_ locations: [TableLocation]) -> LoadedTables {
    var loaded = LoadedTables(locations: locations)
    for location in locations {
      do {
        switch location.kind {
        case .strings: loaded.strings[location] = try StringsFile(contentsOfFile: location.path)
        case .stringsdict:
          loaded.stringsdicts[location] = try StringsdictFile(contentsOfFile: location.path)
        case .catalog: loaded.catalogs[location] = try StringCatalog(contentsOfFile: location.path)
        }
      } catch {
        loaded.diagnostics.append(diagnostic(for: error, path: location.path))
      }
    }
    return loaded
  }

  /// Everything found in the tables at `locations`, in file order.
  public func lint(_ locations: [TableLocation]) -> [Diagnostic] {
    lint(Self.load(locations))
  }

  /// Everything found in tables already read.
  public func lint(_ loaded: LoadedTables) -> [Diagnostic] {
    var diagnostics = loaded.diagnostics
    for location in loaded.locations {
      if let file = loaded.strings[location] { diagnostics += check(file) }
      if let file = loaded.stringsdicts[location] { diagnostics += file.validate() }
      if let catalog = loaded.catalogs[location] { diagnostics += check(catalog) }
    }
    diagnostics += compareLanguages(loaded.strings)
    diagnostics += compareLanguages(loaded.stringsdicts)
    diagnostics += sideBySide(loaded.locations)
    return diagnostics
  }

  /// A parse failure as a diagnostic.
  public static func diagnostic(for error: PropertyListError, path: String) -> Diagnostic {
    switch error {
    case .syntax(_, let line, let column, let message):
      Diagnostic(.error, path, line: line, column: column, message)
    case .io(let file, let message):
      // The file that failed: the table, or a folder or output on the way to it.
      Diagnostic(.error, file, message)
    default:
      Diagnostic(.error, path, error.message)
    }
  }

  // MARK: One file

  func check(_ file: StringsFile) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for (key, repeats) in file.duplicates {
      let first = repeats[0]
      for entry in repeats.dropFirst() {
        diagnostics.append(
          Diagnostic(
            .warning, file.path, line: entry.line, column: entry.column,
            "duplicate key \"\(key)\" (first at line \(first.line)); the last value wins"))
      }
    }
    for entry in file.entries {
      guard case .string(let value) = entry.value else {
        diagnostics.append(
          Diagnostic(
            .warning, file.path, line: entry.line, column: entry.column,
            "the value of \"\(entry.key)\" is a \(entry.value.typeName), not a string"))
        continue
      }
      if value.isEmpty {
        diagnostics.append(
          Diagnostic(
            .warning, file.path, line: entry.line, column: entry.column,
            "empty value for \"\(entry.key)\""))
      }
      for problem in Self.formatProblems(value) {
        diagnostics.append(
          Diagnostic(
            .error, file.path, line: entry.line, column: entry.column,
            "\"\(entry.key)\": \(problem)"))
      }
    }
    return diagnostics
  }

  /// Problems within one format string: an argument used with two types, a skipped
  /// argument, an unsafe placeholder.
  static func formatProblems(_ value: String, checkGaps: Bool = true) -> [String] {
    var probe = value
    let hasPercent = probe.withUTF8 { utf8 in
      utf8.baseAddress.map { memchr($0, Int32(UInt8(ascii: "%")), utf8.count) != nil } ?? false
    }
    guard hasPercent else { return [] }
    let specifiers = FormatSpecifier.parse(value)
    var problems: [String] = []
    for specifier in specifiers where unsafeKinds.contains(specifier.kind) {
      problems.append(
        "the placeholder \(specifier.text) takes \(specifier.typeName), which Swift cannot pass safely; use %@"
      )
    }
    let signature = FormatSignature(specifiers: specifiers)
    for (position, first, other) in signature.conflicts {
      problems.append("argument \(position) is used as \(first.typeName) and as \(other.typeName)")
    }
    if checkGaps { problems += signature.gapMessages }
    return problems
  }

  func check(_ catalog: StringCatalog) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let languages = catalog.languages
    for (key, entry) in catalog.strings {
      let line = catalog.line(of: key)
      func report(_ severity: Diagnostic.Severity, _ message: String) {
        diagnostics.append(Diagnostic(severity, catalog.path, line: line, "\"\(key)\": \(message)"))
      }
      let source = entry.localizations[catalog.sourceLanguage]
      let sourceSignature = Self.signature(of: source, key: key)
      for (language, localization) in entry.localizations {
        for (text, isSubstitutionCase) in Self.texts(of: localization) {
          if text.isEmpty, !isSubstitutionCase { report(.warning, "empty value in \(language)") }
          // A substitution case holds only its own argument (`%2$lld`): no gaps to check.
          for problem in Self.formatProblems(text, checkGaps: !isSubstitutionCase) {
            report(.error, "\(language): \(problem)")
          }
        }
        for (name, substitution) in localization.substitutions
        where substitution.variations?.cases["other"] == nil {
          report(.error, "\(language): substitution '\(name)' has no 'other' plural form")
        }
        if let variations = localization.variations, variations.kind == "plural" {
          for category in variations.cases.keys
          where !StringsdictFile.pluralCategories.contains(category) {
            report(.error, "\(language): '\(category)' is not a plural category")
          }
          if variations.cases["other"] == nil {
            report(.error, "\(language): plural variation has no 'other' form")
          }
        }
        guard language != catalog.sourceLanguage, let sourceSignature, sourceSignature.count > 0
        else { continue }
        let signature = Self.signature(of: localization, key: key)
        for problem in Self.compare(
          signature ?? FormatSignature(specifiers: []), with: sourceSignature)
        {
          report(problem.severity, "\(language): \(problem.message)")
        }
      }
      if entry.shouldTranslate {
        for language in languages
        where entry.localizations[language] == nil && language != catalog.sourceLanguage {
          report(.warning, "not translated to \(language)")
        }
      }
    }
    return diagnostics
  }

  /// Every text of a localization, flagged when it is a substitution's case.
  static func texts(of localization: StringCatalog.Localization) -> [(String, Bool)] {
    var result: [(String, Bool)] = []
    if let unit = localization.stringUnit { result.append((unit.value, false)) }
    if let variations = localization.variations {
      for variant in variations.cases.values { result += texts(of: variant) }
    }
    for substitution in localization.substitutions.values {
      for variant in (substitution.variations?.cases ?? [:]).values {
        result += texts(of: variant).map {
          ($0.0.replacingArgPlaceholder(with: substitution), true)
        }
      }
    }
    return result
  }

  /// The arguments a localization takes: the `other` case of variations, the format with
  /// substitutions resolved to their own argument types.
  static func signature(of localization: StringCatalog.Localization?, key: String)
    -> FormatSignature?
  {
    guard let localization else { return nil }
    if let variations = localization.variations {
      return signature(of: variations.cases["other"] ?? variations.cases.values.first, key: key)
    }
    let text = localization.stringUnit?.value ?? key
    var specifiers: [FormatSpecifier] = []
    for specifier in FormatSpecifier.parse(text) {
      guard let name = specifier.variable else {
        specifiers.append(specifier)
        continue
      }
      let substitution = localization.substitutions[name]
      let format = substitution?.formatSpecifier ?? "lld"
      if var argument = FormatSpecifier.parse("%" + format).first {
        argument.position = substitution?.argNum ?? specifier.position
        argument.text = "%#@\(name)@"
        specifiers.append(argument)
      }
    }
    return FormatSignature(specifiers: specifiers)
  }

  /// How a translation's arguments differ from the development language's.
  static func compare(_ translation: FormatSignature, with development: FormatSignature) -> [(
    severity: Diagnostic.Severity, message: String
  )] {
    var problems: [(Diagnostic.Severity, String)] = []
    let positions = Set(translation.arguments.keys).union(development.arguments.keys).sorted()
    for position in positions {
      let theirs = translation.arguments[position]?.first
      let ours = development.arguments[position]?.first
      switch (ours, theirs) {
      case (let ours?, let theirs?) where !theirs.isCompatible(with: ours):
        problems.append(
          (
            .error,
            "argument \(position) is \(theirs.typeName) but \(ours.typeName) in the development language"
          ))
      case (nil, let theirs?):
        problems.append(
          (
            .error,
            "uses argument \(position) (\(theirs.text)), which the development language does not pass"
          ))
      case (let ours?, nil):
        problems.append((.warning, "does not use argument \(position) (\(ours.text))"))
      default:
        break
      }
    }
    return problems
  }

  // MARK: Across languages

  private func compareLanguages(_ files: [TableLocation: StringsFile]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for group in Self.groups(files.keys) {
      guard let development = group.first(where: { $0.language == developmentLanguage }),
        let reference = files[development]
      else { continue }
      let referenceValues = reference.dictionary
      for location in group where location != development {
        guard let file = files[location] else { continue }
        let values = file.dictionary
        let language = location.language ?? "?"
        for (key, value) in referenceValues where values[key] == nil {
          let line = reference.entries.first { $0.key == key }?.line
          diagnostics.append(
            Diagnostic(
              .warning, file.path,
              "missing \"\(key)\", defined in \(developmentLanguage) at \(reference.path):\(line ?? 1)"
            ))
          _ = value
        }
        for entry in file.entries {
          guard let original = referenceValues[entry.key] else {
            diagnostics.append(
              Diagnostic(
                .warning, file.path, line: entry.line, column: entry.column,
                "\"\(entry.key)\" is not in the \(developmentLanguage) table"))
            continue
          }
          guard case .string(let translated) = entry.value, case .string(let source) = original
          else { continue }
          // A development string with no placeholders is not used as a format: a `%` in a
          // translation is then just text.
          let sourceSignature = FormatSignature(source)
          guard sourceSignature.count > 0 else { continue }
          for problem in Self.compare(FormatSignature(translated), with: sourceSignature) {
            diagnostics.append(
              Diagnostic(
                problem.severity, file.path, line: entry.line, column: entry.column,
                "\"\(entry.key)\" (\(language)): \(problem.message)"))
          }
        }
      }
    }
    return diagnostics
  }

  private func compareLanguages(_ files: [TableLocation: StringsdictFile]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for group in Self.groups(files.keys) {
      guard let development = group.first(where: { $0.language == developmentLanguage }),
        let reference = files[development]
      else { continue }
      for location in group where location != development {
        guard let file = files[location] else { continue }
        for key in reference.entries.keys where file.entries[key] == nil {
          diagnostics.append(
            Diagnostic(
              .warning, file.path,
              "missing \"\(key)\", defined in \(developmentLanguage) at \(reference.path):\(reference.line(of: key) ?? 1)"
            ))
        }
        for key in file.entries.keys where reference.entries[key] == nil {
          diagnostics.append(
            Diagnostic(
              .warning, file.path, line: file.line(of: key),
              "\"\(key)\" is not in the \(developmentLanguage) table"))
        }
      }
    }
    return diagnostics
  }

  /// Tables of one name in one bundle, across languages.
  private static func groups<Locations: Sequence<TableLocation>>(_ locations: Locations)
    -> [[TableLocation]]
  {
    // Only localized tables (in a `<lang>.lproj`) are compared across languages.
    let grouped = Dictionary(grouping: locations.filter { $0.language != nil }) {
      "\($0.bundleFolder)\u{0}\($0.table)"
    }
    return grouped.keys.sorted().compactMap { grouped[$0]?.sorted { $0.path < $1.path } }
  }

  private func sideBySide(_ locations: [TableLocation]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let catalogs = locations.filter { $0.kind == .catalog }
    for catalog in catalogs {
      for legacy in locations
      where legacy.kind != .catalog && legacy.table == catalog.table
        && legacy.bundleFolder == catalog.bundleFolder
      {
        diagnostics.append(
          Diagnostic(
            .error, legacy.path,
            "table '\(legacy.table)' is also defined by \(catalog.path); the build would produce it twice (keep one)"
          ))
      }
    }
    return diagnostics
  }
}

extension String {
  /// A substitution case with `%arg` resolved to its own argument (`%2$lld`).
  func replacingArgPlaceholder(with substitution: StringCatalog.Substitution) -> String {
    let placeholder =
      substitution.argNum.map { "%\($0)$\(substitution.formatSpecifier)" }
      ?? "%\(substitution.formatSpecifier)"
    guard contains("%arg") else { return self }
    return split(separator: "%arg", omittingEmptySubsequences: false).joined(separator: placeholder)
  }
}
