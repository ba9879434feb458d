import BundleKitDiagnostics
import BundleKitPropertyListCore

/// Merges the strings a target's code uses into its String Catalog, as Xcode's build does:
///
/// - a key new in the code is added, with its comment, and with its default value as a
///   `new` source-language unit when the code gives one apart from the key
///   (`extractionState` `extracted_with_value`);
/// - a key gone from the code becomes `stale` when it has any translation, and is removed
///   when it has none (nothing would be lost), as Xcode removes it;
/// - a stale key back in the code is live again;
/// - a `manual` key is never touched, found in the code or not; neither is a `migrated` key
///   the code does not use;
/// - comments follow the code (a key used in several places gets each distinct comment, one
///   per line, sorted as Xcode sorts them: by their characters, capitals first, whatever
///   the order of the code); a comment the code does not give is kept;
/// - a source value still in the `new` state follows the code's default value; a value
///   someone edited is kept, and reported.
///
/// No translation is ever removed. The catalog is written in Xcode's layout, so syncing a
/// catalog that is up to date changes no byte.
public enum CatalogSync {
  /// A string as the code uses it.
  public struct CodeString: Sendable, Hashable {
    /// The key, interpolations already turned into format specifiers.
    public var key: String
    /// The default value when the code gives one apart from the key.
    public var value: String?
    /// The comment for translators.
    public var comment: String?
    /// Where the code uses it, for messages.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int
    /// Whether a `%@` of the key stands for an interpolation whose type the extraction
    /// could not tell: the catalog's key may have another specifier there (`%lld`).
    public var uncertainSpecifiers: Bool

    /// A string used at `file:line:column`.
    public init(
      key: String, value: String? = nil, comment: String? = nil, file: String, line: Int,
      column: Int, uncertainSpecifiers: Bool = false
    ) {
      self.key = key
      self.value = value
      self.comment = comment
      self.file = file
      self.line = line
      self.column = column
      self.uncertainSpecifiers = uncertainSpecifiers
    }
  }

  /// One change sync makes to a catalog, by key.
  public enum Change: Sendable, Hashable, CustomStringConvertible {
    /// A key the code uses that the catalog did not have.
    case added(key: String)
    /// A key the code no longer uses, kept for its translations.
    case madeStale(key: String)
    /// A key the code no longer uses, removed because it had no translation.
    case removed(key: String)
    /// A stale key the code uses again.
    case revived(key: String)
    /// A comment that now says what the code says.
    case comment(key: String)
    /// A source value (or its extraction state) that now follows the code's default value.
    case value(key: String)

    /// The key changed.
    public var key: String {
      switch self {
      case .added(let key), .madeStale(let key), .removed(let key), .revived(let key),
        .comment(let key), .value(let key):
        key
      }
    }

    /// `+ key`, `~ key (stale)` ...: one line of a `--check` report.
    public var description: String {
      switch self {
      case .added(let key): "added \(StringsFile.literal(key))"
      case .madeStale(let key): "stale \(StringsFile.literal(key)) (no longer in the code)"
      case .removed(let key):
        "removed \(StringsFile.literal(key)) (no longer in the code, never translated)"
      case .revived(let key): "in use again \(StringsFile.literal(key))"
      case .comment(let key): "comment of \(StringsFile.literal(key))"
      case .value(let key): "source value of \(StringsFile.literal(key))"
      }
    }
  }

  /// A catalog after sync.
  public struct Result: Sendable {
    /// The catalog's bytes, in Xcode's layout; the file's own bytes when nothing changed.
    public var bytes: [UInt8]
    /// What changed, in key order.
    public var changes: [Change]
    /// Findings about the code's strings: one key with two default values, a source value
    /// someone edited that differs from the code's.
    public var diagnostics: [Diagnostic]
  }

  /// The key's merged use: every place, distinct comments in order, the first default value.
  private struct Use {
    var first: CodeString
    var comments: [String] = []
    var value: String?

