import BundleKitTranslation
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// A translation memory in PostgreSQL, shared by many projects, servers and writers.
///
/// Reads go through a connection pool and give the answers the SQLite file gives for the same
/// entries (``open()``). Every write (``write(_:developmentLanguage:replacingProject:files:)``)
/// is one transaction under an advisory lock: a killed client or database leaves the memory as
/// it was, and concurrent writers take turns instead of losing each other's rows. Each write
/// bumps a generation number that servers watch to drop what they cached.
///
/// Its connection pool runs as a service (swift-service-lifecycle's `Service`, as PostgresNIO's
/// client is one): in the caller's `ServiceGroup`, or for the length of a closure with
/// ``running(_:)``. Start and shutdown are structured; the memory answers only while it runs.
public final class PostgresMemory: MemorySource, Service {
  /// The layout this version writes.
  public static let currentSchema = PostgresSchema.version

  /// Where the memory lives.
  public let address: PostgresAddress
  private let client: PostgresClient
  /// How long a question waits for a connection before the database counts as unavailable.
  let connectDeadline: Double
  /// How long any one read may take before the database counts as unavailable.
  let queryDeadline: Double
  /// Where fuzzy candidates come from.
  public let fuzzyLookup: FuzzyLookup

  /// Where a server's fuzzy candidates come from.
  public enum FuzzyLookup: Sendable {
    /// `pg_trgm`'s GIN index, until this replica has built its own index of a language in the
    /// background (from the database's rows, again for each generation): at a million
    /// entries the GIN scan alone takes hundreds of milliseconds, the replica's index a few.
    case replicaIndex
    /// Always `pg_trgm`, for a replica with little memory to spare.
    case databaseOnly
  }

  /// Connects (lazily, through a pool) to the database at `address`.
  ///
  /// - Parameters:
  ///   - connectDeadline: seconds a question waits for a connection before the database counts
  ///     as unavailable.
  ///   - queryDeadline: seconds any one read may take in all, connection included.
  public init(
    address: PostgresAddress, maximumConnections: Int = 8, connectDeadline: Double = 5,
    queryDeadline: Double = 60, fuzzyLookup: FuzzyLookup = .replicaIndex
  ) {
    self.address = address
    self.connectDeadline = connectDeadline
    self.queryDeadline = max(queryDeadline, connectDeadline)
    self.fuzzyLookup = fuzzyLookup
    var configuration = PostgresClient.Configuration(
      host: address.host, port: address.port, username: address.user,
      password: address.password, database: address.database,
      tls: address.requiresTLS ? .require(.makeClientConfiguration()) : .disable)
    configuration.options.maximumConnections = maximumConnections
    configuration.options.connectTimeout = .seconds(2)
    // The trigram threshold the candidate query's `%` uses (see TrigramFilter).
    configuration.options.additionalStartupParameters = [
      ("options", "-c pg_trgm.similarity_threshold=\(TrigramFilter.databaseThreshold)")
    ]
    client = PostgresClient(configuration: configuration)
  }

  /// Runs the connection pool until the task is cancelled (or its service group shuts down
  /// gracefully): the memory's questions wait for connections until this runs.
  public func run() async throws { await client.run() }

