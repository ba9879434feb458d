import ArgumentParser
import CommandLineTool
import Diagnostics
import Translation

/// `bundlekit translate migrate --memory TM_FILE`.
struct TranslateMigrate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Bring a translation memory made by an older version to the current schema.",
    discussion: """
      Runs the schema's versioned migrations in place, in one transaction: a failure or a \
      kill leaves the memory as it was. A memory made by a newer version is refused. \
      Lookups and the server read older schemas as they are; `import` migrates by itself.
      """
  )

  @Option(help: "The memory to migrate.")
  var memory: String

  func run() throws {
    let old = try MemoryExchange.migrate(memory: memory)
    StandardStreams.printLine(
      old == MemoryExchange.currentSchema
        ? "\(memory): schema \(old), nothing to do"
        : "\(memory): schema \(old) -> \(MemoryExchange.currentSchema)")
  }
}
