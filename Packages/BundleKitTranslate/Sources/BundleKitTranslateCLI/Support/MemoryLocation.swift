import ArgumentParser
import BundleKitTranslation
import BundleKitTranslationPostgres
import Foundation

/// `--memory FILE` or `--database postgres://...`: where a command finds the memory.
struct MemoryLocation: ParsableArguments {
  init() {}

  init(memory: String?, database: String?) {
    self.memory = memory
    self.database = database
  }

  @Option(help: "The memory file (SQLite).")
  var memory: String?

  @Option(
    help: ArgumentHelp(
      "A memory in PostgreSQL: postgres://USER@HOST:PORT/DATABASE.",
      discussion: "The password, if any, from the address or PGPASSWORD; ?sslmode=require for TLS."
    ))
  var database: String?

  func validate() throws {
    guard (memory == nil) != (database == nil) else {
      throw ValidationError("give the memory as one of --memory FILE or --database URL")
    }
  }

  /// The PostgreSQL memory, when `--database` was given. One-shot commands ask `pg_trgm` for
  /// fuzzy candidates; a server builds its own index as well (`fuzzyLookup`).
  func postgres(fuzzyLookup: PostgresMemory.FuzzyLookup = .databaseOnly) throws -> PostgresMemory? {
    guard let database else { return nil }
    let address = try PostgresAddress.parse(
      database, environment: ProcessInfo.processInfo.environment
    ).get()
    return PostgresMemory(address: address, fuzzyLookup: fuzzyLookup)
  }

  /// What messages call the memory (an address without its password).
  var name: String {
    if let database {
      return (try? PostgresAddress.parse(database).get().description) ?? database
    }
    return memory ?? ""
  }

  /// `body` with the memory for lookups, the file's held in memory with `preload`; a
  /// database's connection pool runs for as long as `body` does.
  func withMemory<Result: Sendable>(
    preload: Bool = false, _ body: (TranslationMemory) async throws -> Result
  ) async throws -> Result {
    if let postgres = try postgres() {
      return try await postgres.running { try await body($0.open()) }
    }
    return try await body(TranslationMemory(path: memory ?? "", preload: preload))
  }
}
