import BundleKitPropertyListCore
import Foundation

/// Localized strings from a bundle, the same on Linux and macOS, with plurals.
///
/// On Linux, Foundation's `Bundle.localizedString` crashes when a key lives in a
/// `.stringsdict` and ignores `LANG`; this reads the tables itself: compiled (binary) or text
/// `.strings` and `.stringsdict`, from `Bundle.module`, a `.bundle` or any folder of
/// `<lang>.lproj` folders. Each table is loaded once, on first use, and cached; instances are
/// safe to share between threads.
///
/// ```swift
/// let strings = LocalizedStrings(bundle: .module)
/// strings.localized("%d files", arguments: [3])              // "3 files", in the user's language
/// strings.localized("greeting", language: "fr", arguments: ["Ada"])
/// ```
public final class LocalizedStrings: @unchecked Sendable {
  /// The folder holding the `<lang>.lproj` folders.
  public let path: String
  /// The language tried last, before `Base`.
  public let developmentLanguage: String
  /// The `.lproj` folders found, by name (`en`, `pt-BR`, `Base` ...).
  public let availableLanguages: [String]
  /// Called for each key found in no table (the key itself is returned, as Foundation does).
  public var missingKeyHandler:
    (@Sendable (_ key: String, _ table: String, _ languages: [String]) -> Void)?
  {
    get { lock.withLock { handler } }
    set { lock.withLock { handler = newValue } }
  }

  private let lock = NSLock()
  private var handler: (@Sendable (String, String, [String]) -> Void)?
  private var tables: [String: Table] = [:]
  private var chains: [String: [String]] = [:]

  /// One table in one language.
  private struct Table {
    var strings: [String: String] = [:]
    var rules: [String: PropertyListDictionary] = [:]
  }

  /// The tables of a bundle (`Bundle.module` or any other).
  public convenience init(bundle: Bundle, developmentLanguage: String? = nil) {
    self.init(
      path: bundle.resourcePath ?? bundle.bundlePath,
      developmentLanguage: developmentLanguage ?? bundle.developmentLocalization ?? "en")
  }

  /// The tables under `path`: a `.bundle`, or any folder holding `<lang>.lproj` folders.
  public init(path: String, developmentLanguage: String = "en") {
    var folder = path
    // A bundle's resources may sit in Contents/Resources (macOS layout).
    let macResources =
      path.hasSuffix("/") ? path + "Contents/Resources" : path + "/Contents/Resources"
    if FileManager.default.fileExists(atPath: macResources) { folder = macResources }
    self.path = folder
    self.developmentLanguage = developmentLanguage
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    availableLanguages = names.filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(6)) }
      .sorted()
  }

  /// The languages tried, in order, for `language` (or the environment's preferred ones).
  public func languageChain(for language: String? = nil) -> [String] {
    let key = language ?? ""
    if let chain = lock.withLock({ chains[key] }) { return chain }
    let preferred = language.map { [$0] } ?? LanguageResolver.preferredLanguages()
    let chain = LanguageResolver.fallbackChain(
      preferred: preferred, available: availableLanguages, developmentLanguage: developmentLanguage)
    lock.withLock { chains[key] = chain }
    return chain
  }

  /// The localized, formatted string for `key`: plural rules resolved with the language's
  /// CLDR rules, placeholders filled from `arguments`.
  ///
  /// - Parameters:
  ///   - key: The key, as in the development language's table.
  ///   - table: The table's name (`Localizable` for `Localizable.strings`).
  ///   - language: The language wanted; nil for the user's preferred languages.
  ///   - arguments: Values for the placeholders, in order (`%1$@` takes the first).
  /// - Returns: The text in the first language of the fallback chain that has the key; the
  ///   key itself when none has it.
  public func localized(
    _ key: String, table: String = "Localizable", language: String? = nil, arguments: [Any] = []
  ) -> String {
    let chain = languageChain(for: language)
    for name in chain {
      let loaded = self.table(table, language: name)
      if let rules = loaded.rules[key] {
        return PluralResolver.format(rules: rules, key: key, arguments: arguments, language: name)
      }
      if let format = loaded.strings[key] {
        return arguments.isEmpty ? format : LocalizedFormatter.format(format, arguments: arguments)
      }
    }
    missingKeyHandler?(key, table, chain)
    return arguments.isEmpty ? key : LocalizedFormatter.format(key, arguments: arguments)
  }

  /// The raw value of `key` (a format, unformatted) in the first language that has it.
  public func rawValue(_ key: String, table: String = "Localizable", language: String? = nil)
    -> String?
  {
    for name in languageChain(for: language) {
      if let value = self.table(table, language: name).strings[key] { return value }
    }
    return nil
  }

  private func table(_ name: String, language: String) -> Table {
    let cacheKey = language + "/" + name
    if let table = lock.withLock({ tables[cacheKey] }) { return table }
    let folder = (path.hasSuffix("/") ? path : path + "/") + "\(language).lproj"
    var table = Table()
    if case .dictionary(let strings)? = TableFileReader.value(atPath: "\(folder)/\(name).strings") {
      for (key, value) in strings {
        if case .string(let text) = value { table.strings[key] = text }
      }
    }
    if case .dictionary(let rules)? = TableFileReader.value(atPath: "\(folder)/\(name).stringsdict")
    {
      for (key, value) in rules {
        if case .dictionary(let entry) = value { table.rules[key] = entry }
      }
    }
    lock.withLock { tables[cacheKey] = table }
    return table
  }
}