  /// `body` with the pool running, then the pool shut down, whether `body` returns or throws.
  public func running<Result: Sendable>(
    _ body: (PostgresMemory) async throws -> Result
  ) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await self.run() }
      defer { group.cancelAll() }
      return try await body(self)
    }
  }

  // MARK: Reading

  /// The memory's settings, or nil when the database holds none.
  func meta() async throws -> [String: String]? {
    try await reading { client in
      let exists =
        try await client.query(
          "SELECT to_regclass('bundlekit_meta') IS NOT NULL"
        ).collect().first?.decode(Bool.self) ?? false
      guard exists else { return nil }
      var meta: [String: String] = [:]
      for try await (name, value) in try await client.query(
        "SELECT name, value FROM bundlekit_meta"
      ).decode((String, String).self) {
        meta[name] = value
      }
      return meta
    }
  }

  /// The memory's generation: it changes with every write.
  public func generation() async throws -> String {
    try await meta()?["generation"] ?? ""
  }

  /// A ``TranslationMemory`` answering from this database.
  public func open() async throws -> TranslationMemory {
    guard let meta = try await meta() else {
      throw PostgresMemoryError.invalidMemory(
        address: address.description,
        message: "holds no translation memory yet: index tables into it first")
    }
    if let problem = Self.readProblem(meta["schema"]) {
      throw PostgresMemoryError.invalidMemory(address: address.description, message: problem)
    }
    return TranslationMemory(
      store: PostgresStore(memory: self), path: address.description,
      developmentLanguage: meta["developmentLanguage"] ?? "en",
      languages: (meta["languages"] ?? "").split(separator: ",").map(String.init))
  }

  /// Every record of the memory, and its development language (for TMX export).
  public func records() async throws -> (records: [TranslationRecord], developmentLanguage: String)
  {
    guard let meta = try await meta() else {
      throw PostgresMemoryError.invalidMemory(
        address: address.description, message: "holds no translation memory")
    }
    if let problem = Self.readProblem(meta["schema"]) {
      throw PostgresMemoryError.invalidMemory(address: address.description, message: problem)
    }
    let records = try await reading { client in
      var records: [TranslationRecord] = []
      for try await (bundle, table, key, variant, source, language, value, comment, project, state)
        in try await client.query(
          """
          SELECT u.bundle, u.tbl, u.key, u.variant, u.source, t.language, t.value, t.comment,
            u.project, t.state
          FROM bundlekit_translations t JOIN bundlekit_units u ON u.id = t.unit
          ORDER BY u.id, t.language
          """
        ).decode(
          (
            String, String, String, String, String?, String, String, String?, String, String
          ).self)
      {
        records.append(
          TranslationRecord(
            bundle: bundle, table: table, key: key, variant: variant, language: language,
            value: value, comment: comment, source: source, project: project,
            state: ReviewState(rawValue: state) ?? .translated))
      }
      return records
    }
    return (records, meta["developmentLanguage"] ?? "en")
  }

  // MARK: Writing

  /// Writes `records` in one transaction: with `replacingProject`, that project's entries are
  /// removed first (an index of one app); without, records are merged (an import), an entry's
  /// value replaced per language and everything else kept. Creates the tables the first time
  /// and brings an older layout up to date; a newer one is refused.
  public func write(
    _ records: [TranslationRecord], developmentLanguage: String, replacingProject: String?,
    files: Int
  ) async throws -> MemoryBuilder.Summary {
    try Self.checkStorable(records)
    return try await writing(developmentLanguage: developmentLanguage) { connection, _ in
      if let replacingProject {
        try await connection.query(
          "DELETE FROM bundlekit_units WHERE project = \(replacingProject)", logger: Self.logger)
      }
      let counts = try await Self.insert(records, connection: connection)
      // Fresh statistics in the same transaction: until autovacuum comes by, the planner
      // would guess, and a million new rows made lookups ten times slower.
      if counts.translations >= 10_000 {
        try await connection.query(
          "ANALYZE bundlekit_units, bundlekit_translations", logger: Self.logger)
      }
      let languages = try await connection.query(
        "SELECT DISTINCT language FROM bundlekit_translations", logger: Self.logger
      ).collect().map { try $0.decode(String.self) }.sorted()
      try await connection.query(
        """
        UPDATE bundlekit_meta SET value = \(languages.joined(separator: ","))
        WHERE name = 'languages'
        """, logger: Self.logger)
      try await Self.bumpGeneration(connection)
      return MemoryBuilder.Summary(
        files: files, translations: counts.translations, units: counts.units,
        languages: languages)
    }
  }

  /// Brings the memory to the current layout (creating it when missing); the version it had.
  @discardableResult
  public func migrate() async throws -> Int {
    try await writing { _, found in found }
  }

  static func bumpGeneration(_ connection: PostgresConnection) async throws {
    try await connection.query(
      """
      UPDATE bundlekit_meta SET value = (value::bigint + 1)::text WHERE name = 'generation'
      """, logger: logger)
  }

  /// Creates or migrates the tables; the schema found, nil for a new memory, whose lookup
  /// indexes are still to be made (``PostgresSchema/indexes``).
  @discardableResult
  static func prepareSchema(
    _ connection: PostgresConnection, developmentLanguage: String, address: PostgresAddress
  ) async throws -> Int? {
    let encoding = try await connection.query("SHOW server_encoding", logger: logger).collect()
      .first?.decode(String.self)
    guard encoding == "UTF8" else {
      throw PostgresMemoryError.invalidMemory(
        address: address.description,
        message:
          "is encoded as \(encoding ?? "?"); a translation memory needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')"
      )
    }
    let exists =
      try await connection.query(
        "SELECT to_regclass('bundlekit_meta') IS NOT NULL", logger: logger
      ).collect().first?.decode(Bool.self) ?? false
    guard exists else {
      for statement in PostgresSchema.tables {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
      }
      let development = LanguageTag.normalize(developmentLanguage) ?? developmentLanguage
      for (name, value) in [
        ("schema", String(PostgresSchema.version)), ("developmentLanguage", development),
        ("languages", ""), ("generation", "0"),
      ] {
        try await connection.query(
          "INSERT INTO bundlekit_meta (name, value) VALUES (\(name), \(value))", logger: logger)
      }
      return nil
    }
    let found = try await connection.query(
      "SELECT value FROM bundlekit_meta WHERE name = 'schema'", logger: logger
    ).collect().first?.decode(String.self)
    if let problem = readProblem(found) {
      throw PostgresMemoryError.invalidMemory(address: address.description, message: problem)
    }
    let old = Int(found ?? "") ?? PostgresSchema.version
    for version in old..<PostgresSchema.version {
      for statement in PostgresSchema.migrations[version] ?? [] {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
      }
    }
    if old != PostgresSchema.version {
      try await connection.query(
        "UPDATE bundlekit_meta SET value = \(String(PostgresSchema.version)) WHERE name = 'schema'",
        logger: logger)
    }
    return old
  }

  /// What a memory of schema `found` may do here: nil when this version can use it.
  static func readProblem(_ found: String?) -> String? {
    guard let found, let number = Int(found) else {
      return "holds a memory of an unknown layout (schema ?)"
    }
    if number > PostgresSchema.version {
      return
        "holds a memory made by a newer bundlekit-translate (schema \(number); this one knows 1 to \(PostgresSchema.version)): upgrade bundlekit-translate"
    }
    return nil
  }

  /// PostgreSQL's text holds no NUL character; such an entry is named rather than failing
  /// the whole transaction with the server's words.
  static func checkStorable(_ records: [TranslationRecord]) throws {
    for record in records {
      let fields = [
        record.project, record.bundle, record.table, record.key, record.variant, record.language,
        record.value, record.comment ?? "", record.source ?? "",
      ]
      // Projects are found through a B-tree, whose entries must fit a third of a page.
      if record.project.utf8.count > 1000 {
        throw PostgresMemoryError.database(
          address: "\(record.bundle)/\(record.table)",
          message:
            "project name of \(record.project.utf8.count) bytes is too long (at most 1000)")
      }
      if fields.contains(where: { $0.utf8.contains(0) }) {
        throw PostgresMemoryError.database(
          address: "\(record.bundle)/\(record.table)",
          message:
            "key \"\(record.key)\" (\(record.language)) holds a NUL character, which PostgreSQL cannot store"
        )
      }
    }
  }

  /// The text whose md5 is a unit's `identity`: its columns, joined so that no two units share it.
  static func identity(
    project: String, bundle: String, table: String, key: String, variant: String
  ) -> String {
    [project, bundle, table, key, variant].map {
      $0.replacingOccurrences(of: "\u{1}", with: "\u{1}\u{1}")
    }.joined(separator: "\u{1}\u{2}")
  }

  /// Runs `body` in one transaction under the write lock, with the schema made or brought up to
  /// date first.
  func writing<T: Sendable>(
    developmentLanguage: String = "en",
    _ body:
      @escaping @Sendable (_ connection: PostgresConnection, _ foundSchema: Int) async throws -> T
  ) async throws -> T {
    try await available()
    let address = address
    let client = client
    let connect = connectDeadline
    let connected = Lease()
    // A connection within the connect deadline, as for reads (the pool would wait for ever
    // while the database is down); then as long as the write takes, or until the connection
    // closes under it (which rolls the transaction back).
    return try await mapped {
      try await withDeadline(
        seconds: connect, extendedTo: 7 * 24 * 3600, when: connected,
        timeout: { miss in
          PostgresMemoryError.unavailable(
            address: address.description,
            message: miss == .connectionClosed
              ? "the connection closed during the write" : "no connection within \(connect) s")
        }
      ) {
        try await Self.transaction(
          client, connected: connected, developmentLanguage: developmentLanguage,
          address: address, body)
      }
    }
  }

  private static func transaction<T: Sendable>(
    _ client: PostgresClient, connected: Lease, developmentLanguage: String,
    address: PostgresAddress,
    _ body:
      @escaping @Sendable (_ connection: PostgresConnection, _ foundSchema: Int) async throws -> T
  ) async throws -> T {
    try await client.withTransaction(logger: Self.logger) { connection in
      // Too late: the caller was answered "unavailable"; writing now could overwrite a write
      // made since. Throwing rolls the transaction back.
      guard connected.raise(isClosed: { connection.isClosed }) else {
        throw CancellationError()
      }
      try await connection.query(
        "SELECT pg_advisory_xact_lock(\(PostgresSchema.writeLock))", logger: Self.logger)
      let found = try await Self.prepareSchema(
        connection, developmentLanguage: developmentLanguage, address: address)
      let result = try await body(connection, found ?? PostgresSchema.version)
      if found == nil {
        for statement in PostgresSchema.indexes {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Self.logger)
        }
      }
      return result
    }
  }

  /// Inserts or replaces `records` in batches; the units and translations written.
  static func insert(_ records: [TranslationRecord], connection: PostgresConnection) async throws
    -> (units: Int, translations: Int)
  {
    struct UnitKey: Hashable {
      var project, bundle, table, key, variant: String
    }
    // The last record of each unit and of each (unit, language) wins, as in SQLite's build.
    var units: [UnitKey: TranslationRecord] = [:]
    var unitOrder: [UnitKey] = []
    var translations: [UnitKey: [String: TranslationRecord]] = [:]
    for record in records {
      let unit = UnitKey(
        project: record.project, bundle: record.bundle, table: record.table, key: record.key,
        variant: record.variant)
      if units[unit] == nil { unitOrder.append(unit) }
      if units[unit] == nil || record.source != nil { units[unit] = record }
      translations[unit, default: [:]][record.language] = record
    }
    var ids: [UnitKey: Int64] = [:]
    let batch = 2000
    for start in stride(from: 0, to: unitOrder.count, by: batch) {
      let slice = unitOrder[start..<min(start + batch, unitOrder.count)]
      let identities = slice.map {
        identity(
          project: $0.project, bundle: $0.bundle, table: $0.table, key: $0.key, variant: $0.variant)
      }
      let sources = slice.map { units[$0]?.source }
      let rows = try await connection.query(
        """
        INSERT INTO bundlekit_units (identity, project, bundle, tbl, key, variant, source)
        SELECT md5(i), p, b, t, k, v, CASE WHEN hs THEN s END
        FROM unnest(\(identities)::text[], \(slice.map(\.project))::text[],
          \(slice.map(\.bundle))::text[], \(slice.map(\.table))::text[],
          \(slice.map(\.key))::text[], \(slice.map(\.variant))::text[],
          \(sources.map { $0 ?? "" })::text[], \(sources.map { $0 != nil })::bool[])
          AS x(i, p, b, t, k, v, s, hs)
        ON CONFLICT (identity) DO UPDATE SET source = EXCLUDED.source
        RETURNING id, project, bundle, tbl, key, variant
        """, logger: logger
      ).decode((Int64, String, String, String, String, String).self)
      for try await (id, project, bundle, table, key, variant) in rows {
        ids[UnitKey(project: project, bundle: bundle, table: table, key: key, variant: variant)] =
          id
      }
    }
    var rows: [(Int64, TranslationRecord)] = []
    for unit in unitOrder {
      guard let id = ids[unit] else { continue }
      for (_, record) in (translations[unit] ?? [:]).sorted(by: { $0.key < $1.key }) {
        rows.append((id, record))
      }
    }
    for start in stride(from: 0, to: rows.count, by: batch) {
      let slice = rows[start..<min(start + batch, rows.count)]
      let normalized = slice.map { TextNormalizer.normalize($0.1.value) }
      try await connection.query(
        """
        INSERT INTO bundlekit_translations (unit, language, value, normalized, grams, comment, state)
        SELECT u, l, v, n, g, CASE WHEN hc THEN c END, s
        FROM unnest(\(slice.map(\.0))::int8[], \(slice.map(\.1.language))::text[],
          \(slice.map(\.1.value))::text[], \(normalized)::text[],
          \(normalized.map(TrigramFilter.encode))::text[],
          \(slice.map { $0.1.comment ?? "" })::text[], \(slice.map { $0.1.comment != nil })::bool[],
          \(slice.map(\.1.state.rawValue))::text[])
          AS x(u, l, v, n, g, c, hc, s)
        ON CONFLICT (unit, language) DO UPDATE SET value = EXCLUDED.value,
          normalized = EXCLUDED.normalized, grams = EXCLUDED.grams, comment = EXCLUDED.comment,
          state = EXCLUDED.state
        """, logger: logger)
    }
    return (unitOrder.count, rows.count)
  }

  // MARK: Connections

  static let logger = Logger(label: "bundlekit.translate.postgres") { _ in SwiftLogNoOpLogHandler()
  }

  /// Fails fast, as unavailable, when no connection can be had within the deadline.
  func available() async throws {
    _ = try await reading { connection in try await connection.query("SELECT 1").collect() }
  }

  /// A read on one connection of the pool, its errors as ``PostgresMemoryError``: unavailable
  /// when no connection comes within ``connectDeadline`` (the pool would otherwise wait for a
  /// database that is down), when the read takes longer than ``queryDeadline`` in all, or
  /// when its connection closes before it is answered.
  func reading<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws -> T
  {
    let address = address
    let client = client
    let (connect, total) = (connectDeadline, queryDeadline)
    return try await mapped {
      let connected = Lease()
      return try await withDeadline(
        seconds: connect, extendedTo: total, when: connected,
        timeout: { miss in
          let message =
            switch miss {
            case .noConnection: "no connection within \(connect) s"
            case .noAnswer: "no answer within \(total) s"
            case .connectionClosed: "the connection closed during the read"
            }
          return PostgresMemoryError.unavailable(address: address.description, message: message)
        }
      ) {
        try await client.withConnection { connection in
          guard connected.raise(isClosed: { connection.isClosed }) else {
            throw CancellationError()
          }
          return try await body(connection)
        }
      }
    }
  }

  /// `work`, with PostgresNIO's errors told as ``PostgresMemoryError``.
  func mapped<T>(_ work: () async throws -> T) async throws -> T {
    do {
      return try await work()
    } catch {
      throw describe(error)
    }
  }

  /// A PostgresNIO error as BundleKit tells it: the server's own message for SQL errors,
  /// unavailable for anything that says the server cannot be reached now.
  func describe(_ error: any Error) -> PostgresMemoryError {
    if let known = error as? PostgresMemoryError { return known }
    if let transaction = error as? PostgresTransactionError {
      return describe(
        transaction.beginError ?? transaction.closureError ?? transaction.commitError
          ?? transaction.rollbackError ?? CancellationError())
    }
    guard let error = error as? PSQLError else {
      if error is CancellationError {
        return .unavailable(address: address.description, message: "cancelled")
      }
      return .database(address: address.description, message: "\(error)")
    }
    switch error.code {
    case .server:
      let state = error.serverInfo?[.sqlState] ?? ""
      let message = error.serverInfo?[.message] ?? "error"
      // Connection exceptions, shutdowns, "the database system is starting up", too many
      // connections: all pass.
      if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
        return .unavailable(address: address.description, message: message)
      }
      return .database(address: address.description, message: "\(message) (SQLSTATE \(state))")
    case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown,
      .poolClosed, .queryCancelled:
      return .unavailable(address: address.description, message: "\(error.code)")
    default:
      return .database(address: address.description, message: "\(error.code)")
    }
  }
}

extension PostgresConnection {
  /// A query logged nowhere, as every read of the memory is.
  func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
    try await self.query(query, logger: PostgresMemory.logger)
  }
}
