import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A row of `translations` with the unit it belongs to.
package struct StoredTranslation: Sendable, Hashable {
  package var unit: Int64
  package var language: String
  package var value: String
  package var comment: String?
  package var state: ReviewState = .translated

  package init(
    unit: Int64, language: String, value: String, comment: String?,
    state: ReviewState = .translated
  ) {
    self.unit = unit
    self.language = language
    self.value = value
    self.comment = comment
    self.state = state
  }
}

/// A row of `units`.
package struct StoredUnit: Sendable, Hashable {
  package var project: String = ""
  package var bundle: String
  package var table: String
  package var key: String
  package var variant: String
  package var source: String?

  package init(
    project: String = "", bundle: String, table: String, key: String, variant: String,
    source: String?
  ) {
    self.project = project
    self.bundle = bundle
    self.table = table
    self.key = key
    self.variant = variant
    self.source = source
  }
}

/// The few questions lookups ask of the memory, answered from SQLite (through GRDB's own
/// async reads), from a copy held in memory (the server's choice) or from PostgreSQL (through
/// PostgresNIO): asynchronous all the way, so a lookup waiting on a database holds no thread.
/// Every backend answers alike; the order of rows is not part of the answer
/// (``TranslationMemory`` sorts by content).
package protocol MemoryStore: Sendable {
  /// Translations whose value (or normalised value) is `text`, in `languages` (any when nil).
  func translations(withText text: String, normalized: Bool, languages: [String]?) async throws
    -> [StoredTranslation]
  /// The translations of `units` in `language`.
  func translations(ofUnits units: [Int64], language: String) async throws -> [StoredTranslation]
  /// The units with these ids.
  func units(_ ids: [Int64]) async throws -> [Int64: StoredUnit]
  /// Units of `key`, in `table` when given.
  func units(forKey key: String, table: String?) async throws -> [(Int64, StoredUnit)]
  /// Up to `limit` normalised values in `language` that pass ``TrigramFilter`` and score
  /// at least `minimumScore` against `normalized`, best first.
  func fuzzyCandidates(for normalized: String, language: String, minimumScore: Double, limit: Int)
    async throws -> [FuzzyCandidate]
  /// Up to `limit` translations whose normalised value contains `needle` (normalised; every
  /// one when empty), with the filters given, ordered by the bytes of value, language, table,
  /// key, bundle, variant and project.
  func search(
    containing needle: String, project: String?, language: String?, state: ReviewState?,
    limit: Int
  ) async throws -> [StoredTranslation]
  /// The languages whose fuzzy index is built, so that their fuzzy lookups are fast.
  var fuzzyIndexedLanguages: [String] { get }
  /// True when no translation in `language` has the normalised value `normalized` (not
  /// empty), known without asking the database; false when it may have one, or the store
  /// cannot tell (yet). A fuzzy lookup asks it of each of its source languages.
  func lacks(normalized: String, in language: String) -> Bool
  /// The translations in `language` whose normalised value is one of `texts`, by that text:
  /// a fuzzy lookup's candidates in one question.
  func translations(withNormalized texts: [String], language: String) async throws
    -> [String: [StoredTranslation]]
  /// ``translations(withText:normalized:languages:)`` for `text` exactly and for its
  /// normalised form, at once: a lookup's first two questions.
  func translations(withText text: String, orNormalized normalized: String, languages: [String]?)
    async throws -> (exact: [StoredTranslation], normalized: [StoredTranslation])
  /// ``translations(ofUnits:language:)`` with the units of the rows found, at once.
  func translationsAndUnits(ofUnits units: [Int64], language: String) async throws
    -> (translations: [StoredTranslation], units: [Int64: StoredUnit])
  /// ``translations(withNormalized:language:)`` and, where one question to a server is
  /// cheaper than two, also ``translationsAndUnits(ofUnits:language:)`` in `target` for every
  /// unit among those rows (nil: the caller asks when it needs them).
  func translations(withNormalized texts: [String], language: String, target: String)
    async throws -> (
      rows: [String: [StoredTranslation]],
      target: (translations: [StoredTranslation], units: [Int64: StoredUnit])?
    )
}

