import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation

/// Fills one language's `.stringsdict` from the development language's. Each missing key
/// gets the same rules with its texts translated and plural cases for the target language's
/// categories (Russian gets `one few many other` from English `one other`). XML files get the
/// entry inserted with a review comment, every other byte kept; binary files stay binary.
struct StringsdictFill: FileJob {
  let target: String
  let language: String
  let table: String
  private let existing: (bytes: [UInt8], entries: PropertyListDictionary)?
  /// Per missing key, its rules and the texts in them: (variant, source text).
  private let missing: [(key: String, rules: PropertyListValue, texts: [(String, String)])]

  init(source: String, target: String, language: String, table: String) throws {
    self.target = target
    self.language = language
    self.table = table
    let sourceFile = try StringsdictFile(contentsOfFile: source)
    if FileManager.default.fileExists(atPath: target) {
      let bytes = try FileIO.read(target)
      existing = (bytes, try StringsdictFile(bytes: bytes, path: target).entries)
    } else {
      existing = nil
    }
    var missing: [(String, PropertyListValue, [(String, String)])] = []
    for (key, rules) in sourceFile.entries where existing?.entries[key] == nil {
      let template = Self.template(rules, language: language)
      let texts = TableReader.flattenRules(template)
      guard !texts.isEmpty else { continue }
      missing.append((key, template, texts))
    }
    self.missing = missing
  }

  /// The rules with each plural rule dictionary's cases made the target language's:
  /// a category the source lacks takes the source's `other` text.
  static func template(_ rules: PropertyListValue, language: String) -> PropertyListValue {
    guard case .dictionary(let dictionary) = rules else { return rules }
    var result = PropertyListDictionary()
    let isPlural = dictionary["NSStringFormatSpecTypeKey"]?.stringValue == "NSStringPluralRuleType"
    for (name, value) in dictionary {
      if isPlural, StringsdictFile.pluralCategories.contains(name) { continue }
      result[name] = template(value, language: language)
    }
    if isPlural {
      for category in PluralRules.categories(for: language) {
        if let text = dictionary[category.rawValue] ?? dictionary["other"] {
          result[category.rawValue] = text
        }
      }
    }
    return .dictionary(result)
  }

  var needs: [FillNeed] {
    missing.flatMap { entry in
      entry.texts.map {
        FillNeed(language: language, text: $0.1, table: table, key: entry.key, variant: $0.0)
      }
    }
  }

  /// `rules` with each text replaced by its translation.
  private func translated(_ rules: PropertyListValue, path: [String], _ lookup: (String) -> String?)
    -> PropertyListValue?
  {
    switch rules {
    case .string:
      let name = path.map { $0 == "NSStringLocalizedFormatKey" ? "format" : $0 }
      return lookup(name.joined(separator: ".")).map(PropertyListValue.string)
    case .dictionary(let dictionary):
      var result = PropertyListDictionary()
      for (name, value) in dictionary {
        if name.hasPrefix("NSString"), name != "NSStringLocalizedFormatKey" {
          result[name] = value
          continue
        }
        guard let child = translated(value, path: path + [name], lookup) else { return nil }
        result[name] = child
      }
      return .dictionary(result)
    default:
      return rules
    }
  }

  func apply(
    found: [FillNeed: (String, FillOrigin)], failures: [FillNeed: String], to plan: inout FillPlan
  ) throws {
    var additions: [(key: String, value: PropertyListValue, origin: FillOrigin)] = []
    for entry in missing {
      var origin = FillOrigin.memory
      var failure: String?
      let value = translated(entry.rules, path: []) { variant in
        let text = entry.texts.first { $0.0 == variant }?.1 ?? ""
        let need = FillNeed(
          language: language, text: text, table: table, key: entry.key, variant: variant)
        guard let (translation, from) = found[need] else {
          failure = failure ?? failures[need] ?? "no translation"
          return nil
        }
        if from == .provider { origin = .provider }
        return translation
      }
      guard let value else {
        plan.unfilled.append(
          UnfilledEntry(
            path: target, key: entry.key, language: language, reason: failure ?? "no translation"))
        continue
      }
      additions.append((entry.key, value, origin))
      for (variant, text) in TableReader.flattenRules(value) {
        plan.filled.append(
          FilledEntry(
            path: target, key: entry.key, variant: variant, language: language, value: text,
            origin: origin))
      }
    }
    guard !additions.isEmpty else { return }
    let after = try bytes(adding: additions)
    // What is written must read back: old entries unchanged, new ones as planned.
    let check = try StringsdictFile(bytes: after, path: target).entries
    for (key, value, _) in additions where check[key] != value {
      throw TranslationError.unreadableTable(
        path: target, message: "internal error: \"\(key)\" would not read back as written")
    }
    for (key, value) in existing?.entries ?? [:] where check[key] != value {
      throw TranslationError.unreadableTable(
        path: target, message: "internal error: \"\(key)\" would change")
    }
    plan.changes.append(FillPlan.Change(path: target, before: existing?.bytes, after: after))
  }

  private func bytes(
    adding additions: [(key: String, value: PropertyListValue, origin: FillOrigin)]
  )
    throws -> [UInt8]
  {
    // Binary stays binary: no comments there, so the values alone. So does XML that is not
    // UTF-8, which the text insertion below cannot edit safely.
    if let existing,
      existing.bytes.starts(with: Array("bplist".utf8))
        || String(bytes: existing.bytes, encoding: .utf8) == nil
    {
      let format: PropertyListFormat =
        existing.bytes.starts(with: Array("bplist".utf8)) ? .binary1 : .xml1
      var entries = existing.entries
      for addition in additions { entries[addition.key] = addition.value }
      return try PropertyListDocument(value: .dictionary(entries), format: format).encoded()
    }
    // The entries as Apple's XML writer lays them out, one tab in, each under a comment.
    var fragment = ""
    for addition in additions {
      var single = PropertyListDictionary()
      single[addition.key] = addition.value
      let xml = String(
        decoding: try PropertyListDocument(value: .dictionary(single), format: .xml1).encoded(),
        as: UTF8.self)
      let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
      guard let open = lines.firstIndex(of: "<dict>"), let close = lines.lastIndex(of: "</dict>")
      else { continue }
      let comment = XMLEscaping.escape(FillMark.text(addition.origin)).replacingOccurrences(
        of: "--", with: "- -")
      fragment +=
        "\t<!-- \(comment) -->\n" + lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }
    guard let existing else {
      let empty = try PropertyListDocument(value: .dictionary([:]), format: .xml1).encoded()
      let text = String(decoding: empty, as: UTF8.self).replacingOccurrences(
        of: "<dict/>", with: "<dict>\n" + fragment + "</dict>")
      return Array(text.utf8)
    }
    let text = String(decoding: existing.bytes, as: UTF8.self)
    if let close = text.range(of: "</dict>", options: .backwards) {
      // Before the root dictionary's end, at the start of its line.
      let lineStart =
        text[..<close.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) }
        ?? close.lowerBound
      let indentOnly = text[lineStart..<close.lowerBound].allSatisfy { $0 == " " || $0 == "\t" }
      let at = indentOnly ? lineStart : close.lowerBound
      let prefix = indentOnly ? "" : "\n"
      return Array((String(text[..<at]) + prefix + fragment + String(text[at...])).utf8)
    }
    if let empty = text.range(of: "<dict/>") {
      return Array(
        text.replacingCharacters(in: empty, with: "<dict>\n" + fragment + "</dict>").utf8)
    }
    throw TranslationError.unreadableTable(
      path: target, message: "cannot find the root dictionary's end to insert entries")
  }
}
