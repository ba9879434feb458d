// Shared with the plugins: Plugins/PluginsShared/Plain/TableLayout.swift is a link to this
// file, so a build plugin declares exactly the outputs `strings compile` writes. Plain Swift,
// no imports: it compiles in the plugins as it does here.

/// Which files are strings tables, where compiling one writes, and which languages a String
/// Catalog compiles to: what the tool and the plugins must agree on.
enum TableLayout {
  /// The extensions of strings tables: `.strings`, `.stringsdict`, `.xcstrings`.
  static let extensions: Set<String> = ["strings", "stringsdict", "xcstrings"]

  /// The paths (relative to the output folder) a table compiles to: a `.strings` or
  /// `.stringsdict` file keeps its `<lang>.lproj` folder (none outside one); a catalog
  /// (`xcstrings`) gives `<lang>.lproj/<Table>.strings` and `.stringsdict` for each of its
  /// languages.
  ///
  /// - Parameters:
  ///   - table: The table's name (the file name without its extension).
  ///   - fileExtension: `strings`, `stringsdict` or `xcstrings`.
  ///   - language: The language of the `<lang>.lproj` folder the file is in, if any.
  ///   - catalogLanguages: A catalog's languages (``catalogLanguages(source:keyLanguages:)``).
  static func outputPaths(
    table: String, fileExtension: String, language: String?, catalogLanguages: [String]
  ) -> [String] {
    guard fileExtension == "xcstrings" else {
      let name = "\(table).\(fileExtension)"
      return [language.map { "\($0).lproj/\(name)" } ?? name]
    }
    // Only languages: never a path out of the output folder.
    return catalogLanguages.filter(LanguageName.isValid).flatMap {
      ["\($0).lproj/\(table).strings", "\($0).lproj/\(table).stringsdict"]
    }
  }

  /// A catalog's languages: its source language first, then every language a key has a
  /// localization in, each once, in the order met. A name that is no language
  /// (`LanguageName`) is left out: it would be a path (`../../x.lproj`), and the tool refuses
  /// such a catalog.
  static func catalogLanguages(source: String?, keyLanguages: [[String]]) -> [String] {
    var languages: [String] = []
    if let source, LanguageName.isValid(source) { languages.append(source) }
    var seen = Set(languages)
    for key in keyLanguages {
      for language in key where LanguageName.isValid(language) && seen.insert(language).inserted {
        languages.append(language)
      }
    }
    return languages
  }
}
