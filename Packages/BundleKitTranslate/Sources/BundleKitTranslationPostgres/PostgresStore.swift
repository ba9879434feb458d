import BundleKitTranslation
import Foundation
import PostgresNIO

/// ``MemoryStore``'s questions asked of PostgreSQL: exact and normalised texts through hash
/// indexes, fuzzy candidates through `pg_trgm`'s GIN index, each then treated exactly as the
/// SQLite path treats its rows.
///
/// With ``PostgresMemory/FuzzyLookup/replicaIndex``, the first fuzzy lookup of a language also
/// starts building this replica's own ``FuzzyIndex`` of the language's texts, in the
/// background; once built, fuzzy candidates come from it, with the same answers. A store
/// serves one generation of the memory (the server opens a new one when it moves), so the
/// index is never older than the rows it answers with.
struct PostgresStore: MemoryStore {
  let memory: PostgresMemory
  /// This replica's fuzzy indexes, or nil when every fuzzy lookup asks `pg_trgm`.
  let replicaIndexes: ReplicaFuzzyIndexes?
  /// Concurrent fuzzy lookups' candidate rows, asked for together.
  let candidateBatches = CandidateRowBatches()

  init(memory: PostgresMemory) {
    self.memory = memory
    replicaIndexes = memory.fuzzyLookup == .replicaIndex ? ReplicaFuzzyIndexes() : nil
  }

  var fuzzyIndexedLanguages: [String] { replicaIndexes?.languages ?? [] }

  /// The replica's index of `language` holds every normalised value of the language's rows
  /// of this generation (or a later one: a superset, which can only answer false), so a text
  /// it does not hold is in none of them. A write moves the generation, and the server opens
  /// the memory again within its refresh interval, as its cached answers do. A language
  /// without an index yet (a source's fallback, `Base`) has its build started, and cannot tell
  /// meanwhile.
  func lacks(normalized: String, in language: String) -> Bool {
    guard !normalized.isEmpty, let index = replicaIndex(of: language) else { return false }
    return !index.mayHold(normalized)
  }

  /// This replica's fuzzy index of `language` once built; nil until then (its build started
  /// by the first call), and with `--fuzzy-from-database`.
  private func replicaIndex(of language: String) -> FuzzyIndex? {
    replicaIndexes?.index(for: language, load: { try await self.texts(in: language) })
  }

  private func ask<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws -> T
  {
    try await memory.reading(body)
  }

  /// A translation from its columns as the tables hold them.
  private static func translation(
    unit: Int64, language: String, value: String, comment: String?, state: String
  ) -> StoredTranslation {
    StoredTranslation(
      unit: unit, language: language, value: value, comment: comment,
      state: ReviewState(rawValue: state) ?? .translated)
  }

  private static func translations(_ rows: PostgresRowSequence) async throws
    -> [StoredTranslation]
  {
    var result: [StoredTranslation] = []
    for try await (unit, language, value, comment, state) in rows.decode(
      (Int64, String, String, String?, String).self)
    {
      result.append(
        Self.translation(
          unit: unit, language: language, value: value, comment: comment, state: state))
    }
    return result
  }

  private static func units(_ rows: PostgresRowSequence) async throws -> [(Int64, StoredUnit)] {
    var result: [(Int64, StoredUnit)] = []
    for try await (id, bundle, table, key, variant, source, project) in rows.decode(
      (Int64, String, String, String, String, String?, String).self)
    {
      result.append(
        (
          id,
          StoredUnit(
            project: project, bundle: bundle, table: table, key: key, variant: variant,
            source: source)
        ))
    }
    return result
  }

  func translations(withText text: String, normalized: Bool, languages: [String]?) async throws
    -> [StoredTranslation]
  {
    // One statement for the four cases: the column is one of two fixed names, and a missing
    // language list is NULL.
    let column = normalized ? "normalized" : "value"
    return try await ask { client in
      try await Self.translations(
        client.query(
          """
          SELECT unit, language, value, comment, state FROM bundlekit_translations
          WHERE \(unescaped: column) = \(text)
            AND (\(languages)::text[] IS NULL OR language = ANY(\(languages)::text[]))
          """))
    }
  }

  func translations(withText text: String, orNormalized normalized: String, languages: [String]?)
    async throws -> (exact: [StoredTranslation], normalized: [StoredTranslation])
  {
    // One round trip for a lookup's first two questions (two hash indexes, OR-ed).
    try await ask { client in
      var exact: [StoredTranslation] = []
      var similar: [StoredTranslation] = []
      for try await (isExact, isNormalized, unit, language, value, comment, state)
        in try await client.query(
          """
          SELECT value = \(text), normalized = \(normalized) AND normalized <> '',
            unit, language, value, comment, state
          FROM bundlekit_translations
          WHERE (value = \(text) OR (normalized = \(normalized) AND normalized <> ''))
            AND (\(languages)::text[] IS NULL OR language = ANY(\(languages)::text[]))
          """
        ).decode((Bool, Bool, Int64, String, String, String?, String).self)
      {
        let row = Self.translation(
          unit: unit, language: language, value: value, comment: comment, state: state)
        if isExact { exact.append(row) }
        if isNormalized { similar.append(row) }
      }
      return (exact, similar)
    }
  }

