import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsTable
import Foundation
import GRDB

/// Moving a memory between tools: export as TMX, import TMX and XLIFF files into it. An
/// import checks every file first, then writes the memory again in one atomic replacement, so
/// a bad file, a full disk or a kill leaves the old memory as it was.
public enum MemoryExchange {
  /// The schema this version writes.
  public static let currentSchema = MemorySchema.version

  /// Every record of the memory at `path`, and its development language.
  public static func records(inMemory path: String) throws -> (
    records: [TranslationRecord], developmentLanguage: String
  ) {
    guard FileIO.exists(path) else {
      throw TranslationError.invalidMemory(path: path, message: "no such memory file")
    }
    var configuration = Configuration()
    configuration.readonly = true
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      defer { try? queue.close() }
      return try queue.read { db in
        let meta = try MemorySchema.meta(db)
        if let problem = MemorySchema.readProblem(meta["schema"]) {
          throw TranslationError.invalidMemory(path: path, message: problem)
        }
        let current = MemorySchema.hasProjectsAndStates(meta)
        let rows = try Row.fetchAll(
          db,
          sql: """
            SELECT u.bundle, u.tbl, u.key, u.variant, u.source, t.language, t.value, t.comment,
              \(current ? "u.project, t.state" : "'', 'translated'")
            FROM translations t JOIN units u ON u.id = t.unit ORDER BY u.id, t.language
            """)
        let records = rows.map { row in
          TranslationRecord(
            bundle: row[0], table: row[1], key: row[2], variant: row[3], language: row[5],
            value: row[6], comment: row[7], source: row[4], project: row[8],
            state: ReviewState(rawValue: row[9]) ?? .translated)
        }
        return (records, meta["developmentLanguage"] ?? "en")
      }
    } catch let error as DatabaseError {
      throw TranslationError.invalidMemory(
        path: path, message: "not a translation memory: \(error.message ?? "\(error.resultCode)")")
    }
  }

  /// Brings the memory at `path` to the current schema in place, in one transaction (a kill
  /// or a failure leaves it as it was); the schema it had. A newer schema is refused.
  @discardableResult
  public static func migrate(memory path: String) throws -> Int {
    guard FileIO.exists(path) else {
      throw TranslationError.invalidMemory(path: path, message: "no such memory file")
    }
    do {
      let queue = try DatabaseQueue(path: path)
      defer { try? queue.close() }
      return try queue.write { db in
        let found = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'schema'")
        if let problem = MemorySchema.readProblem(found) {
          throw TranslationError.invalidMemory(path: path, message: problem)
        }
        let old = Int(found ?? "") ?? MemorySchema.version
        for version in old..<MemorySchema.version {
          for statement in MemorySchema.migrations[version] ?? [] {
            try db.execute(sql: statement)
          }
        }
        try db.execute(
          sql: "UPDATE meta SET value = ? WHERE name = 'schema'",
          arguments: [String(MemorySchema.version)])
        return old
      }
    } catch let error as DatabaseError {
      throw TranslationError.invalidMemory(
        path: path, message: "cannot migrate: \(error.message ?? "\(error.resultCode)")")
    }
  }

  /// Writes the memory at `memory` as TMX to `output` (atomically); the number of entries.
  @discardableResult
  public static func exportTMX(memory: String, to output: String, toolVersion: String) throws
    -> Int
  {
    let (records, language) = try records(inMemory: memory)
    return try exportTMX(
      records: records, sourceLanguage: language, to: output, toolVersion: toolVersion)
  }

  /// Writes `records` as TMX to `output` (atomically); the number of entries.
  @discardableResult
  public static func exportTMX(
    records: [TranslationRecord], sourceLanguage language: String, to output: String,
    toolVersion: String
  ) throws -> Int {
    let bytes = TMXDocument.write(records, sourceLanguage: language, toolVersion: toolVersion)
    do {
      try FileIO.writeAtomically(bytes, to: output)
    } catch {
      throw TranslationError.invalidMemory(path: output, message: error.message)
    }
    return Set(
      records.map {
        "\($0.project)\u{0}\($0.bundle)\u{0}\($0.table)\u{0}\($0.key)\u{0}\($0.variant)"
      }
    ).count
  }

  /// The records of TMX (`.tmx`) and XLIFF (`.xliff`, `.xlf`) files, all read and checked
  /// before any is used.
  public static func records(inFiles paths: [String]) throws -> (
    records: [TranslationRecord], sourceLanguage: String?
  ) {
    var records: [TranslationRecord] = []
    var problems: [Diagnostic] = []
    var sourceLanguage: String?
    for path in paths {
      do {
        let bytes = try FileIO.read(path)
        if path.hasSuffix(".xliff") || path.hasSuffix(".xlf") {
          let document = try XLIFFDocument.read(bytes, path: path)
          records += xliffRecords(document)
          sourceLanguage =
            sourceLanguage
            ?? document.files.first.flatMap {
              LanguageTag.normalize($0.sourceLanguage)
            }
        } else {
          let read = try TMXDocument.read(bytes, path: path)
          records += read.records
          sourceLanguage = sourceLanguage ?? read.sourceLanguage
        }
      } catch let error as any DiagnosticConvertible {
        problems += error.diagnostics
      }
    }
    if !problems.isEmpty { throw TranslationError.table(problems) }
    return (records, sourceLanguage)
  }

  /// Merges `paths` into the memory at `memory` (created when missing): an imported value
  /// replaces the memory's for the same entry and language; everything else is kept.
  public static func importFiles(_ paths: [String], into memory: String) throws
    -> MemoryBuilder.Summary
  {
    let imported = try records(inFiles: paths)
    var existing: [TranslationRecord] = []
    var language = imported.sourceLanguage ?? "en"
    if FileIO.exists(memory) {
      (existing, language) = try records(inMemory: memory)
    }
    // One array in first-seen order, a later record replacing an earlier one of the same
    // entry and language: no second copy of the records, no joined key strings (a large
    // import held several of each).
    var merged: [TranslationRecord] = []
    merged.reserveCapacity(existing.count + imported.records.count)
    var places: [RecordIdentity: Int] = [:]
    places.reserveCapacity(existing.count + imported.records.count)
    func add(_ record: TranslationRecord) {
      let identity = RecordIdentity(record)
      if let index = places[identity] {
        merged[index] = record
      } else {
        places[identity] = merged.count
        merged.append(record)
      }
    }
    existing.forEach(add)
    existing = []
    imported.records.forEach(add)
    places = [:]
    return try MemoryBuilder(developmentLanguage: language).build(
      records: merged, files: paths.count, to: memory)
  }

  /// What makes two records the same entry in the same language.
  struct RecordIdentity: Hashable {
    var unit: UnitIdentity
    var language: String

    init(_ record: TranslationRecord) {
      unit = UnitIdentity(record)
      language = record.language
    }
  }

  /// An XLIFF file's units as records: the source text in the source language, the target
  /// (when given) in the target language; catalog ids (`key|==|plural.one`) and
  /// `.stringsdict` ids (`/key:dict/VAR:dict/one:dict/:string`) give the key and form.
  static func xliffRecords(_ document: XLIFFDocument) -> [TranslationRecord] {
    var records: [TranslationRecord] = []
    for file in document.files {
      let source = LanguageTag.normalize(file.sourceLanguage) ?? file.sourceLanguage
      let target = file.targetLanguage.flatMap(LanguageTag.normalize)
      let location = TableLocation(path: file.original)
      let bundle = "xliff:" + (location?.bundleFolder ?? file.original)
      let table = location?.table ?? file.original
      for unit in file.units {
        let (key, variant) = keyAndVariant(unit.id)
        let base = TranslationRecord(
          bundle: bundle, table: table, key: key, variant: variant, language: source,
          value: unit.source, comment: unit.note, source: unit.source)
        records.append(base)
        if let target, let value = unit.target, !value.isEmpty, target != source {
          var translated = base
          translated.language = target
          translated.value = value
          translated.state = reviewState(xliff: unit.state)
          records.append(translated)
        }
      }
    }
    return records
  }

  /// An XLIFF `state` as a review state: signed off or final is approved, any review or
  /// translation still needed is needs review.
  static func reviewState(xliff state: String?) -> ReviewState {
    switch state {
    case "signed-off", "final": .approved
    case nil, "translated": .translated
    default: .needsReview
    }
  }

  static func keyAndVariant(_ id: String) -> (String, String) {
    if let range = id.range(of: "|==|", options: .backwards) {
      return (String(id[..<range.lowerBound]), String(id[range.upperBound...]))
    }
    if id.hasPrefix("/"), id.hasSuffix(":dict/:string") {
      let parts = id.dropFirst().dropLast(":dict/:string".count).components(separatedBy: ":dict/")
      if parts.count == 3 { return (parts[0], "\(parts[1]).\(parts[2])") }
      if parts.count == 2 { return (parts[0], "") }
    }
    return (id, "")
  }
}
