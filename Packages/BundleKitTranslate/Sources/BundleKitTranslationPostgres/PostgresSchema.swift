/// A memory's tables in PostgreSQL, prefixed so a database shared with other software has
/// no clash. Units are keyed by an `identity` digest rather than their columns: keys and
/// values may be longer than a B-tree entry can hold, so the text columns are found through
/// hash indexes and `pg_trgm`'s GIN index instead.
enum PostgresSchema {
  /// Bumped when the layout changes, with a migration from the version before.
  static let version = 3

  /// The statements that bring a memory of version `key` to `key + 1`.
  static let migrations: [Int: [String]] = [
    1: [keysTable],
    // 3: projects through a B-tree. A hash index keeps one bucket per value, so a project of
    // a million entries made every insert walk a chain of overflow pages (minutes per index).
    2: ["DROP INDEX bundlekit_units_by_project", projectIndex],
  ]

  /// Units by project (version 3).
  static let projectIndex = "CREATE INDEX bundlekit_units_by_project ON bundlekit_units (project)"

  /// API keys (version 2): only a SHA-256 digest of each secret is kept; a revoked key keeps
  /// its row, so `keys list` still tells who it was.
  static let keysTable = """
    CREATE TABLE bundlekit_keys (
      id text PRIMARY KEY,
      digest bytea NOT NULL,
      project text NOT NULL,
      scope text NOT NULL CHECK (scope IN ('read', 'write')),
      label text NOT NULL DEFAULT '',
      created timestamptz NOT NULL DEFAULT now(),
      revoked timestamptz
    )
    """

  /// Creates version ``version``'s tables from nothing; run under the write lock.
  static let tables = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE TABLE bundlekit_meta (name text PRIMARY KEY, value text NOT NULL)",
    """
    CREATE TABLE bundlekit_units (
      id bigserial PRIMARY KEY,
      identity text NOT NULL UNIQUE,
      project text NOT NULL,
      bundle text NOT NULL,
      tbl text NOT NULL,
      key text NOT NULL,
      variant text NOT NULL,
      source text
    )
    """,
    """
    CREATE TABLE bundlekit_translations (
      unit bigint NOT NULL REFERENCES bundlekit_units (id) ON DELETE CASCADE,
      language text NOT NULL,
      value text NOT NULL,
      normalized text NOT NULL,
      grams text NOT NULL,
      comment text,
      state text NOT NULL DEFAULT 'translated',
      PRIMARY KEY (unit, language)
    )
    """,
    keysTable,
  ]

  /// The lookup indexes of a new memory, made after its first rows are in (in the same
  /// transaction): one index build is several times faster than a million index inserts.
  static let indexes = [
    "SET LOCAL maintenance_work_mem = '256MB'",
    "CREATE INDEX bundlekit_units_by_key ON bundlekit_units USING hash (key)",
    projectIndex,
    "CREATE INDEX bundlekit_translations_by_value ON bundlekit_translations USING hash (value)",
    """
    CREATE INDEX bundlekit_translations_by_normalized ON bundlekit_translations
    USING hash (normalized)
    """,
    """
    CREATE INDEX bundlekit_translations_by_grams ON bundlekit_translations
    USING gin (grams gin_trgm_ops)
    """,
  ]

  /// The advisory lock every writer holds for its transaction: writers take turns, so none
  /// loses another's rows, and readers never wait.
  static let writeLock = 0x4255_4E44_4C45
}
