import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import Foundation
import OrderedCollections

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

  /// Everything found in the tables at `locations`, in file order.
  ///
  /// - Parameter locations: The tables, as ``TableDiscovery`` finds them.
  /// - Returns: Each finding with its file, line, column and rule, at the rule's own severity
  ///   (apply a ``SeverityPolicy`` to choose others).
  public func lint(_ locations: [TableLocation]) -> [Diagnostic] {
    lint(StringsTableSet.load(locations))
  }

  /// Everything found in tables already read.
  public func lint(_ loaded: StringsTableSet) -> [Diagnostic] {
    var diagnostics = loaded.diagnostics
    for location in loaded.locations {
      if let language = location.language, !LanguageName.isValid(language) {
        diagnostics.append(
          Diagnostic(
            .error, .invalidLanguage, location.path,
            "its folder \(StringCatalog.quoted(language + ".lproj")) names no language (a BCP 47 tag: letters, digits, - and _)"
          ))
      }
      if let file = loaded.strings[location] { diagnostics += check(file) }
      if let file = loaded.stringsdicts[location] {
        diagnostics += file.validate(language: location.language ?? developmentLanguage)
      }
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
      Diagnostic(.error, .syntax, path, line: line, column: column, message)
    case .io(let file, let message):
      // The file that failed: the table, or a folder or output on the way to it.
      Diagnostic(.error, .syntax, file, message)
    default:
      Diagnostic(.error, .syntax, path, error.message)
    }
  }

  // MARK: One file

  func check(_ file: StringsFile) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for duplicate in file.duplicates {
      let (key, repeats) = (duplicate.key, duplicate.entries)
      let first = repeats[0]
      for entry in repeats.dropFirst() {
        // The same value twice is harmless; two values are read as CoreFoundation reads
        // them, the last one winning, which the message names.
        let kept = file.dictionary[key].map { $0.stringValue.map { "\"\($0)\"" } ?? $0.typeName }
        diagnostics.append(
          entry.value == first.value
            ? Diagnostic(
              .warning, .duplicateKey, file.path, line: entry.line, column: entry.column,
              "duplicate key \"\(key)\" (first at line \(first.line)), with the same value")
            : Diagnostic(
              .warning, .conflictingDuplicate, file.path, line: entry.line, column: entry.column,
              "key \"\(key)\" is defined again with another value (first at line \(first.line)); the last one, \(kept ?? "?"), is what the app reads: keep one"
            ))
      }
    }
    let notFormat = file.notFormatKeys
    for entry in file.entries {
      guard case .string(let value) = entry.value else {
        diagnostics.append(
          Diagnostic(
            .warning, .notAString, file.path, line: entry.line, column: entry.column,
            "the value of \"\(entry.key)\" is a \(entry.value.typeName), not a string"))
        continue
      }
      // The empty key translated as empty is how tables hold nothing for "": no finding.
      if value.isEmpty, !entry.key.isEmpty {
        diagnostics.append(
          Diagnostic(
            .warning, .emptyValue, file.path, line: entry.line, column: entry.column,
            "empty value for \"\(entry.key)\""))
      }
      if notFormat(entry.key) { continue }
      for problem in Self.formatProblems(value) {
        diagnostics.append(
          Diagnostic(
            problem.severity, problem.rule, file.path, line: entry.line, column: entry.column,
            "\"\(entry.key)\": \(problem.message)"))
      }
    }
    return diagnostics
  }

  /// A problem within one format string.
  struct FormatProblem {
    var severity: Diagnostic.Severity
    var rule: StringsRule
    var message: String
  }

  /// What to add to a message about a placeholder that may be a `%` meant as text.
  static let literalPercentHint = " (if the % is text, write %%)"

  /// Problems within one format string: an argument used with two types, a skipped
  /// argument, an unsafe placeholder.
  static func formatProblems(_ value: String, checkGaps: Bool = true) -> [FormatProblem] {
    var probe = value
    let hasPercent = probe.withUTF8 { utf8 in
      utf8.baseAddress.map { memchr($0, Int32(UInt8(ascii: "%")), utf8.count) != nil } ?? false
    }
    guard hasPercent else { return [] }
    let specifiers = lintSpecifiers(value)
    var problems: [FormatProblem] = []
    for specifier in specifiers where unsafeKinds.contains(specifier.kind) {
      problems.append(
        FormatProblem(
          severity: .warning, rule: .unsafePlaceholder,
          message:
            "the placeholder \(specifier.text) takes \(specifier.typeName), which Swift cannot pass safely; use %@"
            + (specifier.text.contains(" ") ? literalPercentHint : "")))
    }
    let signature = FormatSignature(specifiers: specifiers)
    for conflict in signature.conflicts {
      let (position, first, other) = (conflict.position, conflict.first, conflict.other)
      problems.append(
        FormatProblem(
          severity: .error, rule: .placeholderTypeConflict,
          message: "argument \(position) is used as \(first.typeName) and as \(other.typeName)"))
    }
    if checkGaps {
      problems += signature.gapMessages.map {
        FormatProblem(severity: .warning, rule: .unusedArgument, message: $0 + literalPercentHint)
      }
    }
    return problems
  }

  func check(_ catalog: StringCatalog) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = catalog.duplicateKeys.map { duplicate in
      Diagnostic(
        .warning, .duplicateKey, catalog.path, line: duplicate.line, column: duplicate.column,
        "\"\(duplicate.key)\" is written twice in one object (a merge gone wrong?); the last one is read"
      )
    }
    let languages = catalog.languages
    // Lines are found only once there is something to report: most keys have nothing.
    var lines: KeyLines?
    for (key, entry) in catalog.strings {
      func report(_ severity: Diagnostic.Severity, _ rule: StringsRule, _ message: String) {
        if lines == nil { lines = catalog.keyLines() }
        diagnostics.append(
          Diagnostic(
            severity, rule, catalog.path, line: lines?.line(of: key), "\"\(key)\": \(message)"))
      }
      let checksFormat = !Self.marksNotFormat(entry.comment)
      let source = entry.localizations[catalog.sourceLanguage]
      let sourceSignature = Self.signature(of: source, key: key)
      for (language, localization) in entry.localizations {
        for (text, isSubstitutionCase) in Self.texts(of: localization) {
          if text.isEmpty, !isSubstitutionCase {
            report(.warning, .emptyValue, "empty value in \(language)")
          }
          guard checksFormat else { continue }
          // A substitution case holds only its own argument (`%2$lld`): no gaps to check.
          for problem in Self.formatProblems(text, checkGaps: !isSubstitutionCase) {
            report(problem.severity, problem.rule, "\(language): \(problem.message)")
          }
        }
        for (name, substitution) in localization.substitutions {
          if let problem = PluralForms.problem(
            Set(substitution.variations?.cases.keys.map { $0 } ?? []), language: language,
            integersOnly: true)
          {
            report(
              problem.severity, .pluralForms,
              "\(language): substitution '\(name)' \(problem.message)")
          }
        }
        if let variations = localization.variations, variations.kind == "plural" {
          for category in variations.cases.keys
          where !StringsdictFile.pluralCategories.contains(category) {
            report(.error, .pluralForms, "\(language): '\(category)' is not a plural category")
          }
          if let problem = PluralForms.problem(
            Set(variations.cases.keys), language: language, integersOnly: true)
          {
            report(
              problem.severity, .pluralForms, "\(language): plural variation \(problem.message)")
          }
        }
        guard checksFormat, language != catalog.sourceLanguage, let sourceSignature,
          sourceSignature.count > 0
        else { continue }
        let signature = Self.signature(of: localization, key: key)
        for problem in Self.compare(
          signature ?? FormatSignature(specifiers: []), with: sourceSignature)
        {
          report(problem.severity, problem.rule, "\(language): \(problem.message)")
        }
      }
      if entry.shouldTranslate {
        for language in languages
        where entry.localizations[language] == nil && language != catalog.sourceLanguage
          && !Self.inherits(language, in: entry.localizations.keys, source: catalog.sourceLanguage)
        {
          report(.warning, .missingTranslation, "not translated to \(language)")
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
  /// The placeholders lint checks in `value`. `%`, digits or none, a space and a letter is
  /// text: "50% of screen" and "100% sure" (a stray `%` before a word), and an app's own
  /// `%0`/`%1` tokens it replaces itself ("Track %1 of %0 songs"), which printf would read
  /// as octal and C strings. Xcode's export numbers those too ("50%1$ and 150%2$ of" for
  /// "50% and 150% of", Ketchup's). It counts as a placeholder only where `formatted` (the
  /// development value's placeholders) uses the very same one.
  static func lintSpecifiers(_ value: String, formatted: Set<String> = []) -> [FormatSpecifier] {
    FormatSpecifier.parse(value).filter { specifier in
      guard isTextLike(specifier.text) else { return true }
      return formatted.contains(specifier.text)
    }
  }

  /// `%`, ASCII digits (with `$` after them, as Xcode numbers them) or none, one space, one
  /// letter.
  private static func isTextLike(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    guard bytes.count >= 3, bytes.first == 0x25, bytes[bytes.endIndex - 2] == 0x20,
      let last = bytes.last, (0x41...0x5A).contains(last) || (0x61...0x7A).contains(last)
    else { return false }
    bytes = bytes.dropFirst().dropLast(2)
    if bytes.last == UInt8(ascii: "$") {
      bytes = bytes.dropLast()
      guard !bytes.isEmpty else { return false }
    }
    return bytes.allSatisfy { (0x30...0x39).contains($0) }
  }

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
      // Positional arguments in the substitution's own cases ("%arg of %3$lld") are
      // arguments the text passes too.
      for variant in substitution?.variations?.cases.values.map({ $0 }) ?? [] {
        for inner in FormatSpecifier.parse(variant.stringUnit?.value ?? "")
        where inner.isPositional && !specifiers.contains(where: { $0.position == inner.position }) {
          specifiers.append(inner)
        }
      }
    }
    return FormatSignature(specifiers: specifiers)
  }

  /// How a translation's arguments differ from the development language's.
  static func compare(_ translation: FormatSignature, with development: FormatSignature)
    -> [FormatProblem]
  {
    var problems: [FormatProblem] = []
    let positions = Set(translation.arguments.keys).union(development.arguments.keys).sorted()
    for position in positions {
      let theirs = translation.arguments[position]?.first
      let ours = development.arguments[position]?.first
      switch (ours, theirs) {
      case (let ours?, let theirs?) where !theirs.isCompatible(with: ours):
        problems.append(
          FormatProblem(
            severity: .error, rule: .placeholderMismatch,
            message:
              "argument \(position) is \(theirs.typeName) but \(ours.typeName) in the development language"
          ))
      case (nil, let theirs?):
        problems.append(
          FormatProblem(
            severity: .error, rule: .placeholderMismatch,
            message:
              "uses argument \(position) (\(theirs.text)), which the development language does not pass"
          ))
      case (let ours?, nil):
        problems.append(
          FormatProblem(
            severity: .warning, rule: .missingPlaceholder,
            message: "does not use argument \(position) (\(ours.text))"))
      default:
        break
      }
    }
    return problems
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
