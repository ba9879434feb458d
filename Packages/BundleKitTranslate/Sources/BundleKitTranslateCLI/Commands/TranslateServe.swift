import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import BundleKitTranslationServer
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit translate serve --memory TM_FILE [--host 127.0.0.1] [--port 5000]`.
struct TranslateServe: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve a translation memory over a LibreTranslate-compatible HTTP API.",
    discussion: """
      Endpoints: POST /translate, GET /languages, POST /detect (LibreTranslate's), plus \
      GET /lookup?key=&table=&lang= and GET /health; for translators, a page at / over \
      GET /search, GET /matches, GET /export.tmx and (with --database and an API key from \
      `keys create`) POST /review. Binds loopback unless --host says otherwise; --port 0 \
      picks a free port. The first line on standard output is the URL.
      """
  )

  @OptionGroup var location: MemoryLocation

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port (0: any free one).")
  var port = 5000

  @Option(help: "The largest request body, in bytes.")
  var maximumBodySize = 1 << 20

  @Option(help: "The most texts one request may carry.")
  var maximumBatchSize = 128

  @Option(help: "The most requests one client address may make per minute (429 beyond).")
  var rateLimit: Int?

  @Option(help: "The most reviews one API key may send per minute (429 beyond).")
  var reviewsPerMinute = 120

  @Flag(
    help: ArgumentHelp(
      "With --database: ask pg_trgm for every fuzzy lookup.",
      discussion:
        "By default a server also builds its own index of a language's texts in the background after its first fuzzy lookup (again after each write), and answers from it once built: the same answers, far faster at scale, for memory."
    ))
  var fuzzyFromDatabase = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
    guard maximumBodySize > 0, maximumBatchSize > 0, (rateLimit ?? 1) > 0, reviewsPerMinute > 0
    else {
      throw ValidationError("the limits must be positive")
    }
  }

  func run() async throws {
    let postgres = try location.postgres(
      fuzzyLookup: fuzzyFromDatabase ? .databaseOnly : .replicaIndex)
    var configuration = TranslationServer.Configuration()
    configuration.host = host
    configuration.port = port
    configuration.maximumBodySize = maximumBodySize
    configuration.maximumBatchSize = maximumBatchSize
    configuration.requestsPerMinute = rateLimit
    configuration.reviewsPerMinutePerKey = reviewsPerMinute
    let (host, settings) = (host, configuration)
    let serve = { @Sendable (memory: TranslationMemory) async throws in
      try await TranslationServer(
        memory: memory, configuration: settings, source: postgres, reviewer: postgres
      )
      .run { port in
        StandardStreams.printLine(TranslationServer.url(host: host, port: port))
      }
    }
    do {
      // The database's connection pool runs while the server does, and stops after it.
      if let postgres {
        try await postgres.running { try await serve($0.open()) }
      } else {
        try await serve(TranslationMemory(path: location.memory ?? "", preload: true))
      }
    } catch {
      // NIO's text ("bind(descriptor:ptr:bytes:): Address already in use (errno: 98)") says
      // what failed, not what to do.
      let text = "\(error)"
      if text.contains("errno: \(EADDRINUSE)") || text.contains("Address already in use") {
        throw TranslationError.listen(
          host: host, port: port, message: "port \(port) is in use; pass --port 0 for a free one")
      }
      if text.contains("errno: \(EACCES)") || text.contains("Permission denied") {
        throw TranslationError.listen(
          host: host, port: port,
          message: "port \(port) needs privileges to listen on; use a port above 1023, or --port 0")
      }
      throw error
    }
  }
}
