import Foundation
import GRDB

/// A translation memory built by ``MemoryBuilder``: every table's text in every language,
/// looked up by key or by text.
///
/// Safe to share between threads and tasks. Lookups are `async`: a memory on a database
/// server (PostgreSQL) waits on it without holding a thread, and SQLite is read on GRDB's own
/// queue.
public final class TranslationMemory: Sendable {
  /// The file the memory was opened from.
  public let path: String
  /// The language that entries' source texts are in.
  public let developmentLanguage: String
  /// Every language the memory holds, sorted.
  public let languages: [String]
  /// The languages whose fuzzy index is built: their fuzzy lookups no longer wait for it.
  public var fuzzyIndexedLanguages: [String] { store.fuzzyIndexedLanguages }

  private let store: any MemoryStore
  /// Language answers by the code as given: working them out normalises every available
  /// language, which would otherwise dominate a server's request.
  private let chains = LanguageAnswerCache()
  private let supported = LanguageAnswerCache()

  /// Opens a memory file read-only. With `preload`, the whole memory is copied into hash
  /// tables first (a server's choice: lookups then take no lock and run no SQL).
  public init(path: String, preload: Bool = false) throws {
    self.path = path
    guard FileManager.default.fileExists(atPath: path) else {
      throw TranslationError.invalidMemory(
        path: path, message: "no such file (build it with `bundlekit translate index`)")
    }
    var configuration = GRDB.Configuration()
    configuration.readonly = true
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      let meta = try queue.read(MemorySchema.meta)
      if let problem = MemorySchema.readProblem(meta["schema"]) {
        throw TranslationError.invalidMemory(path: path, message: problem)
      }
      developmentLanguage = meta["developmentLanguage"] ?? "en"
      languages = (meta["languages"] ?? "").split(separator: ",").map(String.init)
      // Schema 1 has no projects: every unit is the one project's ("").
      let current = MemorySchema.hasProjectsAndStates(meta)
      let projectColumn = current ? "project" : "''"
      let stateColumn = current ? "state" : "'translated'"
      store =
        preload
        ? try SnapshotStore(
          queue: queue, projectColumn: projectColumn, stateColumn: stateColumn)
        : DatabaseStore(
          queue: queue, path: path, projectColumn: projectColumn, stateColumn: stateColumn)
    } catch let error as DatabaseError {
      throw TranslationError.invalidMemory(
        path: path, message: "not a translation memory (\(error.message ?? "\(error)"))")
    }
  }

  /// A memory answering from `store` (another backend's, such as PostgreSQL's), described
  /// by `path` in messages.
  package init(
    store: any MemoryStore, path: String, developmentLanguage: String, languages: [String]
  ) {
    self.store = store
    self.path = path
    self.developmentLanguage = developmentLanguage
    self.languages = languages
  }

  // MARK: Languages

  /// The memory's language for `code` (`en_GB` → `en-GB`), nil when it holds none of that
  /// language, not even under another region or script (`pt` finds `pt-BR`).
  public func supportedLanguage(_ code: String) -> String? {
    if let known = supported.value(for: code) { return known.first }
    let answer = workOutSupportedLanguage(code)
    supported.store(answer.map { [$0] } ?? [], for: code)
    return answer
  }

  private func workOutSupportedLanguage(_ code: String) -> String? {
    guard let tag = LanguageTag.normalize(code) else { return nil }
    if languages.contains(tag) { return tag }
    let chain = LanguageTag.fallbackChain(
      for: tag, available: languages, developmentLanguage: developmentLanguage)
    let base = tag.split(separator: "-").first.map(String.init) ?? tag
    return chain.first { $0 == base || $0.hasPrefix(base + "-") }
  }

  /// Whether `match` translates into `target`: a match that fell back to the development
  /// language is the source text, a translation only when that language was asked for.
  public func isTranslation(_ match: TranslationMatch, into target: String) -> Bool {
    match.language != developmentLanguage || supportedLanguage(target) == developmentLanguage
  }

  /// The languages to read for `code`, in order, ending with the development language.
  public func fallbackChain(for code: String) throws -> [String] {
    if let known = chains.value(for: code) { return known }
    guard let tag = LanguageTag.normalize(code) else {
      throw TranslationError.invalidLanguage(code: code)
    }
    let chain = LanguageTag.fallbackChain(
      for: tag, available: languages, developmentLanguage: developmentLanguage)
    chains.store(chain, for: code)
    return chain
  }

  // MARK: By key

  /// The entries for `key` (in `table`, when given): every language's value, or, with
  /// `language`, the value in the first language of its fallback chain that has one.
  public func records(
    forKey key: String, table: String? = nil, language: String? = nil, project: String? = nil
  ) async throws -> [TranslationRecord] {
    // Table, bundle, variant and project order, by their bytes: every backend's.
    let units = try await store.units(forKey: key, table: table).filter {
      project == nil || $0.1.project == project
    }.sorted { ContentOrder.precedes($0.1, $1.1) }
    guard !units.isEmpty else { return [] }
    let ids = units.map(\.0)
    // Each unit's place in the answer (table, bundle, variant order) and its columns.
    let byID = Dictionary(
      uniqueKeysWithValues: units.enumerated().map { ($1.0, (position: $0, unit: $1.1)) })
    let languagesToRead =
      try language.map { try [fallbackChain(for: $0)] } ?? languages.map { [$0] }
    var result: [(position: Int, record: TranslationRecord)] = []
    for chain in languagesToRead {
      // For one language, the first of its chain with a value for each unit.
      var missing = Set(ids)
      for candidate in chain where !missing.isEmpty {
        for row in try await store.translations(ofUnits: ids, language: candidate)
        where missing.contains(row.unit) {
          missing.remove(row.unit)
          let unit = byID[row.unit]
          result.append((unit?.position ?? 0, record(row, unit: unit?.unit)))
        }
      }
    }
    return result.sorted { ($0.position, $0.record.language) < ($1.position, $1.record.language) }
      .map(\.record)
  }

  // MARK: Concordance

  /// Up to `limit` translations whose text contains `text` (case, punctuation and spacing set
  /// aside; every translation when empty), in `project`, `language` and `state` when given;
  /// by value, then language, then entry.
  public func search(
    containing text: String, project: String? = nil, language: String? = nil,
    state: ReviewState? = nil, limit: Int = 50
  ) async throws -> [TranslationRecord] {
    let language = language.map { supportedLanguage($0) ?? $0 }
    let rows = try await store.search(
      containing: TextNormalizer.normalize(text), project: project, language: language,
      state: state, limit: max(0, limit))
    let units = try await store.units(Array(Set(rows.map(\.unit))))
    return rows.map { record($0, unit: units[$0.unit]) }.sorted {
      if $0.value != $1.value { return ContentOrder.precedes($0.value, $1.value) }
      if $0.language != $1.language { return ContentOrder.precedes($0.language, $1.language) }
      return ContentOrder.precedes($0, $1)
    }
  }

  // MARK: By text

  /// Translations of `text` into `target`, best first.
  ///
  /// `text` is looked for among the values in `source` (and its fallbacks; any language,
  /// development language first, when nil or `auto`): exactly, then with case, punctuation and
  /// white space set aside, then, with `fuzzy`, by similarity down to `minimumScore`. The
  /// translations come from the first language in `target`'s fallback chain that has some,
  /// which is the development language's own text when no other has.
  /// When several entries share the text, every distinct translation is a candidate; the one
  /// most entries use comes first, except that a value equal to the text itself (an
  /// untranslated copy) goes after every real translation.
  /// With `project`, only that project's entries are looked at (nil: every project's).
  public func matches(
    for text: String, to target: String, from source: String? = nil, fuzzy: Bool = true,
    minimumScore: Double = 0.6, limit: Int = 10, project: String? = nil
  ) async throws -> [TranslationMatch] {
    /// The rows whose unit belongs to `project`.
    func scoped(_ rows: [StoredTranslation]) async throws -> [StoredTranslation] {
      guard let project, !rows.isEmpty else { return rows }
      let units = try await store.units(Array(Set(rows.map(\.unit))))
      return rows.filter { units[$0.unit]?.project == project }
    }
    let targetChain = try fallbackChain(for: target)
    let sourceLanguages: [String]?
    if let source, source != "auto" {
      sourceLanguages = try fallbackChain(for: source).filter {
        $0 != developmentLanguage || LanguageTag.normalize(source) == developmentLanguage
      }
    } else {
      sourceLanguages = nil
    }
    let normalized = TextNormalizer.normalize(text)
    // An exact match's normalised value is the text's, so where the store knows that none of
    // the source languages holds that (a PostgreSQL replica's fuzzy indexes, which a fuzzy
    // lookup builds: a round trip of the two it makes), neither question needs asking.
    let rows: (exact: [StoredTranslation], normalized: [StoredTranslation]) =
      if fuzzy, let sourceLanguages, !normalized.isEmpty,
        sourceLanguages.allSatisfy({ store.lacks(normalized: normalized, in: $0) })
      {
        ([], [])
      } else {
        try await store.translations(
          withText: text, orNormalized: normalized, languages: sourceLanguages)
      }
    if let found = try await anchored(
      scoped(rows.exact), kind: .exact, scores: [:], targetChain: targetChain), !found.isEmpty
    {
      return Array(found.prefix(limit))
    }
    guard !normalized.isEmpty else { return [] }
    if let found = try await anchored(
      scoped(rows.normalized), kind: .normalized, scores: [:], targetChain: targetChain),
      !found.isEmpty
    {
      return Array(found.prefix(limit))
    }
    guard fuzzy else { return [] }
    let fuzzyLanguage = sourceLanguages?.first ?? developmentLanguage
    var anchors: [StoredTranslation] = []
    var scores: [Int64: Double] = [:]
    let candidates = try await store.fuzzyCandidates(
      for: normalized, language: fuzzyLanguage, minimumScore: minimumScore, limit: limit)
    // A chain can be empty (a memory without the development language, asked for a language
    // it lacks): then there is no target to ask for with the candidates.
    let texts = candidates.map(\.text)
    let (candidateRows, prefetched):
      (
        [String: [StoredTranslation]],
        (translations: [StoredTranslation], units: [Int64: StoredUnit])?
      ) =
        if let target = targetChain.first {
          try await store.translations(
            withNormalized: texts, language: fuzzyLanguage, target: target)
        } else {
          (try await store.translations(withNormalized: texts, language: fuzzyLanguage), nil)
        }
    for candidate in candidates {
      for row in try await scoped(candidateRows[candidate.text] ?? []) where scores[row.unit] == nil
      {
        scores[row.unit] = candidate.score
        anchors.append(row)
      }
    }
    let found = try await anchored(
      anchors, kind: .fuzzy, scores: scores, targetChain: targetChain, prefetched: prefetched)
    return Array((found ?? []).prefix(limit))
  }

  /// The best exact or normalised match of `text` that is a translation into `target` (not
  /// the development language's own text, unless that language was asked for), or nil.
  public func bestTranslation(of text: String, to target: String, from source: String? = nil)
    async throws -> TranslationMatch?
  {
    guard
      let match = try await matches(for: text, to: target, from: source, fuzzy: false, limit: 1)
        .first,
      !match.translation.isEmpty, isTranslation(match, into: target)
    else { return nil }
    return match
  }

  /// The translation of `text` into `target`: ``bestTranslation(of:to:from:)``, else `text`
  /// itself. Never empty unless `text` is. ``Translator`` adds a remote provider to this.
  public func translate(_ text: String, to target: String, from source: String? = nil)
    async throws -> String
  {
    try await bestTranslation(of: text, to: target, from: source)?.translation ?? text
  }

  /// A language a text is written in, as far as the memory can tell.
  public struct DetectedLanguage: Sendable, Hashable {
    /// The language code.
    public var language: String
    /// The share of matching entries that hold the text in it, 0 to 1.
    public var confidence: Double
  }

  /// The languages `text` is a value in, with the share of matching entries each has (0-1),
  /// most likely first.
  public func detectLanguages(of text: String) async throws -> [DetectedLanguage] {
    var rows = try await store.translations(withText: text, normalized: false, languages: nil)
    if rows.isEmpty {
      let normalized = TextNormalizer.normalize(text)
      if !normalized.isEmpty {
        rows = try await store.translations(withText: normalized, normalized: true, languages: nil)
      }
    }
    guard !rows.isEmpty else { return [] }
    // The share of matching entries that have the text in each language. A value equal to
    // its entry's source text in another language is most likely an untranslated copy, so it
    // counts half.
    let units = try await store.units(Array(Set(rows.map(\.unit))))
    var weights: [String: Double] = [:]
    for row in rows {
      let copy = row.language != developmentLanguage && units[row.unit]?.source == row.value
      weights[row.language, default: 0] += copy ? 0.5 : 1
    }
    let total = Double(units.count)
    return weights.map { DetectedLanguage(language: $0.key, confidence: min($0.value / total, 1)) }
      .sorted {
        ($1.confidence, $0.language == developmentLanguage ? 0 : 1, $0.language)
          < ($0.confidence, $1.language == developmentLanguage ? 0 : 1, $1.language)
      }
  }

  // MARK: Internals

  /// The translations in the first language of `targetChain` that has any for the units of
  /// `anchors`, grouped by text, most used first. `prefetched` holds the first language's
  /// translations and units for these units and maybe others, when the store gave them.
  private func anchored(
    _ anchors: [StoredTranslation], kind: TranslationMatch.Kind, scores: [Int64: Double],
    targetChain: [String],
    prefetched: (translations: [StoredTranslation], units: [Int64: StoredUnit])? = nil
  ) async throws -> [TranslationMatch]? {
    guard !anchors.isEmpty else { return nil }
    // One anchor per unit: the development language's, else the first language by code.
    var anchorByUnit: [Int64: StoredTranslation] = [:]
    var unitOrder: [Int64] = []
    for anchor in anchors {
      if let existing = anchorByUnit[anchor.unit] {
        if existing.language != developmentLanguage,
          anchor.language == developmentLanguage
            || ContentOrder.precedes(anchor.language, existing.language)
        {
          anchorByUnit[anchor.unit] = anchor
        }
      } else {
        anchorByUnit[anchor.unit] = anchor
        unitOrder.append(anchor.unit)
      }
    }
    for (position, language) in targetChain.enumerated() {
      let (rows, units) =
        if position == 0, let prefetched {
          (prefetched.translations.filter { anchorByUnit[$0.unit] != nil }, prefetched.units)
        } else {
          try await store.translationsAndUnits(ofUnits: unitOrder, language: language)
        }
      guard !rows.isEmpty else { continue }
      var groups: [String: [StoredTranslation]] = [:]
      var groupOrder: [String] = []
      for row in rows {
        if groups[row.value] == nil { groupOrder.append(row.value) }
        groups[row.value, default: []].append(row)
      }
      var matches: [TranslationMatch] = []
      for value in groupOrder {
        guard let members = groups[value] else { continue }
        // The representative entry: the best-scoring, then the first in table order.
        let candidates = members.map { (row: $0, record: record($0, unit: units[$0.unit])) }
        guard
          let chosen = candidates.min(by: {
            let (left, right) = (scores[$0.row.unit] ?? 1, scores[$1.row.unit] ?? 1)
            return left != right
              ? left > right : ContentOrder.precedes($0.record, $1.record)
          })
        else { continue }
        let score = scores[chosen.row.unit] ?? 1
        let anchor = anchorByUnit[chosen.row.unit]
        matches.append(
          TranslationMatch(
            translation: value, language: language, record: chosen.record,
            matchedText: anchor?.value ?? value, kind: kind, score: score,
            occurrences: members.count))
      }
      // A "translation" equal to the text it translates is most often a copy nobody
      // translated: it goes after real translations, whatever its count.
      func copyRank(_ match: TranslationMatch) -> Int {
        match.translation == match.matchedText
          && anchorByUnit.values.contains {
            $0.language != language
          } ? 1 : 0
      }
      return matches.sorted {
        if (copyRank($0), $1.score, $1.occurrences) != (copyRank($1), $0.score, $0.occurrences) {
          return (copyRank($0), $1.score, $1.occurrences)
            < (copyRank($1), $0.score, $0.occurrences)
        }
        return ContentOrder.precedes($0.record, $1.record)
      }
    }
    return []
  }

  private func record(_ row: StoredTranslation, unit: StoredUnit?) -> TranslationRecord {
    TranslationRecord(
      bundle: unit?.bundle ?? "", table: unit?.table ?? "", key: unit?.key ?? "",
      variant: unit?.variant ?? "", language: row.language, value: row.value,
      comment: row.comment, source: unit?.source, project: unit?.project ?? "", state: row.state)
  }
}