  func translationsAndUnits(ofUnits units: [Int64], language: String) async throws
    -> (translations: [StoredTranslation], units: [Int64: StoredUnit])
  {
    guard !units.isEmpty else { return ([], [:]) }
    return try await ask { client in
      var rows: [StoredTranslation] = []
      var found: [Int64: StoredUnit] = [:]
      for try await (unit, value, comment, state, bundle, table, key, variant, source, project)
        in try await client.query(
          """
          SELECT unit, value, comment, state, bundle, tbl, key, variant, source, project
          FROM bundlekit_translations JOIN bundlekit_units ON bundlekit_units.id = unit
          WHERE language = \(language) AND unit = ANY(\(units)::int8[])
          """
        ).decode(
          (Int64, String, String?, String, String, String, String, String, String?, String).self)
      {
        rows.append(
          Self.translation(
            unit: unit, language: language, value: value, comment: comment, state: state))
        found[unit] = StoredUnit(
          project: project, bundle: bundle, table: table, key: key, variant: variant,
          source: source)
      }
      return (rows, found)
    }
  }

  func translations(withNormalized texts: [String], language: String) async throws
    -> [String: [StoredTranslation]]
  {
    guard !texts.isEmpty else { return [:] }
    return try await ask { client in
      var found: [String: [StoredTranslation]] = [:]
      for try await (normalized, unit, language, value, comment, state) in try await client.query(
        """
        SELECT normalized, unit, language, value, comment, state FROM bundlekit_translations
        WHERE normalized = ANY(\(texts)::text[]) AND language = \(language)
        """
      ).decode((String, Int64, String, String, String?, String).self) {
        found[normalized, default: []].append(
          Self.translation(
            unit: unit, language: language, value: value, comment: comment, state: state))
      }
      return found
    }
  }

  /// A fuzzy lookup's candidates and their units' translations in `target`, in one question
  /// (two round trips were a third of a replica's fuzzy lookup), asked together with those of
  /// the lookups waiting meanwhile (``CandidateRowBatches``).
  func translations(withNormalized texts: [String], language: String, target: String)
    async throws -> (
      rows: [String: [StoredTranslation]],
      target: (translations: [StoredTranslation], units: [Int64: StoredUnit])?
    )
  {
    guard !texts.isEmpty else { return ([:], ([], [:])) }
    let found = try await candidateBatches.rows(for: texts, language: language, target: target) {
      texts in try await candidateRows(of: texts, language: language, target: target)
    }
    return (found.rows, (found.targetRows, found.units))
  }

  /// Each row of `texts` in `language` with its unit's row in `target`, if any (one at most:
  /// a unit has one row a language), and the unit.
  private func candidateRows(of texts: [String], language: String, target: String)
    async throws -> CandidateRowBatches.Rows
  {
    try await ask { client in
      var found = CandidateRowBatches.Rows()
      for try await
        (
          normalized, unit, value, comment, state, targetValue, targetComment, targetState,
          bundle, table, key, variant, source, project
        ) in try await client.query(
          """
          SELECT c.normalized, c.unit, c.value, c.comment, c.state, t.value, t.comment, t.state,
            u.bundle, u.tbl, u.key, u.variant, u.source, u.project
          FROM bundlekit_translations c
          JOIN bundlekit_units u ON u.id = c.unit
          LEFT JOIN bundlekit_translations t ON t.unit = c.unit AND t.language = \(target)
          WHERE c.normalized = ANY(\(texts)::text[]) AND c.language = \(language)
          """
        ).decode(
          (
            String, Int64, String, String?, String, String?, String?, String?, String, String,
            String, String, String?, String
          ).self)
      {
        found.rows[normalized, default: []].append(
          Self.translation(
            unit: unit, language: language, value: value, comment: comment, state: state))
        guard let targetValue, let targetState else { continue }
        found.targetRows.append(
          Self.translation(
            unit: unit, language: target, value: targetValue, comment: targetComment,
            state: targetState))
        found.units[unit] = StoredUnit(
          project: project, bundle: bundle, table: table, key: key, variant: variant,
          source: source)
      }
      return found
    }
  }

  func translations(ofUnits units: [Int64], language: String) async throws
    -> [StoredTranslation]
  {
    guard !units.isEmpty else { return [] }
    return try await ask { client in
      try await Self.translations(
        client.query(
          """
          SELECT unit, language, value, comment, state FROM bundlekit_translations
          WHERE language = \(language) AND unit = ANY(\(units)::int8[])
          """))
    }
  }

