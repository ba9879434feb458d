import Atomics
import BundleKitTranslation
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A LibreTranslate-compatible HTTP service over a ``TranslationMemory``:
/// `POST /translate`, `GET /languages`, `POST /detect`, plus `GET /lookup` and `GET /health`.
///
/// Texts the memory has no translation for come back unchanged, never empty. Bad requests get
/// LibreTranslate's `{"error": "..."}` with status 400 (413 for a body over the limit), and
/// the server goes on serving.
public struct TranslationServer: Sendable {
  /// Where the server listens and what it accepts.
  public struct Configuration: Sendable {
    /// The address to bind: loopback unless asked otherwise.
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (see `onServerRunning`).
    public var port: Int = 5000
    /// The largest request body accepted, in bytes.
    public var maximumBodySize: Int = 1 << 20
    /// The most texts one `/translate` request may carry.
    public var maximumBatchSize: Int = 128
    /// The longest text accepted, in characters.
    public var maximumTextLength: Int = 10_000
    /// How long a client may take to send a whole request (head and body), in seconds.
    public var requestTimeout: Double = 10
    /// How long a kept-alive connection may wait for its next request, in seconds.
    public var idleTimeout: Double = 30
    /// The most requests one client address may make per minute (nil: no limit); over it,
    /// 429 with `Retry-After`.
    public var requestsPerMinute: Int?
    /// How often, in seconds, a server over a shared memory asks whether it changed.
    public var refreshInterval: Double = 0.25
    /// The most reviews one API key may send per minute; over it, 429 with `Retry-After`.
    public var reviewsPerMinutePerKey: Int = 120

    /// The defaults: 127.0.0.1:5000, 1 MiB bodies, batches of 128.
    public init() {}
  }

  /// The memory answering lookups.
  public let memory: TranslationMemory
  /// The configuration.
  public let configuration: Configuration

  /// Where a changed memory is opened again, for a memory others write (nil: it never
  /// changes while served).
  public let source: (any MemorySource)?
  /// Where reviews go (`POST /review`), checked against API keys; nil: none are taken.
  public let reviewer: (any MemoryReviewing)?
  let served: ServedMemory

  /// A server over `memory`. Open a file memory with `preload: true` for speed. With
  /// `source`, the server watches it and serves the new memory (its caches emptied) within
  /// ``Configuration/refreshInterval`` of any write, by this server or another. With
  /// `reviewer`, `POST /review` takes reviews from holders of its API keys.
  public init(
    memory: TranslationMemory, configuration: Configuration = Configuration(),
    source: (any MemorySource)? = nil, reviewer: (any MemoryReviewing)? = nil
  ) {
    self.memory = memory
    self.configuration = configuration
    self.source = source
    self.reviewer = reviewer
    served = ServedMemory(memory)
  }

  /// The application, ready to `runService()`. `onServerRunning` gets the bound port.
  public func makeApplication(
    logger: Logger = Logger(label: "bundlekit-translate"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let router = Router()
    let gate = RequestGate(listeningOn: configuration.host)
    router.add(middleware: RequestGateMiddleware(gate: gate))
    let handlers = Handlers(
      served: served, configuration: configuration, source: source, reviewer: reviewer,
      keyLimiter: RateLimiter(limit: configuration.reviewsPerMinutePerKey, window: 60))
    let limiter = configuration.requestsPerMinute.map { RateLimiter(limit: $0, window: 60) }
    for endpoint in Endpoint.allCases {
      router.on(RouterPath(endpoint.path), method: endpoint.method) { request, _ in
        await handlers.answer(endpoint, request)
      }
    }
    return Application(
      router: router,
      server: .http1(
        configuration: .init(
          additionalChannelHandlers: [
            RequestDeadlineHandler(
              requestTimeout: Self.amount(configuration.requestTimeout),
              idleTimeout: Self.amount(configuration.idleTimeout))
          ] + (limiter.map { [RateLimitHandler(limiter: $0)] } ?? [])
            + [
              CachedAnswerHandler(
                handlers: handlers, gate: gate, maximumBodySize: configuration.maximumBodySize)
            ],
          // RequestDeadlineHandler times idle connections out: Hummingbird's own timer sees
          // only the requests that reach the router, and would close a connection busy with
          // answers from the cache.
          idleTimeout: nil)),
      configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
      logger: logger)
  }

  private static func amount(_ seconds: Double) -> TimeAmount {
    .nanoseconds(Int64(max(seconds, 0.001) * 1_000_000_000))
  }

  /// The URL of a server listening on `host` and `port` (an IPv6 address in brackets).
  public static func url(host: String, port: Int) -> String {
    let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "http://\(shown):\(port)"
  }

  /// Runs until the process is told to stop (SIGINT or SIGTERM).
  public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws
  {
    var logger = Logger(label: "bundlekit-translate")
    logger.logLevel = .warning
    let application = makeApplication(logger: logger, onServerRunning: onServerRunning)
    guard let source else { return try await application.runService() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await application.runService() }
      group.addTask { await watch(source) }
      defer { group.cancelAll() }
      try await group.next()
    }
  }

