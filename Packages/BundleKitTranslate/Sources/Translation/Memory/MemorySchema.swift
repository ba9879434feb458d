/// The memory's tables. A unit is one form of one key of one table in one bundle; each has a
/// value per language. Lookups by text go through `translations(value, language)` and
/// `translations(normalized, language)`; a match's other languages through the unit.
enum MemorySchema {
  /// Bumped when the layout changes; older files are refused with a message to rebuild.
  static let version = 1

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
      source TEXT
    )
    """,
    """
    CREATE TABLE translations (
      unit INTEGER NOT NULL REFERENCES units(id),
      language TEXT NOT NULL,
      value TEXT NOT NULL,
      normalized TEXT NOT NULL,
      comment TEXT,
      PRIMARY KEY (unit, language)
    ) WITHOUT ROWID
    """,
  ]

  /// Built after the rows are in: one sort per index instead of a tree update per row.
  static let indexes = [
    "CREATE UNIQUE INDEX units_by_key ON units (key, tbl, bundle, variant)",
    "CREATE INDEX translations_by_value ON translations (value, language)",
    "CREATE INDEX translations_by_normalized ON translations (normalized, language)",
    "CREATE INDEX translations_by_language ON translations (language)",
  ]
}