/// The one order of rows every backend gives: by table, key, bundle, variant, project,
/// language and value, each compared by its UTF-8 bytes (as SQLite's BINARY collation does,
/// whatever a PostgreSQL database's collation is).
enum ContentOrder {
  static func precedes(_ left: String, _ right: String) -> Bool {
    left.utf8.lexicographicallyPrecedes(right.utf8)
  }

  static func precedes(_ left: [String], _ right: [String]) -> Bool {
    for (a, b) in zip(left, right) where a != b { return precedes(a, b) }
    return false
  }

  static func precedes(_ left: StoredUnit, _ right: StoredUnit) -> Bool {
    precedes(
      [left.table, left.bundle, left.variant, left.project, left.key],
      [right.table, right.bundle, right.variant, right.project, right.key])
  }

  static func precedes(_ left: TranslationRecord, _ right: TranslationRecord) -> Bool {
    precedes(
      [
        left.table, left.key, left.bundle, left.variant, left.project, left.language, left.value,
      ],
      [
        right.table, right.key, right.bundle, right.variant, right.project, right.language,
        right.value,
      ])
  }
}

/// Answers about language codes, by the code as a client wrote it. Bounded: codes past the
/// limit are worked out each time rather than letting a client grow the table without end.
final class LanguageAnswerCache: @unchecked Sendable {
  private var answers: [String: [String]] = [:]
  private let lock = NSLock()
  private let limit = 4096

  func value(for code: String) -> [String]? { lock.withLock { answers[code] } }

  func store(_ answer: [String], for code: String) {
    lock.withLock {
      if answers.count < limit { answers[code] = answer }
    }
  }
}

/// Fuzzy indexes by language, built on first use (by the embedded backends).
final class FuzzyIndexCache: @unchecked Sendable {
  private var indexes: [String: FuzzyIndex] = [:]
  private let lock = NSLock()

  /// The languages built, sorted.
  var languages: [String] { lock.withLock { indexes.keys.sorted() } }

  /// Serialises builds, so two first lookups of a language build it once; `lock` alone
  /// guards the dictionary, so asking what is built never waits for a build.
  private let building = NSLock()

  /// The index of `language` when it is built.
  func built(_ language: String) -> FuzzyIndex? { lock.withLock { indexes[language] } }

  func index(for language: String, build: () -> FuzzyIndex) -> FuzzyIndex {
    if let index = built(language) { return index }
    return building.withLock {
      if let index = built(language) { return index }
      let index = build()
      lock.withLock { indexes[language] = index }
      return index
    }
  }

}
