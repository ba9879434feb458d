import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import BundleKitTranslationPostgres
import _BundleKitCommandLineTool

/// `bundlekit translate migrate --memory TM_FILE`.
struct TranslateMigrate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Bring a translation memory made by an older version to the current schema.",
    discussion: """
      Runs the schema's versioned migrations in place, in one transaction: a failure or a \
      kill leaves the memory as it was. A memory made by a newer version is refused. \
      Lookups and the server read older schemas as they are; `import` migrates by itself.
      """
  )

  @OptionGroup var location: MemoryLocation

  func run() async throws {
    let memory = location.name
    let (old, current): (Int, Int)
    if let postgres = try location.postgres() {
      (old, current) = (
        try await postgres.running { try await $0.migrate() }, PostgresMemory.currentSchema
      )
    } else {
      (old, current) = (
        try MemoryExchange.migrate(memory: location.memory ?? ""), MemoryExchange.currentSchema
      )
    }
    StandardStreams.printLine(
      old == current
        ? "\(memory): schema \(old), nothing to do" : "\(memory): schema \(old) -> \(current)")
  }
}