/// Resolves `.stringsdict` entries: plural variables (nested too), device and width rules.
enum PluralResolver {
  static func format(rules: PropertyListDictionary, key: String, arguments: [Any], language: String)
    -> String
  {
    if let devices = rules["NSStringDeviceSpecificRuleType"]?.dictionaryValue {
      // No device on Linux: the generic case, else the Mac's, else the first.
      let choice = devices["other"] ?? devices["mac"] ?? devices.values.first
      if case .dictionary(let nested)? = choice {
        return format(rules: nested, key: key, arguments: arguments, language: language)
      }
      return LocalizedFormatter.format(choice?.stringValue ?? key, arguments: arguments)
    }
    if let widths = rules["NSStringVariableWidthRuleType"]?.dictionaryValue {
      let widest = widths.max { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }
      return LocalizedFormatter.format(widest?.value.stringValue ?? key, arguments: arguments)
    }
    let expanded = expand(
      rules["NSStringLocalizedFormatKey"]?.stringValue ?? key, rules: rules, arguments: arguments,
      language: language, depth: 0)
    return LocalizedFormatter.format(expanded, arguments: arguments)
  }

  /// Replaces each `%#@variable@` with the form its argument's plural category selects.
  /// Every placeholder is made positional first, so a form with fewer placeholders than
  /// the variable stood for cannot shift the arguments after it.
  static func expand(
    _ format: String, rules: PropertyListDictionary, arguments: [Any], language: String, depth: Int
  ) -> String {
    guard depth < 8 else { return format }
    let specifiers = FormatSpecifier.parse(format)
    guard specifiers.contains(where: { $0.variable != nil }) else { return format }
    let scalars = Array(format.unicodeScalars)
    var output = ""
    var cursor = 0
    for specifier in specifiers {
      output.unicodeScalars.append(contentsOf: scalars[cursor..<specifier.offset])
      cursor = specifier.offset + specifier.text.unicodeScalars.count
      guard let name = specifier.variable else {
        output += positional(specifier)
        continue
      }
      let variable = rules[name]?.dictionaryValue ?? [:]
      let argument = specifier.position <= arguments.count ? arguments[specifier.position - 1] : 0
      let category = PluralRules.category(
        for: LocalizedFormatter.pluralOperands(of: argument), language: language)
      let form = (variable[category.rawValue] ?? variable["other"])?.stringValue ?? ""
      // Unnumbered placeholders in the form stand for the variable's own argument.
      var resolved = ""
      let formScalars = Array(form.unicodeScalars)
      var formCursor = 0
      for inner in FormatSpecifier.parse(form) {
        resolved.unicodeScalars.append(contentsOf: formScalars[formCursor..<inner.offset])
        formCursor = inner.offset + inner.text.unicodeScalars.count
        var own = inner
        if !inner.isPositional { own.position = specifier.position }
        resolved += positional(own)
      }
      resolved.unicodeScalars.append(contentsOf: formScalars[formCursor...])
      output += expand(
        resolved, rules: rules, arguments: arguments, language: language, depth: depth + 1)
    }
    output.unicodeScalars.append(contentsOf: scalars[cursor...])
    return output
  }

  /// A placeholder rewritten with an explicit position (`%d` → `%2$d`).
  private static func positional(_ specifier: FormatSpecifier) -> String {
    guard !specifier.isPositional else { return specifier.text }
    return "%\(specifier.position)$" + specifier.text.dropFirst()
  }
}