    /// The catalog's comment: each distinct comment on a line of its own, sorted (seen in
    /// every key of OmniKit's catalogs whose uses the code orders otherwise: "...
    /// podExpireImminent ..." before "... podExpiring ...", "Description for Pod ..." before
    /// "Description for pod ...").
    var comment: String { comments.sorted().joined(separator: "\n") }
  }

  /// Merges `strings` (the code's uses of this catalog's table, in source order) into
  /// `catalog`.
  ///
  /// - Parameter literals: the text of every string literal of the code, localized or not,
  ///   interpolations written `%@`. A key the catalog has as extracted that the extraction
  ///   did not find, but that the code holds as a literal, is in the code in a form the
  ///   extraction does not read as localized (a `String` property that a `LocalizedStringKey`
  ///   parameter takes): it is left as it is, with a note, never made stale or removed.
  public static func sync(
    _ catalog: StringCatalog, with strings: [CodeString], literals: Set<String> = []
  )
    throws(PropertyListError) -> Result
  {
    var diagnostics: [Diagnostic] = []
    var uses: [String: Use] = [:]
    for string in strings {
      var use = uses[string.key] ?? Use(first: string, value: string.value)
      if let comment = string.comment, !comment.isEmpty, !use.comments.contains(comment) {
        use.comments.append(comment)
      }
      if let value = string.value, let first = use.value, value != first {
        diagnostics.append(
          Diagnostic(
            .warning, path: string.file, line: string.line, column: string.column,
            "\(StringsFile.literal(string.key)) has the default value \(StringsFile.literal(value)) here and \(StringsFile.literal(first)) at \(use.first.file):\(use.first.line); the catalog keeps the first",
            rule: Diagnostic.Rule(name: "conflicting-default-value")))
      } else if use.value == nil {
        use.value = string.value
      }
      uses[string.key] = use
    }

    var (root, entries) = try CatalogJSON.read(catalog)
    let source = catalog.sourceLanguage
    var changes: [Change] = []
    // A key the code holds in a form extraction cannot fully read (`"+\(value)"` of a type
    // it cannot tell, written `+%@`) is the catalog's key that differs only there (`+%lld`):
    // it is neither added nor made stale.
    for (key, use) in uses where entries[key] == nil && use.first.uncertainSpecifiers {
      let candidates = entries.keys.filter {
        uses[$0] == nil && FormatKeyPattern.matches(code: key, catalog: $0, anySpecifier: true)
      }
      guard candidates.count == 1, let match = candidates.first else { continue }
      uses[key] = nil
      var merged = uses[match] ?? use
      merged.comments += use.comments.filter { !merged.comments.contains($0) }
      uses[match] = merged
      diagnostics.append(
        Diagnostic(
          .note, path: use.first.file, line: use.first.line, column: use.first.column,
          "\(StringsFile.literal(key)) taken as the catalog's \(StringsFile.literal(match)): an interpolation's type could not be told here"
        ))
    }
    for (key, use) in uses {
      guard var entry = entries[key] as? [String: Any] else {
        entries[key] = newEntry(use, source: source)
        changes.append(.added(key: key))
        continue
      }
      let state = entry["extractionState"] as? String
      if state == "manual" { continue }
      if state == "stale" { changes.append(.revived(key: key)) }
      let comment = use.comment
      if !comment.isEmpty, entry["comment"] as? String != comment {
        entry["comment"] = comment
        // The developer's comment replaces one Xcode generated, as Xcode's build does.
        entry["isCommentAutoGenerated"] = nil
        changes.append(.comment(key: key))
      }
      let wanted: String? = use.value == nil || use.value == key ? nil : "extracted_with_value"
      var valueChanged = false
      if let value = wanted == nil ? nil : use.value {
        var localizations = entry["localizations"] as? [String: Any] ?? [:]
        var unit = (localizations[source] as? [String: Any])?["stringUnit"] as? [String: Any]
        if unit == nil || unit?["state"] as? String == "new" {
          if unit?["value"] as? String != value {
            unit = ["state": "new", "value": value]
            var sourceLocalization = localizations[source] as? [String: Any] ?? [:]
            sourceLocalization["stringUnit"] = unit
            localizations[source] = sourceLocalization
            entry["localizations"] = localizations
            valueChanged = true
          }
        } else if let edited = unit?["value"] as? String, edited != value {
          diagnostics.append(
            Diagnostic(
              .note, path: use.first.file, line: use.first.line, column: use.first.column,
              "\(StringsFile.literal(key)): the catalog's \(source) value \(StringsFile.literal(edited)) was edited, so the code's default value \(StringsFile.literal(value)) is not written"
            ))
        }
      }
      // Stale, migrated or extracted: from now on what the code says.
      if state != wanted {
        if let wanted { entry["extractionState"] = wanted } else { entry["extractionState"] = nil }
        if state != "stale" { valueChanged = true }
      }
      if valueChanged { changes.append(.value(key: key)) }
      entries[key] = entry
    }
    // Literals with interpolations, which stand for keys with any specifiers there.
    let patterns = literals.filter { $0.contains("%@") }
    for (key, value) in entries where uses[key] == nil {
      guard var entry = value as? [String: Any] else { continue }
      let state = entry["extractionState"] as? String
      if state == "manual" || state == "migrated" || state == "stale" { continue }
      if literals.contains(key)
        || patterns.contains(where: { FormatKeyPattern.matches(code: $0, catalog: key) })
      {
        diagnostics.append(
          Diagnostic(
            .note, path: catalog.path,
            "\(StringsFile.literal(key)) is kept: the code holds it as a string literal that BundleKit does not read as localized (Xcode may: a String passed where a LocalizedStringKey is taken)"
          ))
        continue
      }
      if hasTranslation(entry, source: source) {
        entry["extractionState"] = "stale"
        entries[key] = entry
        changes.append(.madeStale(key: key))
      } else {
        entries[key] = nil
        changes.append(.removed(key: key))
      }
    }
    guard !changes.isEmpty else {
      return Result(bytes: catalog.contents, changes: [], diagnostics: diagnostics)
    }
    root["strings"] = entries
    changes.sort { ($0.key, $0.description) < ($1.key, $1.description) }
    return Result(
      bytes: try CatalogJSON.bytes(root, like: catalog.contents, path: catalog.path),
      changes: changes, diagnostics: diagnostics)
  }

