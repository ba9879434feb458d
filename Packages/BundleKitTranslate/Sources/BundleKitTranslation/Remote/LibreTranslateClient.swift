import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client of the LibreTranslate HTTP API (`POST /translate`, `GET /languages`), for text
/// the memory lacks: BundleKit's own server or any LibreTranslate instance.
///
/// Each request has a timeout; 429 and 5xx answers and network failures are retried with
/// exponential backoff (honouring `Retry-After`); answers are cached, so a text is asked for
/// once per language pair.
public final class LibreTranslateClient: Sendable {
  /// How the client talks to the server.
  public struct Configuration: Sendable {
    /// The server's base URL, such as `http://127.0.0.1:5000`.
    public var baseURL: URL
    /// The API key, for servers that want one.
    public var apiKey: String?
    /// How long one attempt may take, in seconds.
    public var timeout: TimeInterval = 10
    /// Attempts per request, the first included.
    public var maximumAttempts: Int = 3
    /// The wait before the first retry, in seconds; doubled for each further one.
    public var initialBackoff: TimeInterval = 0.25
    /// The longest wait between attempts, in seconds.
    public var maximumBackoff: TimeInterval = 8
    /// Texts kept in the cache; the oldest go first.
    public var cacheCapacity: Int = 10_000

    /// A configuration for the server at `baseURL`.
    public init(baseURL: URL, apiKey: String? = nil) {
      self.baseURL = baseURL
      self.apiKey = apiKey
    }
  }

  /// A language the server offers, with the languages it translates into.
  public struct Language: Sendable, Hashable, Codable {
    /// The code (`de`).
    public var code: String
    /// The English name.
    public var name: String
    /// The codes it translates into.
    public var targets: [String]?
  }

  /// The configuration in use.
  public let configuration: Configuration
  private let session: URLSession
  private let cache: TranslationCache

  /// A client for the server the configuration names.
  public init(configuration: Configuration) {
    self.configuration = configuration
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    // The client keeps time itself (see `fetch`): FoundationNetworking on Linux rounds
    // timeouts down to whole seconds, so 0.5 s would mean none. The session's own limit is
    // only a backstop.
    let backstop = configuration.timeout.rounded(.up) + 1
    sessionConfiguration.timeoutIntervalForRequest = backstop
    sessionConfiguration.timeoutIntervalForResource = backstop
    session = URLSession(configuration: sessionConfiguration)
    cache = TranslationCache(capacity: configuration.cacheCapacity)
  }

  /// Translates each text from `source` (`auto` lets the server detect it) into `target`,
  /// asking only for texts not in the cache, in one request.
  public func translate(_ texts: [String], from source: String = "auto", to target: String)
    async throws -> [String]
  {
    var results = texts.map { cache.value(source: source, target: target, text: $0) }
    let missing = texts.indices.filter { results[$0] == nil }
    guard !missing.isEmpty else { return results.map { $0 ?? "" } }
    let body = TranslateBody(
      q: missing.map { texts[$0] }, source: source, target: target, apiKey: configuration.apiKey)
    let answer = try await send(path: "translate", body: body)
    let translated: [String]
    do {
      translated = try Self.decoder.decode(TranslateAnswer.self, from: answer).translatedText.texts
    } catch {
      throw TranslationError.remote(
        url: url("translate"), message: "no \"translatedText\" in the answer: \(error)")
    }
    guard translated.count == missing.count else {
      throw TranslationError.remote(
        url: url("translate"),
        message: "asked for \(missing.count) translations, got \(translated.count)")
    }
    for (index, text) in zip(missing, translated) {
      results[index] = text
      cache.store(text, source: source, target: target, text: texts[index])
    }
    return results.map { $0 ?? "" }
  }

  /// Translates one text.
  public func translate(_ text: String, from source: String = "auto", to target: String)
    async throws -> String
  {
    try await translate([text], from: source, to: target).first ?? text
  }

  /// The languages the server offers.
  public func languages() async throws -> [Language] {
    let answer = try await send(path: "languages", body: Optional<TranslateBody>.none)
    do {
      return try Self.decoder.decode([Language].self, from: answer)
    } catch {
      throw TranslationError.remote(url: url("languages"), message: "unexpected answer: \(error)")
    }
  }

  private func url(_ path: String) -> String {
    configuration.baseURL.appendingPathComponent(path).absoluteString
  }