  /// Opens the memory again whenever its generation moves; a database that does not
  /// answer is asked again next time (requests meanwhile get 503 from the lookups).
  private func watch(_ source: any MemorySource) async {
    var seen = try? await source.generation()
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(Int(configuration.refreshInterval * 1000)))
      guard let now = try? await source.generation(), now != seen,
        let memory = try? await source.open()
      else { continue }
      seen = now
      served.replace(with: memory)
    }
  }
}

/// A request body read as parameters, or the error response to send instead.
enum ParsedBody {
  case parameters(RequestParameters)
  case failed(Response)
}

/// The memory being served with what is worked out from it once: swapped whole when a
/// shared memory changes, so a request sees one memory and its own cache throughout.
final class ServedMemory: @unchecked Sendable {
  /// One memory and what belongs to it.
  final class Current: Sendable {
    let memory: TranslationMemory
    /// `GET /languages`, computed once.
    let languagesBody: String
    /// Answers already given: clients ask the same texts again and again.
    let cache = AnswerCache<TranslationLookup, [String]>(capacity: 50_000)
    /// `GET /lookup` bodies already given (a PostgreSQL memory would otherwise be asked for
    /// each request; the whole `Current` is replaced when the memory changes).
    let keyCache = AnswerCache<KeyLookup, KeyAnswer>(capacity: 50_000)
    /// Answers by the request's own bytes, for the event loop (``CachedAnswerHandler``): a
    /// repeated request skips parsing its JSON too. Answers depend on nothing but the request
    /// and the memory, and this cache goes with the memory.
    let wireCache = AnswerCache<WireRequest, JSONAnswer>(capacity: 50_000)

    init(_ memory: TranslationMemory) {
      self.memory = memory
      let codes = memory.languages.filter { $0 != "Base" }
      languagesBody = ServerJSON.text(
        codes.map { code in
          LanguageAnswer(code: code, name: LanguageTag.englishName(of: code), targets: codes)
        })
    }
  }

  private let lock = NSLock()
  private var value: Current
  /// Requests ``CachedAnswerHandler`` answered (the tests check that this path is taken).
  let answeredOnEventLoop = ManagedAtomic<Int>(0)
  /// Whether a `GET /export.tmx` is being built (one at a time).
  let exporting = ManagedAtomic<Bool>(false)

  init(_ memory: TranslationMemory) { value = Current(memory) }

  var current: Current { lock.withLock { value } }

  func replace(with memory: TranslationMemory) {
    let next = Current(memory)
    lock.withLock { value = next }
  }
}

/// The endpoints. Every answer is JSON.
struct Handlers: Sendable {
  let served: ServedMemory
  let configuration: TranslationServer.Configuration
  let source: (any MemorySource)?
  let reviewer: (any MemoryReviewing)?
  /// Reviews per API key.
  let keyLimiter: RateLimiter