  /// The String Catalog Xcode's build makes at `path` for a target whose code uses a table
  /// it has no table for: `strings` synced into an empty catalog of `sourceLanguage`.
  public static func newCatalog(
    at path: String, sourceLanguage: String, with strings: [CodeString]
  ) throws(PropertyListError) -> [UInt8] {
    let root: [String: Any] = [
      "sourceLanguage": sourceLanguage, "strings": [String: Any](), "version": "1.0",
    ]
    let empty = try StringCatalog(
      bytes: try CatalogJSON.bytes(root, like: [], path: path), path: path)
    return try sync(empty, with: strings).bytes
  }

  /// A key as Xcode adds it: `{}`, its comment, its default value as a `new` source unit;
  /// a key of two or more format specifiers with them numbered as its `new` source unit
  /// (`"%@ - %@"` is `"%1$@ - %2$@"`: every such key Xcode extracted in the ecosystem's
  /// catalogs, 25 of 25).
  private static func newEntry(_ use: Use, source: String) -> [String: Any] {
    var entry: [String: Any] = [:]
    if !use.comments.isEmpty { entry["comment"] = use.comment }
    if let value = use.value, value != use.first.key {
      entry["extractionState"] = "extracted_with_value"
      entry["localizations"] = [source: ["stringUnit": ["state": "new", "value": value]]]
    } else if let numbered = numbered(use.first.key) {
      entry["localizations"] = [source: ["stringUnit": ["state": "new", "value": numbered]]]
    }
    return entry
  }