extension MemoryStore {
  /// Cannot tell: the store is asked.
  package func lacks(normalized: String, in language: String) -> Bool { false }

  /// Two questions: cheap where nothing waits on a server.
  package func translations(
    withText text: String, orNormalized normalized: String, languages: [String]?
  ) async throws -> (exact: [StoredTranslation], normalized: [StoredTranslation]) {
    let exact = try await translations(withText: text, normalized: false, languages: languages)
    guard !normalized.isEmpty else { return (exact, []) }
    return (
      exact, try await translations(withText: normalized, normalized: true, languages: languages)
    )
  }

  /// Two questions: cheap where nothing waits on a server.
  package func translationsAndUnits(ofUnits units: [Int64], language: String) async throws
    -> (translations: [StoredTranslation], units: [Int64: StoredUnit])
  {
    let rows = try await translations(ofUnits: units, language: language)
    return (rows, rows.isEmpty ? [:] : try await self.units(rows.map(\.unit)))
  }

  /// The rows alone: the target's come from ``translationsAndUnits(ofUnits:language:)`` for
  /// the units the caller keeps.
  package func translations(withNormalized texts: [String], language: String, target: String)
    async throws -> (
      rows: [String: [StoredTranslation]],
      target: (translations: [StoredTranslation], units: [Int64: StoredUnit])?
    )
  {
    (try await translations(withNormalized: texts, language: language), nil)
  }

  /// One question per text: cheap where nothing waits on a server.
  package func translations(withNormalized texts: [String], language: String) async throws
    -> [String: [StoredTranslation]]
  {
    var found: [String: [StoredTranslation]] = [:]
    for text in Set(texts) {
      found[text] = try await translations(
        withText: text, normalized: true, languages: [language])
    }
    return found
  }

  /// `needle` as a LIKE pattern that matches it anywhere, its own `%`, `_` and `\` literal.
  package static func likePattern(containing needle: String) -> String {
    var pattern = "%"
    for character in needle.unicodeScalars {
      if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
      pattern.unicodeScalars.append(character)
    }
    return pattern + "%"
  }
}

/// Answers from SQLite through prepared, cached statements.
struct DatabaseStore: MemoryStore {
  let queue: DatabaseQueue
  let path: String
  /// `project`, or an empty text for a schema-1 memory, which has no projects.
  let projectColumn: String
  /// `state`, or `'translated'` for a schema-1 memory, which has no review states.
  let stateColumn: String
  private let fuzzyIndexes = FuzzyIndexCache()
  var fuzzyIndexedLanguages: [String] { fuzzyIndexes.languages }

  init(queue: DatabaseQueue, path: String, projectColumn: String, stateColumn: String) {
    self.queue = queue
    self.path = path
    self.projectColumn = projectColumn
    self.stateColumn = stateColumn
  }

  /// A read whose SQLite errors (a damaged file, say) name the memory file: on GRDB's own
  /// queue, the caller suspended meanwhile (SQLite itself is synchronous).
  private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws
    -> T
  {
    do {
      return try await queue.read(body)
    } catch let error as DatabaseError {
      throw TranslationError.invalidMemory(
        path: path, message: "cannot read the memory (\(error.message ?? "\(error)"))")
    }
  }

