import GRDB

/// The memory's tables. A unit is one form of one key of one table in one bundle; each has a
/// value per language. Lookups by text go through `translations(value, language)` and
/// `translations(normalized, language)`; a match's other languages through the unit.
enum MemorySchema {
  /// Bumped when the layout changes, with a migration from the version before.
  static let version = 2
  /// The oldest layout lookups still read (they use no column added since).
  static let oldestReadable = 1

  /// The statements that bring a memory of version `key` to `key + 1`, run in one
  /// transaction with the version in `meta` (`bundlekit translate migrate`, or any write).
  static let migrations: [Int: [String]] = [
    1: [
      "ALTER TABLE units ADD COLUMN project TEXT NOT NULL DEFAULT ''",
      "ALTER TABLE translations ADD COLUMN state TEXT NOT NULL DEFAULT 'translated'",
    ]
  ]

  static let statements = [
    """
    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID
    """,
    """
    CREATE TABLE units (
      id INTEGER PRIMARY KEY,
      bundle TEXT NOT NULL,
      tbl TEXT NOT NULL,
      key TEXT NOT NULL,
      variant TEXT NOT NULL,
      source TEXT,
      project TEXT NOT NULL DEFAULT ''
    )
    """,
    """
    CREATE TABLE translations (
      unit INTEGER NOT NULL REFERENCES units(id),
      language TEXT NOT NULL,
      value TEXT NOT NULL,
      normalized TEXT NOT NULL,
      comment TEXT,
      state TEXT NOT NULL DEFAULT 'translated',
      PRIMARY KEY (unit, language)
    ) WITHOUT ROWID
    """,
  ]

  /// Built after the rows are in: one sort per index instead of a tree update per row.
  static let indexes = [
    "CREATE UNIQUE INDEX units_by_key ON units (key, tbl, bundle, variant, project)",
    "CREATE INDEX translations_by_value ON translations (value, language)",
    "CREATE INDEX translations_by_normalized ON translations (normalized, language)",
    "CREATE INDEX translations_by_language ON translations (language)",
  ]

  /// What a memory of schema `found` (as `meta` says) may do here: nil when lookups can read
  /// it, else the reason they cannot.
  static func readProblem(_ found: String?) -> String? {
    guard let found, let number = Int(found) else {
      return
        "made by another version of BundleKit (schema ?); build it again with `bundlekit translate index`"
    }
    if number > version {
      return
        "made by a newer bundlekit-translate (schema \(number); this one reads schemas \(oldestReadable) to \(version)): upgrade bundlekit-translate"
    }
    if number < oldestReadable {
      return
        "made by an older BundleKit (schema \(number)); build it again with `bundlekit translate index`"
    }
    return nil
  }

  /// The memory's `meta` table as a dictionary (schema, development language, languages).
  static func meta(_ db: Database) throws -> [String: String] {
    try Dictionary(
      Row.fetchAll(db, sql: "SELECT name, value FROM meta").map {
        ($0[0] as String, $0[1] as String)
      }, uniquingKeysWith: { _, last in last })
  }

  /// Whether a memory with this `meta` has projects and review states (schema 2 on); an
  /// older one is read as one project, every translation `translated`.
  static func hasProjectsAndStates(_ meta: [String: String]) -> Bool {
    (Int(meta["schema"] ?? "") ?? 1) >= 2
  }
}
