import PostgresNIO
import Translation

/// ``MemoryStore``'s questions asked of PostgreSQL: exact and normalised texts through hash
/// indexes, fuzzy candidates through `pg_trgm`'s GIN index, each then treated exactly as the
/// SQLite path treats its rows.
struct PostgresStore: MemoryStore {
  let memory: PostgresMemory

  var waitsOnServer: Bool { true }

  private func ask<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    throws -> T
  {
    let memory = memory
    return try waitFor { try await memory.reading(body) }
  }

  private static func translations(_ rows: PostgresRowSequence) async throws
    -> [StoredTranslation]
  {
    var result: [StoredTranslation] = []
    for try await (unit, language, value, comment, state) in rows.decode(
      (Int64, String, String, String?, String).self)
    {
      result.append(
        StoredTranslation(
          unit: unit, language: language, value: value, comment: comment,
          state: ReviewState(rawValue: state) ?? .translated))
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

  func translations(withText text: String, normalized: Bool, languages: [String]?) throws
    -> [StoredTranslation]
  {
    // One statement for the four cases: the column is one of two fixed names, and a missing
    // language list is NULL.
    let column = normalized ? "normalized" : "value"
    return try ask { client in
      try await Self.translations(
        client.query(
          """
          SELECT unit, language, value, comment, state FROM bundlekit_translations
          WHERE \(unescaped: column) = \(text)
            AND (\(languages)::text[] IS NULL OR language = ANY(\(languages)::text[]))
          """))
    }
  }

  func translations(ofUnits units: [Int64], language: String) throws -> [StoredTranslation] {
    guard !units.isEmpty else { return [] }
    return try ask { client in
      try await Self.translations(
        client.query(
          """
          SELECT unit, language, value, comment, state FROM bundlekit_translations
          WHERE language = \(language) AND unit = ANY(\(units)::int8[])
          """))
    }
  }

  func units(_ ids: [Int64]) throws -> [Int64: StoredUnit] {
    guard !ids.isEmpty else { return [:] }
    let rows = try ask { client in
      try await Self.units(
        client.query(
          """
          SELECT id, bundle, tbl, key, variant, source, project FROM bundlekit_units
          WHERE id = ANY(\(ids)::int8[])
          """))
    }
    return Dictionary(rows, uniquingKeysWith: { first, _ in first })
  }

  func units(forKey key: String, table: String?) throws -> [(Int64, StoredUnit)] {
    try ask { client in
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
    throws -> [FuzzyCandidate]
  {
    let grams = TrigramFilter.encode(normalized)
    let texts = try ask { client in
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

  func search(
    containing needle: String, project: String?, language: String?, state: ReviewState?,
    limit: Int
  ) throws -> [StoredTranslation] {
    let pattern = Self.likePattern(containing: needle)
    let state = state?.rawValue
    return try ask { client in
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