  fileprivate static func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
  }

  private static func translation(_ row: Row) -> StoredTranslation {
    StoredTranslation(
      unit: row[0], language: row[1], value: row[2], comment: row[3],
      state: ReviewState(rawValue: row[4]) ?? .translated)
  }

  func translations(withText text: String, normalized: Bool, languages: [String]?)
    async throws -> [StoredTranslation]
  {
    let column = normalized ? "normalized" : "value"
    var sql =
      "SELECT unit, language, value, comment, \(stateColumn) FROM translations WHERE \(column) = ?"
    var arguments: [any DatabaseValueConvertible] = [text]
    if let languages {
      sql += " AND language IN (\(Self.placeholders(languages.count)))"
      arguments += languages as [any DatabaseValueConvertible]
    }
    let (statement, bound) = (sql, StatementArguments(arguments))
    return try await read { db in
      try Row.fetchAll(db.cachedStatement(sql: statement), arguments: bound).map(Self.translation)
    }
  }

  func translations(ofUnits units: [Int64], language: String) async throws
    -> [StoredTranslation]
  {
    guard !units.isEmpty else { return [] }
    let sql = """
      SELECT unit, language, value, comment, \(stateColumn) FROM translations
      WHERE language = ? AND unit IN (\(Self.placeholders(units.count)))
      """
    let arguments: [any DatabaseValueConvertible] = [language] + units
    let (statement, bound) = (sql, StatementArguments(arguments))
    return try await read { db in
      try Row.fetchAll(db.cachedStatement(sql: statement), arguments: bound).map(Self.translation)
    }
  }

  func units(_ ids: [Int64]) async throws -> [Int64: StoredUnit] {
    guard !ids.isEmpty else { return [:] }
    let sql = """
      SELECT id, bundle, tbl, key, variant, source, \(projectColumn) FROM units
      WHERE id IN (\(Self.placeholders(ids.count)))
      """
    let bound = StatementArguments(ids)
    return try await read { db in
      var result: [Int64: StoredUnit] = [:]
      for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: bound) {
        result[row[0]] = StoredUnit(
          project: row[6], bundle: row[1], table: row[2], key: row[3], variant: row[4],
          source: row[5])
      }
      return result
    }
  }

  func units(forKey key: String, table: String?) async throws -> [(Int64, StoredUnit)] {
    var sql =
      "SELECT id, bundle, tbl, key, variant, source, \(projectColumn) FROM units WHERE key = ?"
    var arguments: [any DatabaseValueConvertible] = [key]
    if let table {
      sql += " AND tbl = ?"
      arguments.append(table)
    }
    sql += " ORDER BY tbl, bundle, variant"
    let (statement, bound) = (sql, StatementArguments(arguments))
    return try await read { db in
      try Row.fetchAll(db.cachedStatement(sql: statement), arguments: bound)
        .map { row in
          (
            row[0],
            StoredUnit(
              project: row[6], bundle: row[1], table: row[2], key: row[3], variant: row[4],
              source: row[5])
          )
        }
    }
  }

  func fuzzyCandidates(for normalized: String, language: String, minimumScore: Double, limit: Int)
    async throws -> [FuzzyCandidate]
  {
    let index: FuzzyIndex
    if let built = fuzzyIndexes.built(language) {
      index = built
    } else {
      let texts = try await read { db in
        try String.fetchAll(
          db,
          sql:
            "SELECT DISTINCT normalized FROM translations WHERE language = ? AND normalized <> ''",
          arguments: [language])
      }
      index = fuzzyIndexes.index(for: language) { FuzzyIndex(texts: texts) }
    }
    return index.best(for: normalized, minimumScore: minimumScore, limit: limit)
  }

  func search(
    containing needle: String, project: String?, language: String?, state: ReviewState?,
    limit: Int
  ) async throws -> [StoredTranslation] {
    var sql = """
      SELECT unit, language, value, comment, \(stateColumn) FROM translations
      JOIN units ON units.id = translations.unit
      WHERE normalized LIKE ? ESCAPE '\\'
      """
    var arguments: [any DatabaseValueConvertible] = [Self.likePattern(containing: needle)]
    for (column, value) in [
      (projectColumn, project), ("language", language), (stateColumn, state?.rawValue),
    ] {
      guard let value else { continue }
      sql += " AND \(column) = ?"
      arguments.append(value)
    }
    // The whole order, ties included, by bytes: every backend cuts at the same row.
    sql += " ORDER BY value, language, tbl, key, bundle, variant, \(projectColumn) LIMIT ?"
    arguments.append(limit)
    let (statement, bound) = (sql, StatementArguments(arguments))
    return try await read { db in
      try Row.fetchAll(db.cachedStatement(sql: statement), arguments: bound).map(Self.translation)
    }
  }
}

