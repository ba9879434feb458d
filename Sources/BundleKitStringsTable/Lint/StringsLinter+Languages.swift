import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import Foundation
import OrderedCollections

/// The checks across languages: keys missing from or extra to the development language
/// (a regional variant inherits from its base), placeholders that disagree, and a table
/// defined both as `.strings` and `.xcstrings`.
extension StringsLinter {
  /// A language code with `_` written `-` (`en_GB` is `en-GB`).
  static func normalized(_ language: String) -> String {
    language.replacingOccurrences(of: "_", with: "-")
  }

  /// The language a regional variant falls back to (`en-GB` -> `en`, `zh-Hant-HK` ->
  /// `zh-Hant`), or nil for a base language.
  static func base(of language: String) -> String? {
    let tag = normalized(language)
    guard let dash = tag.lastIndex(of: "-") else { return nil }
    return String(tag[..<dash])
  }

  /// Whether `language` falls back to a language the entry is translated to (its base, or
  /// the base's base), or to the source language itself.
  static func inherits<Languages: Sequence<String>>(
    _ language: String, in translated: Languages, source: String
  ) -> Bool {
    let available = Set(translated.map(normalized)).union([normalized(source)])
    var current = base(of: language)
    while let candidate = current {
      if available.contains(candidate) { return true }
      current = base(of: candidate)
    }
    return false
  }

  /// Whether a comment marks its key (or its table) as text, not a format string.
  static func marksNotFormat(_ comment: String?) -> Bool {
    comment?.contains(StringsFile.notFormatDirective) ?? false
  }

  /// Whether `<table>.intentdefinition` sits beside the table's `.lproj` folders (or in
  /// `Base.lproj`): Xcode generates that table's keys from it.
  static func hasIntentDefinition(_ location: TableLocation) -> Bool {
    let folder = Paths.parent(Paths.parent(location.path))
    let name = location.table + ".intentdefinition"
    return FileIO.exists(Paths.join(folder, name))
      || FileIO.exists(Paths.join(Paths.join(folder, "Base.lproj"), name))
  }

  func compareLanguages(_ files: [TableLocation: StringsFile]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for group in Self.groups(files.keys) {
      guard let development = group.first(where: { $0.language == developmentLanguage }),
        let reference = files[development]
      else { continue }
      guard group.count > 1 else { continue }
      let referenceValues = reference.dictionary
      // A table an .intentdefinition (or Info.plist) holds the source of: its keys are not
      // the development table's to define.
      let sourceElsewhere =
        development.table == "InfoPlist" || Self.hasIntentDefinition(development)
      // Lines of the reference's keys, found once there is a missing key to point at.
      var referenceLines: [String: Int]?
      func line(of key: String) -> Int {
        if referenceLines == nil {
          var lines = [String: Int](minimumCapacity: reference.entries.count)
          for entry in reference.entries where lines[entry.key] == nil {
            lines[entry.key] = entry.line
          }
          referenceLines = lines
        }
        return referenceLines?[key] ?? 1
      }
      let notFormat = reference.notFormatKeys
      for location in group where location != development {
        guard let file = files[location] else { continue }
        let values = file.dictionary
        let language = location.language ?? "?"
        // A regional variant (en-GB) takes what it lacks from its base language's table.
        let inheriting = Self.base(of: language).flatMap { base in
          group.first { $0.language.map(Self.normalized) == base }.flatMap { files[$0] }
        }?.dictionary
        // Worked out once per file, not per entry: each is a pass over the whole table.
        let fileNotFormat = file.notFormatKeys
        for key in referenceValues.keys
        where values[key] == nil && inheriting?[key] == nil {
          diagnostics.append(
            Diagnostic(
              .warning, .missingTranslation, file.path,
              "missing \"\(key)\", defined in \(developmentLanguage) at \(reference.path):\(line(of: key))"
            ))
        }
        for entry in file.entries {
          guard let original = referenceValues[entry.key] else {
            if sourceElsewhere { continue }
            diagnostics.append(
              Diagnostic(
                .warning, .extraKey, file.path, line: entry.line, column: entry.column,
                "\"\(entry.key)\" is not in the \(developmentLanguage) table"))
            continue
          }
          if notFormat(entry.key) || fileNotFormat(entry.key) { continue }
          guard case .string(let translated) = entry.value, case .string(let source) = original
          else { continue }
          // A development string with no placeholders is not used as a format: a `%` in a
          // translation is then just text.
          let sourceSpecifiers = Self.lintSpecifiers(source)
          let sourceSignature = FormatSignature(specifiers: sourceSpecifiers)
          guard sourceSignature.count > 0 else { continue }
          let translatedSignature = FormatSignature(
            specifiers: Self.lintSpecifiers(
              translated, formatted: Set(sourceSpecifiers.map(\.text))))
          for problem in Self.compare(translatedSignature, with: sourceSignature) {
            diagnostics.append(
              Diagnostic(
                problem.severity, problem.rule, file.path, line: entry.line, column: entry.column,
                "\"\(entry.key)\" (\(language)): \(problem.message)"))
          }
        }
      }
    }
    return diagnostics
  }

  func compareLanguages(_ files: [TableLocation: StringsdictFile]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for group in Self.groups(files.keys) {
      guard let development = group.first(where: { $0.language == developmentLanguage }),
        let reference = files[development]
      else { continue }
      let referenceLines = reference.keyLines()
      for location in group where location != development {
        guard let file = files[location] else { continue }
        let inheriting = Self.base(of: location.language ?? "").flatMap { base in
          group.first { $0.language.map(Self.normalized) == base }.flatMap { files[$0] }
        }
        for key in reference.entries.keys
        where file.entries[key] == nil && inheriting?.entries[key] == nil {
          diagnostics.append(
            Diagnostic(
              .warning, .missingTranslation, file.path,
              "missing \"\(key)\", defined in \(developmentLanguage) at \(reference.path):\(referenceLines.line(of: key) ?? 1)"
            ))
        }
        let lines = file.keyLines()
        for key in file.entries.keys where reference.entries[key] == nil {
          diagnostics.append(
            Diagnostic(
              .warning, .extraKey, file.path, line: lines.line(of: key),
              "\"\(key)\" is not in the \(developmentLanguage) table"))
        }
      }
    }
    return diagnostics
  }

  /// Tables of one name in one bundle, across languages.
  static func groups<Locations: Sequence<TableLocation>>(_ locations: Locations)
    -> [[TableLocation]]
  {
    // Only localized tables (in a `<lang>.lproj`) are compared across languages.
    let grouped = Dictionary(grouping: locations.filter { $0.language != nil }, by: \.group)
    return grouped.keys.sorted().compactMap { grouped[$0]?.sorted { $0.path < $1.path } }
  }

  func sideBySide(_ locations: [TableLocation]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let catalogs = locations.filter { $0.kind == .catalog }
    for catalog in catalogs {
      for legacy in locations
      where legacy.kind != .catalog && legacy.group == catalog.group {
        diagnostics.append(
          Diagnostic(
            .error, .duplicateOutput, legacy.path,
            "table '\(legacy.table)' is also defined by \(catalog.path); the build would produce it twice (keep one)"
          ))
      }
    }
    return diagnostics
  }
}
