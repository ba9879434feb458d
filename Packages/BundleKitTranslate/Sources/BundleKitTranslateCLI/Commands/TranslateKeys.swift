import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import BundleKitTranslationPostgres
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit translate keys create|revoke|list --database URL`.
struct TranslateKeys: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract: "Manage the API keys a served PostgreSQL memory takes for writes.",
    discussion: """
      Reads stay open; POST /review needs a key with the write scope for the entry's project. \
      Only a SHA-256 digest of each key is stored: `create` prints the key once.
      """,
    subcommands: [Create.self, Revoke.self, List.self]
  )

  /// Where the keys live: only a PostgreSQL memory takes writes through the server.
  struct Database: ParsableArguments {
    @Option(help: "The memory in PostgreSQL: postgres://USER@HOST:PORT/DATABASE.")
    var database: String

    func memory() throws -> PostgresMemory {
      guard let memory = try MemoryLocation(memory: nil, database: database).postgres() else {
        throw ValidationError("--database is required")
      }
      return memory
    }
  }

  struct Create: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make a key for one project and print it (it is not shown again).")

    @OptionGroup var database: Database

    @Option(help: "The project the key may write to.")
    var project: String

    @Option(help: "read or write.")
    var scope: KeyScope = .write

    @Option(help: "A note saying whose key it is.")
    var label = ""

    func run() async throws {
      let (project, scope, label) = (project, scope, label)
      let key = try await database.memory().running {
        try await $0.createKey(project: project, scope: scope, label: label)
      }
      StandardStreams.printLine(key)
    }
  }

  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke a key (by its id or its whole text); refused from its next request.")

    @OptionGroup var database: Database

    @Argument(help: "The key's id (bk_ID_... shows it) or the key itself.")
    var key: String

    func run() async throws {
      let memory = try database.memory()
      let key = key
      guard try await memory.running({ try await $0.revokeKey(key) }) else {
        throw ToolError.invalidValue(
          value: key, kind: "key", reason: "\(memory.address) holds no such key")
      }
      StandardStreams.printLine("\(memory.address): revoked \(key.prefix(15))")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the keys: id, project, scope, label, and whether revoked.")

    @OptionGroup var database: Database

    func run() async throws {
      for key in try await database.memory().running({ try await $0.keys() }) {
        StandardStreams.printLine(
          [key.id, key.project, key.scope.rawValue, key.label, key.revoked ? "revoked" : ""]
            .joined(separator: "\t"))
      }
    }
  }
}

extension KeyScope: ExpressibleByArgument {}