  /// The answer to a lookup that failed: 503 with `Retry-After` while the database cannot
  /// be reached, else 500 with the reason.
  static func failure(_ error: any Error) -> Response {
    if let transient = error as? any TransientFailure, transient.isTransient {
      var response = json(
        ServerJSON.text(
          ErrorAnswer(error: "The translation memory is unavailable; try again shortly")),
        status: .serviceUnavailable)
      response.headers[.retryAfter] = "1"
      return response
    }
    if let error = error as? TranslationError, case .invalidLanguage = error {
      return Self.error(error.diagnostics.map(\.message).joined(separator: "; "))
    }
    // The reason goes to the log, not to the client: it may name the database, its address
    // or the query.
    FileHandle.standardError.write(Data("bundlekit-translate: internal error: \(error)\n".utf8))
    return Self.error(
      "Internal error; the server's log has the reason", status: .internalServerError)
  }

  static func json(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(string: body)))
  }

  static func error(_ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
    JSONAnswer.error(message, status: status).response
  }

  func health() -> Response {
    let memory = served.current.memory
    return Self.json(
      ServerJSON.text(
        HealthAnswer(
          languages: memory.languages.count, fuzzyIndexes: memory.fuzzyIndexedLanguages)))
  }

  func languages() -> Response { Self.json(served.current.languagesBody) }

  /// Reads the body as parameters, or gives the error response to send.
  func parameters(_ request: Request) async -> ParsedBody {
    let buffer: ByteBuffer
    do {
      buffer = try await request.body.collect(upTo: configuration.maximumBodySize)
    } catch {
      return .failed(
        Self.error(
          "Invalid request: the body is larger than \(configuration.maximumBodySize) bytes",
          status: .contentTooLarge))
    }
    do throws(RequestParameters.Malformed) {
      return .parameters(
        try RequestParameters(
          body: Array(buffer.readableBytesView), contentType: request.headers[.contentType],
          maximumValues: configuration.maximumBatchSize))
    } catch {
      return .failed(Self.error(error.message))
    }
  }

  func translate(_ request: Request) async -> Response {
    let current = served.current
    let parameters: RequestParameters
    switch await self.parameters(request) {
    case .parameters(let value): parameters = value
    case .failed(let response): return response
    }
    let question: TranslateQuestion
    switch translatePlan(parameters, in: current) {
    case .answer(let answer): return answer.response
    case .ask(let asked): question = asked
    }
    var translated: [String] = []
    var others: [[String]] = []
    var detected: [DetectedAnswer] = []
    do {
      for text in question.batch {
        let candidates = try await translations(of: text, for: question, in: current)
        translated.append(candidates.first ?? text)
        others.append(Array(candidates.dropFirst()))
        if question.source == nil {
          let detection = try await current.memory.detectLanguages(of: text).first
          detected.append(
            DetectedAnswer(detection, developmentLanguage: current.memory.developmentLanguage))
        }
      }
    } catch {
      return Self.failure(error)
    }
    return Self.json(question.body(translated: translated, others: others, detected: detected))
  }

  /// A `POST /translate` body answered from the cache alone, or nil when the memory must be
  /// asked (the event loop answers these without a hop into a task).
  func cachedTranslation(body: [UInt8], contentType: String?, in current: ServedMemory.Current)
    -> JSONAnswer?
  {
    let parameters: RequestParameters
    do throws(RequestParameters.Malformed) {
      parameters = try RequestParameters(
        body: body, contentType: contentType, maximumValues: configuration.maximumBatchSize)
    } catch {
      return JSONAnswer.error(error.message)
    }
    switch translatePlan(parameters, in: current) {
    case .answer(let answer): return answer
    case .ask: return nil
    }
  }

  /// A translate request checked: an answer at once (a bad request, or texts all cached),
  /// else the question for the memory.
  private func translatePlan(_ parameters: RequestParameters, in current: ServedMemory.Current)
    -> Plan<TranslateQuestion>
  {
    let memory = current.memory
    let texts: RequestParameters.Texts
    do throws(RequestParameters.Malformed) {
      guard let found = try parameters.texts("q") else {
        return .answer(.error("Invalid request: missing q parameter"))
      }
      texts = found
    } catch {
      return .answer(.error(error.message))
    }
    guard let sourceCode = parameters.string("source") else {
      return .answer(.error("Invalid request: missing source parameter"))
    }
    guard let targetCode = parameters.string("target") else {
      return .answer(.error("Invalid request: missing target parameter"))
    }
    if let format = parameters.string("format"), format != "text", format != "html" {
      return .answer(.error("Invalid request: format must be text or html"))
    }
    let source: String?
    if sourceCode == "auto" {
      source = nil
    } else {
      guard let supported = memory.supportedLanguage(sourceCode) else {
        return .answer(.error("\(sourceCode) is not supported"))
      }
      source = supported
    }
    guard let target = memory.supportedLanguage(targetCode) else {
      return .answer(.error("\(targetCode) is not supported"))
    }
    let alternatives: Int
    do throws(RequestParameters.Malformed) {
      alternatives = min(max(try parameters.integer("alternatives") ?? 0, 0), 10)
    } catch {
      return .answer(.error(error.message))
    }
    let project = parameters.string("project").flatMap { $0.isEmpty ? nil : $0 }
    let batch: [String]
    switch texts {
    case .single(let text): batch = [text]
    case .batch(let items): batch = items
    }
    guard batch.count <= configuration.maximumBatchSize else {
      return .answer(
        .error(
          "Invalid request: request (\(batch.count)) exceeds batch limit "
            + "(\(configuration.maximumBatchSize))"))
    }
    if let long = batch.first(where: { $0.count > configuration.maximumTextLength }) {
      return .answer(
        .error(
          "Invalid request: request (\(long.count)) exceeds text limit "
            + "(\(configuration.maximumTextLength))"))
    }
    let question = TranslateQuestion(
      isBatch: { if case .batch = texts { true } else { false } }(), batch: batch,
      target: target, source: source, count: 1 + alternatives, project: project)
    // Detection is not cached: a request without a source language asks the memory.
    guard source != nil else { return .ask(question) }
    var translated: [String] = []
    var others: [[String]] = []
    for text in batch {
      guard let known = current.cache[question.lookup(of: text)] else { return .ask(question) }
      translated.append(known.first ?? text)
      others.append(Array(known.dropFirst()))
    }
    return .answer(
      JSONAnswer(body: question.body(translated: translated, others: others, detected: [])))
  }

  /// The memory's translation first (or the text itself: never empty for a non-empty text),
  /// then up to `question.count - 1` other translations the memory has for it (LibreTranslate's
  /// `alternatives`).
  private func translations(
    of text: String, for question: TranslateQuestion, in current: ServedMemory.Current
  ) async throws -> [String] {
    let key = question.lookup(of: text)
    if let known = current.cache[key] { return known }
    let matches = try await current.memory.matches(
      for: text, to: question.target, from: question.source, fuzzy: false,
      limit: question.count, project: question.project)
    let found = matches.map(\.translation).filter { !$0.isEmpty }
    let answer = found.isEmpty ? [text] : found
    current.cache[key] = answer
    return answer
  }

  func detect(_ request: Request) async -> Response {
    let parameters: RequestParameters
    switch await self.parameters(request) {
    case .parameters(let value): parameters = value
    case .failed(let response): return response
    }
    guard let text = parameters.string("q") else {
      return Self.error("Invalid request: missing q parameter")
    }
    let memory = served.current.memory
    let found: [TranslationMemory.DetectedLanguage]
    do {
      found = try await memory.detectLanguages(of: text)
    } catch {
      return Self.failure(error)
    }
    // LibreTranslate always answers with at least one entry, and real clients read `[0]`:
    // unknown text is the development language at confidence 0.
    let language = memory.developmentLanguage
    let members =
      found.isEmpty
      ? [DetectedAnswer(nil, developmentLanguage: language)]
      : found.prefix(5).map { DetectedAnswer($0, developmentLanguage: language) }
    return Self.json(ServerJSON.text(members))
  }

  func lookup(_ request: Request) async -> Response {
    let current = served.current
    let lookup: KeyLookup
    switch lookupPlan(request.uri, in: current) {
    case .answer(let answer): return answer.response
    case .ask(let asked): lookup = asked
    }
    let records: [TranslationRecord]
    do {
      records = try await current.memory.records(
        forKey: lookup.key, table: lookup.table, language: lookup.language,
        project: lookup.project)
    } catch {
      return Self.failure(error)
    }
    let body = ServerJSON.text(
      LookupAnswer(key: lookup.key, translations: records.map(RecordAnswer.init)))
    current.keyCache[lookup] = KeyAnswer(body: body, found: !records.isEmpty)
    return Self.json(body, status: records.isEmpty ? .notFound : .ok)
  }

  /// A `GET /lookup` answered from the cache alone (or a bad request), or nil when the memory
  /// must be asked.
  func cachedLookup(_ uri: URI, in current: ServedMemory.Current) -> JSONAnswer? {
    switch lookupPlan(uri, in: current) {
    case .answer(let answer): return answer
    case .ask: return nil
    }
  }

  private func lookupPlan(_ uri: URI, in current: ServedMemory.Current) -> Plan<KeyLookup> {
    let query = FormQuery(uri)
    if let problem = query.problem { return .answer(.error(problem)) }
    guard let key = query["key"] else {
      return .answer(.error("Invalid request: missing key parameter"))
    }
    let table = query["table"]
    let language = query["lang"]
    let project = query["project"]
    if let language, current.memory.supportedLanguage(language) == nil {
      return .answer(.error("\(language) is not supported"))
    }
    let lookup = KeyLookup(key: key, table: table, language: language, project: project)
    if let known = current.keyCache[lookup] {
      return .answer(JSONAnswer(status: known.found ? .ok : .notFound, body: known.body))
    }
    return .ask(lookup)
  }
}

