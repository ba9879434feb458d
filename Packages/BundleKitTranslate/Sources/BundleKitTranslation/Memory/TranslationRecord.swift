/// Where a translation stands in review.
public enum ReviewState: String, Sendable, Hashable, Codable, CaseIterable {
  /// Translated (from a table, or imported as translated).
  case translated
  /// A suggestion someone must look at (machine or fuzzy, or marked so by a tool).
  case needsReview = "needs_review"
  /// Looked at and accepted.
  case approved
}

/// One value of one table in one language, as the memory stores it.
public struct TranslationRecord: Sendable, Hashable, Codable {
  /// The app (project) the entry belongs to; empty when the memory holds one.
  public var project: String = ""
  /// The folder holding the table's `<lang>.lproj` folders or catalog: tells apart tables of
  /// the same name in different packages.
  public var bundle: String
  /// The table name (`Localizable`).
  public var table: String
  /// The key.
  public var key: String
  /// Which form of the entry: empty for a plain string; for plural and device forms the path
  /// to it, such as `count.one` (`.stringsdict`) or `plural.one`, `device.mac` (catalogs).
  public var variant: String
  /// The normalised language tag (`pt-BR`, `zh-Hans`, `Base`).
  public var language: String
  /// The text.
  public var value: String
  /// The comment the file gives for the entry, if any.
  public var comment: String?
  /// The same entry's text in the development language, when the memory has it.
  public var source: String?
  /// Where this translation stands in review.
  public var state: ReviewState = .translated

  /// A record.
  public init(
    bundle: String, table: String, key: String, variant: String = "", language: String,
    value: String, comment: String? = nil, source: String? = nil, project: String = "",
    state: ReviewState = .translated
  ) {
    self.project = project
    self.state = state
    self.bundle = bundle
    self.table = table
    self.key = key
    self.variant = variant
    self.language = language
    self.value = value
    self.comment = comment
    self.source = source
  }
}

/// A translation found for a text, with where it comes from.
public struct TranslationMatch: Sendable, Hashable, Codable {
  /// How the text was found.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// The text is a value in the memory, character for character.
    case exact
    /// The text equals a value once case, punctuation and white space are set aside.
    case normalized
    /// The text is like a value in the memory (see `score`).
    case fuzzy
  }

  /// The translation.
  public var translation: String
  /// The language the translation is in (after fallback, maybe not the one asked for).
  public var language: String
  /// The entry the translation belongs to.
  public var record: TranslationRecord
  /// The memory's text that matched the query (in the source language).
  public var matchedText: String
  /// How it matched.
  public var kind: Kind
  /// 1 for exact and normalised matches; the similarity for fuzzy ones.
  public var score: Double
  /// How many entries share this translation for this text: more is a safer choice.
  public var occurrences: Int
}