/// The whole memory held in hash tables: no locks, no SQL, for the server's hot path.
struct SnapshotStore: MemoryStore {
  private var rows: [StoredTranslation] = []
  private var byValue: [String: [Int32]] = [:]
  private var byNormalized: [String: [Int32]] = [:]
  private var byUnitLanguage: [UnitLanguage: Int32] = [:]
  private var unitsByID: [Int64: StoredUnit] = [:]
  private var unitsByKey: [String: [Int64]] = [:]
  private var normalizedByLanguage: [String: [String]] = [:]
  private let fuzzyIndexes = FuzzyIndexCache()
  var fuzzyIndexedLanguages: [String] { fuzzyIndexes.languages }

  private struct UnitLanguage: Hashable {
    var unit: Int64
    var language: String
  }

  init(queue: DatabaseQueue, projectColumn: String, stateColumn: String) throws {
    try queue.read { db in
      let units = try Row.fetchCursor(
        db,
        sql:
          "SELECT id, bundle, tbl, key, variant, source, \(projectColumn) FROM units ORDER BY id")
      while let row = try units.next() {
        let id: Int64 = row[0]
        let unit = StoredUnit(
          project: row[6], bundle: row[1], table: row[2], key: row[3], variant: row[4],
          source: row[5])
        unitsByID[id] = unit
        unitsByKey[unit.key, default: []].append(id)
      }
      let translations = try Row.fetchCursor(
        db,
        sql: "SELECT unit, language, value, comment, \(stateColumn), normalized FROM translations")
      var normalizedSets: [String: Set<String>] = [:]
      while let row = try translations.next() {
        let translation = Self.translation(row)
        let normalized: String = row[5]
        let index = Int32(rows.count)
        rows.append(translation)
        byValue[translation.value, default: []].append(index)
        byNormalized[normalized, default: []].append(index)
        byUnitLanguage[UnitLanguage(unit: translation.unit, language: translation.language)] =
          index
        if !normalized.isEmpty {
          normalizedSets[translation.language, default: []].insert(normalized)
        }
      }
      normalizedByLanguage = normalizedSets.mapValues { $0.sorted() }
    }
  }

  private static func translation(_ row: Row) -> StoredTranslation {
    StoredTranslation(
      unit: row[0], language: row[1], value: row[2], comment: row[3],
      state: ReviewState(rawValue: row[4]) ?? .translated)
  }

  func translations(withText text: String, normalized: Bool, languages: [String]?)
    async throws -> [StoredTranslation]
  {
    let indexes = (normalized ? byNormalized[text] : byValue[text]) ?? []
    return indexes.lazy.map { rows[Int($0)] }.filter { row in
      languages.map { $0.contains(row.language) } ?? true
    }
  }

  func translations(ofUnits units: [Int64], language: String) async throws
    -> [StoredTranslation]
  {
    units.compactMap { unit in
      byUnitLanguage[UnitLanguage(unit: unit, language: language)].map { rows[Int($0)] }
    }
  }

  func units(_ ids: [Int64]) async throws -> [Int64: StoredUnit] {
    var result: [Int64: StoredUnit] = [:]
    for id in ids { result[id] = unitsByID[id] }
    return result
  }

  func units(forKey key: String, table: String?) async throws -> [(Int64, StoredUnit)] {
    (unitsByKey[key] ?? []).compactMap { id in
      unitsByID[id].flatMap { unit in table == nil || unit.table == table ? (id, unit) : nil }
    }.sorted { ($0.1.table, $0.1.bundle, $0.1.variant) < ($1.1.table, $1.1.bundle, $1.1.variant) }
  }

  func fuzzyCandidates(for normalized: String, language: String, minimumScore: Double, limit: Int)
    async throws -> [FuzzyCandidate]
  {
    fuzzyIndexes.index(for: language) {
      FuzzyIndex(texts: normalizedByLanguage[language] ?? [])
    }.best(for: normalized, minimumScore: minimumScore, limit: limit)
  }

