import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation
import GRDB

/// Builds a translation memory file from strings tables.
public struct MemoryBuilder: Sendable {
  /// The language whose text is each entry's source, for tables in `<lang>.lproj` folders
  /// (catalogs name their own). `Base` stands in when a bundle has no such folder.
  public var developmentLanguage: String

  /// What a build read and wrote.
  public struct Summary: Sendable, Hashable, Codable {
    /// Table files read.
    public var files: Int
    /// Entries (one form of one key in one language) stored.
    public var translations: Int
    /// Distinct keys and forms across tables and bundles.
    public var units: Int
    /// The languages found, sorted.
    public var languages: [String]

    /// A summary of a build or an import.
    public init(files: Int, translations: Int, units: Int, languages: [String]) {
      self.files = files
      self.translations = translations
      self.units = units
      self.languages = languages
    }
  }

  /// The project (app) the tables read belong to; empty for a memory of one app.
  public var project = ""

  /// A builder reading tables whose source texts are in `developmentLanguage`.
  public init(developmentLanguage: String = "en") {
    self.developmentLanguage = developmentLanguage
  }

  /// Reads every table under `paths` (files or folders, searched as `strings lint` does) and
  /// writes the memory to `output`, replacing it atomically: a failed build leaves any
  /// existing file as it was.
  public func build(from paths: [String], to output: String) throws -> Summary {
    let (records, files) = try records(from: paths)
    return try build(records: records, files: files, to: output)
  }

  /// Every entry of every table under `paths` (as ``build(from:to:)`` reads them), in
  /// ``project``, and the number of table files read: what another backend stores.
  public func records(from paths: [String]) throws -> (records: [TranslationRecord], files: Int) {
    let locations: [TableLocation]
    do {
      locations = try TableDiscovery.tables(in: paths)
    } catch {
      throw TranslationError.table(error.diagnostics)
    }
    var records = try readRecords(locations)
    if !project.isEmpty {
      for index in records.indices { records[index].project = project }
    }
    return (records, locations.count)
  }

  /// Writes `records` as the memory at `output`, replacing it atomically: a failed write
  /// leaves any existing file as it was. `files` is what the summary reports as read.
  public func build(records: [TranslationRecord], files: Int, to output: String) throws
    -> Summary
  {
    // The memory is built in a locked temporary file beside the output, flushed to disk and
    // renamed over it (`AtomicFile`): a failed or killed build leaves any old file as it was.
    let file: AtomicFile
    do {
      file = try AtomicFile(output)
    } catch {
      throw TranslationError.invalidMemory(path: output, message: error.message)
    }
    guard let temporary = file.temporaryPath else {
      file.discard()
      throw TranslationError.invalidMemory(
        path: output,
        message: "is a device or FIFO; a translation memory is a database file: give a file name")
    }
    do {
      let summary = try write(records, files: files, to: temporary)
      try file.commit()
      return summary
    } catch let error as PropertyListError {
      file.discard()
      throw TranslationError.invalidMemory(path: output, message: error.message)
    } catch let error as FileSystemError {
      file.discard()
      throw TranslationError.invalidMemory(path: output, message: error.message)
    } catch let error as DatabaseError {
      // SQLite names no file ("database or disk is full"): the memory being written is it.
      file.discard()
      throw TranslationError.invalidMemory(
        path: output,
        message:
          "cannot write the memory: \(error.message ?? "\(error.resultCode)"); the old file, if any, is as it was"
      )
    }
  }

  /// Every record of every table, with its source text filled in. Tables are read on all
  /// cores; the order of the result does not depend on it.
  func readRecords(_ locations: [TableLocation]) throws -> [TranslationRecord] {
    let results = ResultSlots<[TranslationRecord]>(count: locations.count)
    DispatchQueue.concurrentPerform(iterations: locations.count) { index in
      let location = locations[index]
      results[index] = Result {
        try TableReader.records(at: location, bundle: location.bundleFolder)
      }
    }
    var records: [TranslationRecord] = []
    for result in results.values { try records += result.get() }
    return fillSources(records)
  }