  /// `key` with each format specifier numbered (`%1$@`, `%2$lld`), when it has two or more
  /// and none is numbered already; nil otherwise.
  static func numbered(_ key: String) -> String? {
    let bytes = Array(key.utf8)
    var result: [UInt8] = []
    var count = 0
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "%") else {
        result.append(bytes[index])
        index += 1
        continue
      }
      if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "%") {
        result += [bytes[index], bytes[index + 1]]
        index += 2
        continue
      }
      guard let end = FormatKeyPattern.specifierEnd(bytes, from: index) else {
        result.append(bytes[index])
        index += 1
        continue
      }
      let specifier = bytes[(index + 1)..<end]
      // Already numbered: Xcode leaves the key as it is.
      if let dollar = specifier.firstIndex(of: UInt8(ascii: "$")),
        specifier[specifier.startIndex..<dollar].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
      {
        return nil
      }
      count += 1
      result.append(UInt8(ascii: "%"))
      result += Array("\(count)$".utf8)
      result += specifier
      index = end
    }
    return count >= 2 ? String(decoding: result, as: UTF8.self) : nil
  }

  /// Whether removing the entry would lose work: a unit in any language other than the
  /// extracted source value (`new`), or any variation.
  private static func hasTranslation(_ entry: [String: Any], source: String) -> Bool {
    guard let localizations = entry["localizations"] as? [String: Any] else { return false }
    for (language, value) in localizations {
      guard language == source, let localization = value as? [String: Any] else { return true }
      if localization.keys.contains(where: { $0 != "stringUnit" }) { return true }
      if (localization["stringUnit"] as? [String: Any])?["state"] as? String != "new" {
        return true
      }
    }
    return false
  }
}

/// Whether a key whose `%@` may stand for any specifier is a catalog's key.
enum FormatKeyPattern {
  /// True when `catalog` is `code` with each `%@` of `code` replaced by some format
  /// specifier (`%lld`, `%d`, `%.2f`, `%@` ...), and otherwise the same.
  ///
  /// With `anySpecifier`, every specifier of `code` stands for any (`%lld` guessed from
  /// `index + 1` is the catalog's `%d`).
  static func matches(code: String, catalog: String, anySpecifier: Bool = false) -> Bool {
    let code = Array(code.utf8)
    let catalog = Array(catalog.utf8)
    var i = 0
    var j = 0
    while i < code.count {
      if code[i] == UInt8(ascii: "%"), i + 1 < code.count {
        if code[i + 1] == UInt8(ascii: "%") {
          guard j + 1 < catalog.count, catalog[j] == code[i], catalog[j + 1] == code[i + 1]
          else { return false }
          i += 2
          j += 2
          continue
        }
        if anySpecifier, let codeEnd = specifierEnd(code, from: i) {
          guard let end = specifierEnd(catalog, from: j) else { return false }
          i = codeEnd
          j = end
          continue
        }
        if code[i + 1] == UInt8(ascii: "@") {
          guard let end = specifierEnd(catalog, from: j) else { return false }
          i += 2
          j = end
          continue
        }
      }
      guard j < catalog.count, catalog[j] == code[i] else { return false }
      i += 1
      j += 1
    }
    return j == catalog.count
  }

  /// The end of the format specifier at `start` of `bytes`, nil when none starts there.
  static func specifierEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "%") else { return nil }
    var index = start + 1
    let flags = Set("-+ #0'".utf8)
    let lengths = Set("hlqLzjt".utf8)
    let conversions = Set("@dDiuUxXoOfFeEgGcCsSpaA".utf8)
    // A positional argument (`%1$@`), flags, width, precision, length, conversion.
    var digits = index
    while digits < bytes.count, bytes[digits] >= 0x30, bytes[digits] <= 0x39 { digits += 1 }
    if digits > index, digits < bytes.count, bytes[digits] == UInt8(ascii: "$") {
      index = digits + 1
    }
    while index < bytes.count, flags.contains(bytes[index]) { index += 1 }
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    }
    while index < bytes.count, lengths.contains(bytes[index]) { index += 1 }
    guard index < bytes.count, conversions.contains(bytes[index]) else { return nil }
    return index + 1
  }
}
