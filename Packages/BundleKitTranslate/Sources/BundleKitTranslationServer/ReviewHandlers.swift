import Atomics
import BundleKitTranslation
import Foundation
import HTTPTypes
import Hummingbird

/// The translators' endpoints: concordance search, TMX export and reviews. Reads are open;
/// a review needs an API key with the write scope for the entry's project, checked against
/// the memory at every request, so a revoked key is refused at once.
extension Handlers {
  /// `GET /search?q=&project=&lang=&state=&limit=`: translations containing `q`.
  func search(_ request: Request) async -> Response {
    let memory = served.current.memory
    func parameter(_ name: String) -> String? { Self.query(request, name) }
    var state: ReviewState?
    if let name = parameter("state") {
      guard let known = ReviewState(rawValue: name) else {
        return Self.error("Invalid request: state must be translated, needs_review or approved")
      }
      state = known
    }
    let limit = min(max(Int(parameter("limit") ?? "") ?? 50, 1), 500)
    if let language = parameter("lang"), LanguageTag.normalize(language) == nil {
      return Self.error("\(language) is not a language code")
    }
    do {
      let records = try await memory.search(
        containing: parameter("q") ?? "", project: parameter("project"),
        language: parameter("lang"), state: state, limit: limit)
      return Self.json(ServerJSON.text(SearchAnswer(results: records.map(RecordAnswer.init))))
    } catch {
      return Self.failure(error)
    }
  }

  /// `GET /export.tmx?project=`: the memory (or one project) as TMX 1.4b.
  func exportTMX(_ request: Request) async -> Response {
    // One export at a time: the document is built whole, and a memory of a million entries
    // makes hundreds of megabytes; any reader may ask.
    guard
      served.exporting.compareExchange(expected: false, desired: true, ordering: .acquiring)
        .exchanged
    else {
      var response = Self.error(
        "Another export is running; try again shortly", status: .serviceUnavailable)
      response.headers[.retryAfter] = "5"
      return response
    }
    defer { served.exporting.store(false, ordering: .releasing) }
    let memory = served.current.memory
    let project = Self.query(request, "project")
    // The file name from the project's letters and digits only: a header is no place for
    // quotes or line breaks from a query.
    let name = String(
      (project ?? "memory").unicodeScalars.map {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
          ? Character($0) : "_"
      })
    do {
      let records = try await memory.search(containing: "", project: project, limit: .max)
      let bytes = TMXDocument.write(
        records, sourceLanguage: memory.developmentLanguage, toolVersion: "bundlekit-translate")
      return Response(
        status: .ok,
        headers: [
          .contentType: "application/x-tmx+xml",
          .contentDisposition: #"attachment; filename="\#(name).tmx""#,
        ],
        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    } catch {
      return Self.failure(error)
    }
  }

  /// `POST /review`: approve, reject or edit one translation. JSON or form fields `project`,
  /// `bundle`, `table`, `key`, `variant`, `language`, `action` (`approve`, `reject`, `edit`)
  /// and `value` (for `edit`); the key as `api_key` or `Authorization: Bearer`.
  func review(_ request: Request) async -> Response {
    guard let reviewer else {
      return Self.error(
        "This server's memory takes no reviews: only a PostgreSQL memory does",
        status: .methodNotAllowed)
    }
    let parameters: RequestParameters
    switch await self.parameters(request) {
    case .parameters(let parsed): parameters = parsed
    case .failed(let response): return response
    }
    let bearer = request.headers[.authorization].flatMap { header -> String? in
      header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : nil
    }
    guard let key = bearer ?? parameters.string("api_key") else {
      return Self.error(
        "An API key is required (api_key, or Authorization: Bearer)", status: .unauthorized)
    }
    let grant: KeyGrant?
    do {
      grant = try await reviewer.grant(forKey: key)
    } catch {
      return Self.failure(error)
    }
    guard let grant else {
      return Self.error("Invalid API key (unknown or revoked)", status: .unauthorized)
    }
    if let wait = keyLimiter.admit(grant.id) {
      var response = Self.error(
        "Too many requests for this key: retry after \(wait) s", status: .tooManyRequests)
      response.headers[.retryAfter] = String(wait)
      return response
    }
    let project = parameters.string("project") ?? ""
    guard grant.scope == .write else {
      return Self.error("This API key may only read", status: .forbidden)
    }
    guard grant.project == project else {
      return Self.error(
        "This API key may not write to project '\(project)'", status: .forbidden)
    }
    let action: ReviewAction
    switch parameters.string("action") {
    case "approve": action = .approve
    case "reject": action = .reject
    case "edit":
      guard let value = parameters.string("value") else {
        return Self.error("Invalid request: edit needs a value")
      }
      action = .edit(value)
    default:
      return Self.error("Invalid request: action must be approve, reject or edit")
    }
    guard let table = parameters.string("table"), let entryKey = parameters.string("key"),
      let language = parameters.string("language")
    else {
      return Self.error("Invalid request: table, key and language are required")
    }
    let change = ReviewChange(
      project: project, bundle: parameters.string("bundle") ?? "", table: table, key: entryKey,
      variant: parameters.string("variant") ?? "", language: language, action: action)
    let outcome: ReviewOutcome
    do {
      outcome = try await reviewer.review(change)
      // This server answers with the change from its next request; the others within their
      // refresh interval.
      if let source, let memory = try? await source.open() { served.replace(with: memory) }
    } catch {
      return Self.failure(error)
    }
    switch outcome {
    case .notFound:
      return Self.error("No such translation", status: .notFound)
    case .removed:
      return Self.json(ServerJSON.text(ReviewAnswer(removed: true)))
    case .updated(let record):
      return Self.json(ServerJSON.text(ReviewAnswer(record: RecordAnswer(record))))
    }
  }

  /// `GET /matches?q=&target=&source=&project=`: translations of `q`, fuzzy ones included,
  /// with their scores.
  func matches(_ request: Request) async -> Response {
    let memory = served.current.memory
    func parameter(_ name: String) -> String? { Self.query(request, name) }
    guard let text = parameter("q"), let target = parameter("target") else {
      return Self.error("Invalid request: q and target are required")
    }
    guard memory.supportedLanguage(target) != nil else {
      return Self.error("\(target) is not supported")
    }
    if let source = parameter("source"), LanguageTag.normalize(source) == nil {
      return Self.error("\(source) is not a language code")
    }
    do {
      let found = try await memory.matches(
        for: text, to: target, from: parameter("source"), fuzzy: true, limit: 10,
        project: parameter("project"))
      let items = found.map { match in
        MatchAnswer(
          translation: match.translation, language: match.language,
          matchedText: match.matchedText, kind: "\(match.kind)", score: match.score,
          occurrences: match.occurrences, record: RecordAnswer(match.record))
      }
      return Self.json(ServerJSON.text(MatchesAnswer(matches: items)))
    } catch {
      return Self.failure(error)
    }
  }

  /// A query parameter as a browser's form encodes it (`+` a space); empty counts as
  /// missing.
  static func query(_ request: Request, _ name: String) -> String? {
    FormQuery(request.uri)[name]
  }

  /// `GET /`: the translators' page.
  func page() -> Response {
    Response(
      status: .ok,
      headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
      body: .init(byteBuffer: ByteBuffer(string: ReviewPage.html)))
  }
}