/// What a request comes to once read and checked: an answer at once (a bad request, or one
/// the caches hold), or a question for the memory.
enum Plan<Question> {
  case answer(JSONAnswer)
  case ask(Question)
}

/// A JSON answer: its status and body.
struct JSONAnswer {
  var status: HTTPResponse.Status = .ok
  var body: String

  static func error(_ message: String, status: HTTPResponse.Status = .badRequest) -> JSONAnswer {
    JSONAnswer(status: status, body: ServerJSON.text(ErrorAnswer(error: message)))
  }

  var response: Response { Handlers.json(body, status: status) }
}

/// A `POST /translate` request, checked, for the memory.
struct TranslateQuestion {
  /// Whether `q` was an array (the answer's members are arrays then).
  var isBatch: Bool
  var batch: [String]
  var target: String
  var source: String?
  /// The translation and alternatives wanted.
  var count: Int
  var project: String?

  func lookup(of text: String) -> TranslationLookup {
    TranslationLookup(text: text, target: target, source: source, count: count, project: project)
  }

  /// The answer's body, LibreTranslate's shape.
  func body(translated: [String], others: [[String]], detected: [DetectedAnswer]) -> String {
    if !isBatch {
      return ServerJSON.text(
        TranslateAnswer(
          translatedText: translated[0], alternatives: count > 1 ? others[0] : nil,
          detectedLanguage: detected.first))
    }
    return ServerJSON.text(
      TranslateAnswer(
        translatedText: translated, alternatives: count > 1 ? others : nil,
        detectedLanguage: source == nil ? detected : nil))
  }
}

/// A bounded map of lookups to their answers, shared by every request: emptied when full
/// rather than kept in recency order, which costs a list update per hit.
final class AnswerCache<Key: Hashable, Value>: @unchecked Sendable {
  private let capacity: Int
  private let lock = NSLock()
  private var answers: [Key: Value] = [:]

  init(capacity: Int) { self.capacity = capacity }

  subscript(key: Key) -> Value? {
    get { lock.withLock { answers[key] } }
    set {
      lock.withLock {
        if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
        answers[key] = newValue
      }
    }
  }
}

/// A text's translation as `POST /translate` asks for it.
struct TranslationLookup: Hashable {
  var text: String
  var target: String
  var source: String?
  var count: Int
  var project: String?
}

/// A key's entries as `GET /lookup` asks for them.
struct KeyLookup: Hashable {
  var key: String
  var table: String?
  var language: String?
  var project: String?
}

/// A request as it came: path (with its query), content type and body.
struct WireRequest: Hashable {
  var path: String
  var contentType: String?
  var body: [UInt8]
}

/// A `GET /lookup` answer: its body, and whether anything was found (200, else 404).
struct KeyAnswer {
  var body: String
  var found: Bool
}