  /// Sets each record's `source` to its unit's text in the development language of its bundle
  /// (the catalog's source language, else `developmentLanguage`, else `Base`).
  private func fillSources(_ records: [TranslationRecord]) -> [TranslationRecord] {
    struct UnitKey: Hashable {
      var bundle: String
      var table: String
      var key: String
      var variant: String
    }
    let development = LanguageTag.normalize(developmentLanguage) ?? developmentLanguage
    // Per bundle and table, which language is the source: the development language if the
    // table has it, else Base.
    var languagesByTable: [String: Set<String>] = [:]
    for record in records {
      languagesByTable["\(record.bundle)\u{0}\(record.table)", default: []].insert(record.language)
    }
    var sources: [UnitKey: String] = [:]
    for record in records {
      let languages = languagesByTable["\(record.bundle)\u{0}\(record.table)"] ?? []
      let sourceLanguage = languages.contains(development) ? development : "Base"
      if record.language == sourceLanguage {
        sources[
          UnitKey(
            bundle: record.bundle, table: record.table, key: record.key, variant: record.variant)] =
          record.value
      }
    }
    return records.map { record in
      var record = record
      record.source =
        sources[
          UnitKey(
            bundle: record.bundle, table: record.table, key: record.key, variant: record.variant)]
      return record
    }
  }

  private func write(_ records: [TranslationRecord], files: Int, to path: String) throws
    -> Summary
  {
    var configuration = Configuration()
    configuration.journalMode = .default
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    var languages: Set<String> = []
    var unitCount = 0
    var translationCount = 0
    // One transaction, no journal: the file is a temporary until renamed, so a crash costs
    // nothing and durability per statement is wasted work.
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
      try db.inTransaction {
        for statement in MemorySchema.statements { try db.execute(sql: statement) }
        let insertUnit = try db.makeStatement(
          sql: """
            INSERT INTO units (id, bundle, tbl, key, variant, source, project)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        )
        let insertTranslation = try db.makeStatement(
          sql: """
            INSERT OR REPLACE INTO translations (unit, language, value, normalized, comment, state)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        // Keyed by the record's own strings (shared, not copied), not by a joined string
        // per record.
        var units: [UnitIdentity: Int64] = [:]
        for record in records {
          let unitKey = UnitIdentity(record)
          let unit: Int64
          if let known = units[unitKey] {
            unit = known
          } else {
            unit = Int64(units.count + 1)
            units[unitKey] = unit
            try insertUnit.execute(arguments: [
              unit, record.bundle, record.table, record.key, record.variant, record.source,
              record.project,
            ])
          }
          try insertTranslation.execute(arguments: [
            unit, record.language, record.value, TextNormalizer.normalize(record.value),
            record.comment, record.state.rawValue,
          ])
          languages.insert(record.language)
        }
        unitCount = units.count
        for statement in MemorySchema.indexes { try db.execute(sql: statement) }
        translationCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM translations") ?? 0
        let meta: [(String, String)] = [
          ("schema", String(MemorySchema.version)),
          (
            "developmentLanguage", LanguageTag.normalize(developmentLanguage) ?? developmentLanguage
          ),
          ("languages", languages.sorted().joined(separator: ",")),
        ]
        for (name, value) in meta {
          try db.execute(
            sql: "INSERT INTO meta (name, value) VALUES (?, ?)", arguments: [name, value])
        }
        return .commit
      }
      try db.execute(sql: "ANALYZE")
    }
    try queue.close()
    return Summary(
      files: files, translations: translationCount, units: unitCount,
      languages: languages.sorted())
  }
}

/// What makes two records one unit: everything but the language and the text.
struct UnitIdentity: Hashable {
  var project: String
  var bundle: String
  var table: String
  var key: String
  var variant: String

  init(_ record: TranslationRecord) {
    (project, bundle, table, key, variant) = (
      record.project, record.bundle, record.table, record.key, record.variant
    )
  }
}

/// Results written by concurrent workers, one slot each.
final class ResultSlots<Value>: @unchecked Sendable {
  private var slots: [Result<Value, any Error>?]
  private let lock = NSLock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  subscript(index: Int) -> Result<Value, any Error>? {
    get { lock.withLock { slots[index] } }
    set { lock.withLock { slots[index] = newValue } }
  }

  var values: [Result<Value, any Error>] { lock.withLock { slots.compactMap { $0 } } }
}
