import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitStringsTable

/// Reads one table file, text or compiled, into records (without source texts, which the
/// indexer fills in once every language is read).
enum TableReader {
  /// The records of the table at `location`; catalogs give every language they hold.
  static func records(at location: TableLocation, bundle: String) throws -> [TranslationRecord] {
    do {
      switch location.kind {
      case .strings: return try strings(location, bundle: bundle)
      case .stringsdict: return try stringsdict(location, bundle: bundle)
      case .catalog: return try catalog(location, bundle: bundle)
      }
    } catch let error as PropertyListError {
      throw TranslationError.table(error.diagnostics)
    }
  }

  /// The language of a table's `<lang>.lproj` folder; nil outside one. A folder whose name
  /// is no language (`-.lproj`) is an error, not a table to skip.
  private static func language(of location: TableLocation) throws -> String? {
    guard let name = location.language else { return nil }
    guard let tag = LanguageTag.normalize(name) else {
      throw TranslationError.unreadableTable(
        path: location.path,
        message: "'\(name).lproj' names no language (a BCP 47 tag: letters, digits, - and _)")
    }
    return tag
  }

  private static func strings(_ location: TableLocation, bundle: String) throws
    -> [TranslationRecord]
  {
    guard let language = try language(of: location) else { return [] }
    let bytes = try FileIO.read(location.path)
    func record(_ key: String, _ value: String, _ comment: String?) -> TranslationRecord {
      TranslationRecord(
        bundle: bundle, table: location.table, key: key, language: language, value: value,
        comment: comment)
    }
    // Compiled tables are binary property lists.
    if bytes.starts(with: Array("bplist".utf8)) {
      guard case .dictionary(let entries) = try PropertyListValue(bytes: bytes) else {
        throw TranslationError.unreadableTable(
          path: location.path, message: "a compiled .strings must hold a dictionary")
      }
      return entries.compactMap { key, value in value.stringValue.map { record(key, $0, nil) } }
    }
    let file = try StringsFile(bytes: bytes, path: location.path)
    // The last of repeated keys wins, as Foundation reads the table.
    var last: [String: Int] = [:]
    var result: [TranslationRecord] = []
    for entry in file.entries {
      guard let value = entry.value.stringValue else { continue }
      if let index = last[entry.key] {
        result[index] = record(entry.key, value, entry.comment)
      } else {
        last[entry.key] = result.count
        result.append(record(entry.key, value, entry.comment))
      }
    }
    return result
  }

  private static func stringsdict(_ location: TableLocation, bundle: String) throws
    -> [TranslationRecord]
  {
    guard let language = try language(of: location) else { return [] }
    let file = try StringsdictFile(contentsOfFile: location.path)
    var result: [TranslationRecord] = []
    for (key, rules) in file.entries {
      for (variant, value) in flattenRules(rules) {
        result.append(
          TranslationRecord(
            bundle: bundle, table: location.table, key: key, variant: variant,
            language: language, value: value))
      }
    }
    return result
  }

  /// The texts of a `.stringsdict` entry with their paths: the format is `format`, a plural
  /// case `count.one`, a width rule `width.20`; type keys are not text and are left out.
  static func flattenRules(_ value: PropertyListValue, path: [String] = [])
    -> [(String, String)]
  {
    switch value {
    case .string(let text):
      return path.isEmpty ? [("", text)] : [(path.joined(separator: "."), text)]
    case .dictionary(let dictionary):
      var result: [(String, String)] = []
      for (name, child) in dictionary {
        switch name {
        case "NSStringLocalizedFormatKey": result += flattenRules(child, path: path + ["format"])
        case "NSStringVariableWidthRuleType": result += flattenRules(child, path: path + ["width"])
        case "NSStringDeviceSpecificRuleType":
          result += flattenRules(child, path: path + ["device"])
        case _ where name.hasPrefix("NSString"): continue
        default: result += flattenRules(child, path: path + [name])
        }
      }
      return result
    default:
      return []
    }
  }

  private static func catalog(_ location: TableLocation, bundle: String) throws
    -> [TranslationRecord]
  {
    let catalog = try StringCatalog(contentsOfFile: location.path)
    let sourceLanguage = LanguageTag.normalize(catalog.sourceLanguage) ?? catalog.sourceLanguage
    var result: [TranslationRecord] = []
    for (key, entry) in catalog.strings {
      var hasSource = false
      for (code, localization) in entry.localizations {
        guard let language = LanguageTag.normalize(code) else { continue }
        // Keys that must not be translated read the source everywhere: index the source only.
        if !entry.shouldTranslate, language != sourceLanguage { continue }
        if language == sourceLanguage { hasSource = true }
        for (variant, value) in flatten(localization) {
          result.append(
            TranslationRecord(
              bundle: bundle, table: location.table, key: key, variant: variant,
              language: language, value: value, comment: entry.comment))
        }
      }
      // A key with no source-language value is its own source text, as in Xcode.
      if !hasSource, !key.isEmpty {
        result.append(
          TranslationRecord(
            bundle: bundle, table: location.table, key: key, language: sourceLanguage,
            value: key, comment: entry.comment))
      }
    }
    return result
  }

  /// A catalog localization's texts with their paths: `""` for the string unit, then
  /// `plural.one`, `device.mac.plural.other`, `substitutions.count.plural.one` ...
  private static func flatten(_ localization: StringCatalog.Localization, path: [String] = [])
    -> [(String, String)]
  {
    var result: [(String, String)] = []
    if let unit = localization.stringUnit {
      result.append((path.joined(separator: "."), unit.value))
    }
    if let variations = localization.variations {
      for (name, child) in variations.cases {
        result += flatten(child, path: path + [variations.kind, name])
      }
    }
    for (name, substitution) in localization.substitutions {
      guard let variations = substitution.variations else { continue }
      for (category, child) in variations.cases {
        result += flatten(
          child, path: path + ["substitutions", name, variations.kind, category])
      }
    }
    return result
  }
}
