import HTTPTypes
import Hummingbird

/// The server's endpoints: the one route table. The router is built from it, and the event
/// loop's ``CachedAnswerHandler`` reads it to know which requests it may answer.
enum Endpoint: CaseIterable, Sendable {
  case health, languages, lookup, translate, detect, search, matches, exportTMX, review, page

  var method: HTTPRequest.Method {
    switch self {
    case .translate, .detect, .review: .post
    default: .get
    }
  }

  var path: String {
    switch self {
    case .health: "/health"
    case .languages: "/languages"
    case .lookup: "/lookup"
    case .translate: "/translate"
    case .detect: "/detect"
    case .search: "/search"
    case .matches: "/matches"
    case .exportTMX: "/export.tmx"
    case .review: "/review"
    case .page: "/"
    }
  }

  /// Whether the event loop answers it when the caches hold the answer (or the request is
  /// bad): the two endpoints clients call in bulk.
  var isAnsweredFromCache: Bool { self == .lookup || self == .translate }

  /// The endpoint a request's method and path (its query left out) name, if any.
  init?(method: HTTPRequest.Method, path: Substring) {
    guard let found = Self.allCases.first(where: { $0.method == method && $0.path == path })
    else { return nil }
    self = found
  }
}

extension Handlers {
  /// The routed answer to a request for `endpoint`.
  func answer(_ endpoint: Endpoint, _ request: Request) async -> Response {
    switch endpoint {
    case .health: health()
    case .languages: languages()
    case .lookup: await lookup(request)
    case .translate: await translate(request)
    case .detect: await detect(request)
    case .search: await search(request)
    case .matches: await matches(request)
    case .exportTMX: await exportTMX(request)
    case .review: await review(request)
    case .page: page()
    }
  }
}