  func search(
    containing needle: String, project: String?, language: String?, state: ReviewState?,
    limit: Int
  ) async throws -> [StoredTranslation] {
    // The first `limit` rows of the whole order, in a heap whose root is the last of them:
    // a row past it is refused by one comparison, where sorting every match (a whole memory
    // for a short or empty needle) cost n log n comparisons of seven texts.
    var first = FirstInOrder(limit: limit)
    for (normalized, indexes) in byNormalized
    where needle.isEmpty || Self.bytes(of: normalized, contain: needle) {
      for index in indexes {
        let row = rows[Int(index)]
        if let language, row.language != language { continue }
        if let state, row.state != state { continue }
        let unit = unitsByID[row.unit]
        if let project, unit?.project != project { continue }
        first.offer(SearchHit(row: row, unit: unit))
      }
    }
    return first.sorted.map(\.row)
  }

  /// Whether the UTF-8 of `needle` occurs in that of `text`, as the database's `LIKE` on the
  /// normalised column finds it: `memchr` to each place the first byte occurs and `memcmp`
  /// there, over the strings' own bytes, where the generic search of a `UTF8View` walked them
  /// an index at a time (most of a concordance search).
  static func bytes(of text: String, contain needle: String) -> Bool {
    let found = text.utf8.withContiguousStorageIfAvailable { text in
      needle.utf8.withContiguousStorageIfAvailable { needle -> Bool in
        guard let first = needle.first, let base = text.baseAddress,
          let wanted = needle.baseAddress, text.count >= needle.count
        else { return needle.isEmpty }
        var start = 0
        let last = text.count - needle.count
        while start <= last,
          let hit = memchr(base + start, Int32(first), last - start + 1)
        {
          let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
          if memcmp(base + offset, wanted, needle.count) == 0 { return true }
          start = offset + 1
        }
        return false
      }
    }
    return (found ?? nil) ?? (text.utf8.firstRange(of: needle.utf8) != nil)
  }
}

/// A row a concordance search found, with its unit, in the order every backend gives: value,
/// language, table, key, bundle, variant, project, each by bytes (a missing unit's texts
/// empty).
struct SearchHit {
  let row: StoredTranslation
  let unit: StoredUnit?

  static func precedes(_ left: SearchHit, _ right: SearchHit) -> Bool {
    /// nil when the two are the same, so the next field decides.
    func order(_ a: String, _ b: String) -> Bool? { a == b ? nil : ContentOrder.precedes(a, b) }
    return order(left.row.value, right.row.value) ?? order(left.row.language, right.row.language)
      ?? order(left.table, right.table) ?? order(left.key, right.key)
      ?? order(left.bundle, right.bundle) ?? order(left.variant, right.variant)
      ?? order(left.project, right.project) ?? false
  }

  var table: String { unit?.table ?? "" }
  var key: String { unit?.key ?? "" }
  var bundle: String { unit?.bundle ?? "" }
  var variant: String { unit?.variant ?? "" }
  var project: String { unit?.project ?? "" }
}

/// The first `limit` hits offered, in ``SearchHit/precedes(_:_:)`` order: a max-heap whose
/// root is the last one kept.
struct FirstInOrder {
  private(set) var heap: [SearchHit] = []
  let limit: Int

  init(limit: Int) { self.limit = max(0, limit) }

  /// Keeps `hit` when fewer than `limit` are kept or it precedes the last of them.
  mutating func offer(_ hit: SearchHit) {
    if heap.count < limit {
      heap.append(hit)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard SearchHit.precedes(heap[parent], heap[child]) else { break }
        heap.swapAt(parent, child)
        child = parent
      }
      return
    }
    guard let root = heap.first, SearchHit.precedes(hit, root) else { return }
    heap[0] = hit
    var parent = 0
    while true {
      var largest = parent
      for child in (2 * parent + 1)...(2 * parent + 2)
      where child < heap.count && SearchHit.precedes(heap[largest], heap[child]) {
        largest = child
      }
      guard largest != parent else { return }
      heap.swapAt(parent, largest)
      parent = largest
    }
  }

  /// The hits kept, first first.
  var sorted: [SearchHit] { heap.sorted(by: SearchHit.precedes) }
}