  /// One attempt, abandoned after `configuration.timeout` seconds.
  private func fetch(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let session = session
    let timeout = configuration.timeout
    return try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
      group.addTask { try await session.data(for: request) }
      group.addTask {
        try await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let answer = first else {
        throw URLError(.timedOut)
      }
      return answer
    }
  }

  /// One request (a `POST` of `body` as JSON, else a `GET`), retried on 429, 5xx and
  /// network failures; the answer's bytes, JSON.
  private func send(path: String, body: (some Encodable)?) async throws -> Data {
    var request = URLRequest(url: configuration.baseURL.appendingPathComponent(path))
    request.timeoutInterval = configuration.timeout.rounded(.up) + 1
    if let body {
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = try JSONEncoder().encode(body)
    }
    let address = url(path)
    var delay = configuration.initialBackoff
    var lastFailure = "no attempt made"
    for attempt in 1...max(configuration.maximumAttempts, 1) {
      if attempt > 1 {
        try await Task.sleep(nanoseconds: UInt64(min(delay, configuration.maximumBackoff) * 1e9))
        delay *= 2
      }
      let data: Data
      let response: URLResponse
      do {
        (data, response) = try await fetch(request)
      } catch let error as URLError {
        lastFailure =
          error.code == .timedOut
          ? "no answer within \(configuration.timeout) s" : error.localizedDescription
        continue
      }
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      let message = (try? Self.decoder.decode(ErrorAnswer.self, from: data))?.error
      switch status {
      case 200..<300:
        return data
      case 429, 500..<600:
        lastFailure = "HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        // The server knows best how long to wait.
        if let retryAfter = (response as? HTTPURLResponse)?.value(
          forHTTPHeaderField: "Retry-After"),
          let seconds = TimeInterval(retryAfter)
        {
          delay = max(delay, seconds)
        }
      default:
        throw TranslationError.remote(
          url: address, message: "HTTP \(status)" + (message.map { ": \($0)" } ?? ""))
      }
    }
    throw TranslationError.remote(
      url: address, message: "\(lastFailure) (after \(configuration.maximumAttempts) attempts)")
  }
}

extension LibreTranslateClient {
  /// The one decoder of answers.
  fileprivate static let decoder = JSONDecoder()

  /// `POST /translate`'s body, as LibreTranslate takes it.
  fileprivate struct TranslateBody: Encodable {
    var q: [String]
    var source: String
    var target: String
    var format = "text"
    var apiKey: String?

    init(q: [String], source: String, target: String, apiKey: String?) {
      self.q = q
      self.source = source
      self.target = target
      self.apiKey = apiKey
    }

    enum CodingKeys: String, CodingKey {
      case q, source, target, format
      case apiKey = "api_key"
    }
  }

  /// `POST /translate`'s answer: one text, or a batch for a batch.
  fileprivate struct TranslateAnswer: Decodable {
    var translatedText: Texts

    enum Texts: Decodable {
      case single(String)
      case batch([String])

      init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let single = try? value.decode(String.self) {
          self = .single(single)
        } else {
          self = .batch(try value.decode([String].self))
        }
      }

      var texts: [String] {
        switch self {
        case .single(let text): [text]
        case .batch(let texts): texts
        }
      }
    }
  }

  /// An answer that failed: `{"error": "..."}`.
  fileprivate struct ErrorAnswer: Decodable {
    var error: String?
  }
}

/// Translations already fetched, by language pair and text; the oldest leave first.
final class TranslationCache: @unchecked Sendable {
  private struct Key: Hashable {
    var source: String
    var target: String
    var text: String
  }
  private var values: [Key: String] = [:]
  private var order: [Key] = []
  private var head = 0
  private let capacity: Int
  private let lock = NSLock()

  init(capacity: Int) { self.capacity = max(capacity, 0) }

  func value(source: String, target: String, text: String) -> String? {
    lock.withLock { values[Key(source: source, target: target, text: text)] }
  }

  func store(_ value: String, source: String, target: String, text: String) {
    guard capacity > 0 else { return }
    let key = Key(source: source, target: target, text: text)
    lock.withLock {
      if values.updateValue(value, forKey: key) != nil { return }
      order.append(key)
      if values.count > capacity {
        values[order[head]] = nil
        head += 1
        // Drop the evicted prefix now and then, not on every store.
        if head > capacity {
          order.removeFirst(head)
          head = 0
        }
      }
    }
  }
}