  func units(_ ids: [Int64]) async throws -> [Int64: StoredUnit] {
    guard !ids.isEmpty else { return [:] }
    let rows = try await ask { client in
      try await Self.units(
        client.query(
          """
          SELECT id, bundle, tbl, key, variant, source, project FROM bundlekit_units
          WHERE id = ANY(\(ids)::int8[])
          """))
    }
    return Dictionary(rows, uniquingKeysWith: { first, _ in first })
  }

  func units(forKey key: String, table: String?) async throws -> [(Int64, StoredUnit)] {
    try await ask { client in
      if let table {
        return try await Self.units(
          client.query(
            """
            SELECT id, bundle, tbl, key, variant, source, project FROM bundlekit_units
            WHERE key = \(key) AND tbl = \(table)
            """))
      }
      return try await Self.units(
        client.query(
          """
          SELECT id, bundle, tbl, key, variant, source, project FROM bundlekit_units
          WHERE key = \(key)
          """))
    }
  }

  func fuzzyCandidates(for normalized: String, language: String, minimumScore: Double, limit: Int)
    async throws -> [FuzzyCandidate]
  {
    if let index = replicaIndex(of: language) {
      return index.best(for: normalized, minimumScore: minimumScore, limit: limit)
    }
    let grams = TrigramFilter.encode(normalized)
    let texts = try await ask { client in
      var texts: [String] = []
      for try await text in try await client.query(
        """
        SELECT DISTINCT normalized FROM bundlekit_translations
        WHERE grams % \(grams) AND language = \(language) AND normalized <> ''
        """
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
    return FuzzyCandidate.score(
      texts, against: normalized, minimumScore: minimumScore, limit: limit)
  }

  /// The distinct normalised texts of `language`, what a replica's fuzzy index is built of.
  private func texts(in language: String) async throws -> [String] {
    try await ask { client in
      var texts: [String] = []
      for try await text in try await client.query(
        """
        SELECT DISTINCT normalized FROM bundlekit_translations
        WHERE language = \(language) AND normalized <> ''
        """
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
  }

  func search(
    containing needle: String, project: String?, language: String?, state: ReviewState?,
    limit: Int
  ) async throws -> [StoredTranslation] {
    let pattern = Self.likePattern(containing: needle)
    let state = state?.rawValue
    return try await ask { client in
      try await Self.translations(
        client.query(
          """
          SELECT unit, language, value, comment, state FROM bundlekit_translations
          JOIN bundlekit_units ON bundlekit_units.id = bundlekit_translations.unit
          WHERE normalized LIKE \(pattern) ESCAPE '\\'
            AND (\(project)::text IS NULL OR project = \(project)::text)
            AND (\(language)::text IS NULL OR language = \(language)::text)
            AND (\(state)::text IS NULL OR state = \(state)::text)
          ORDER BY value COLLATE "C", language COLLATE "C", tbl COLLATE "C", key COLLATE "C",
            bundle COLLATE "C", variant COLLATE "C", project COLLATE "C"
          LIMIT \(limit)
          """))
    }
  }
}

/// A replica's fuzzy indexes by language, each built once in the background while lookups go
/// on through `pg_trgm`.
final class ReplicaFuzzyIndexes: @unchecked Sendable {
  private enum State {
    case building
    case ready(FuzzyIndex)
  }

  private let lock = NSLock()
  private var states: [String: State] = [:]
  /// One build at a time in the whole process: a replica whose memory changes again and again
  /// spends at most one core on indexes that a newer generation may replace.
  private static let builder = NSLock()

  /// The languages built, sorted.
  var languages: [String] {
    lock.withLock {
      states.compactMap { language, state in
        if case .ready = state { language } else { nil }
      }.sorted()
    }
  }

  /// The index of `language` when it is built; otherwise nil, after starting its build from
  /// the texts `load` gives (a failed build is tried again by a later lookup).
  func index(for language: String, load: @escaping @Sendable () async throws -> [String])
    -> FuzzyIndex?
  {
    let start: Bool = lock.withLock {
      switch states[language] {
      case .ready, .building: return false
      case nil:
        states[language] = .building
        return true
      }
    }
    if start {
      Task { [self] in
        let texts = try? await load()
        // A thread of its own for the build: seconds of CPU for a million texts, which would
        // starve the concurrency pool that serves the requests.
        let thread = Thread { [self] in
          Self.builder.withLock {
            let index = texts.map(FuzzyIndex.init(texts:))
            lock.withLock { states[language] = index.map(State.ready) }
          }
        }
        thread.name = "bundlekit fuzzy index"
        thread.start()
      }
    }
    return lock.withLock {
      if case .ready(let index) = states[language] { index } else { nil }
    }
  }
}
