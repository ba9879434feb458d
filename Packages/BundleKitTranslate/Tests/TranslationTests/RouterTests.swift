import BundleKitTranslation
import BundleKitTranslationServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The handlers behind the router, through Hummingbird's test client: no socket, no port,
/// no event-loop cache in front (the real-socket tests in `ServerTests` cover that road).
/// Answers are read back through `Decodable` types, as a client would.
@Suite("Translation server handlers through the router", .offThePool)
struct RouterTests {
  let fixture: MemoryFixture
  let server: TranslationServer

  init() throws {
    fixture = try MemoryFixture()
    var configuration = TranslationServer.Configuration()
    configuration.maximumBatchSize = 3
    configuration.maximumBodySize = 4096
    server = TranslationServer(
      memory: try TranslationMemory(path: fixture.memoryPath, preload: true),
      configuration: configuration)
  }

  struct Failure: Decodable { var error: String }
  struct Translated: Decodable { var translatedText: String }
  struct Batch: Decodable { var translatedText: [String] }
  struct Detected: Decodable {
    var language: String
    var confidence: Double
  }

  /// A request's headers: its content type, if any (the test client's authority is
  /// `localhost`, which the loopback server's gate accepts).
  static func headers(_ type: String? = "application/json") -> HTTPFields {
    var fields = HTTPFields()
    if let type { fields[.contentType] = type }
    return fields
  }

  @Test("every bad translate request gets its own message, form bodies as JSON ones")
  func badRequests() async throws {
    let cases: [(String, String, String?, HTTPResponse.Status, String)] = [
      (
        "missing q", #"{"source": "en", "target": "de"}"#, "application/json", .badRequest,
        "Invalid request: missing q parameter"
      ),
      (
        "missing q, form", "source=en&target=de", "application/x-www-form-urlencoded",
        .badRequest, "Invalid request: missing q parameter"
      ),
      (
        "empty q", #"{"q": "", "source": "en", "target": "de"}"#, "application/json",
        .badRequest, "Invalid request: missing q parameter"
      ),
      (
        "missing source", #"{"q": "Cancel", "target": "de"}"#, "application/json", .badRequest,
        "Invalid request: missing source parameter"
      ),
      (
        "malformed JSON", #"{"q": "Cancel", "#, "application/json", .badRequest,
        "Invalid request: the body is not valid JSON"
      ),
      (
        "not an object", "[1, 2]", "application/json", .badRequest,
        "Invalid request: the body must be a JSON object"
      ),
      (
        "q of numbers", #"{"q": [1, 2], "source": "en", "target": "de"}"#, "application/json",
        .badRequest, "Invalid request: q must hold strings"
      ),
      (
        "q an object", #"{"q": {"a": 1}, "source": "en", "target": "de"}"#, "application/json",
        .badRequest, "Invalid request: q must be a string or an array of strings"
      ),
      (
        "alternatives a word",
        #"{"q": "Cancel", "source": "en", "target": "de", "alternatives": "two"}"#,
        "application/json", .badRequest, "Invalid request: alternatives must be a whole number"
      ),
      (
        "alternatives a fraction",
        #"{"q": "Cancel", "source": "en", "target": "de", "alternatives": 1.5}"#,
        "application/json", .badRequest, "Invalid request: alternatives must be a whole number"
      ),
      (
        "batch too large", #"{"q": ["a", "b", "c", "d"], "source": "en", "target": "de"}"#,
        "application/json", .badRequest, "Invalid request: request (4) exceeds batch limit (3)"
      ),
      (
        "batch too large, form", "q=a&q=b&q=c&q=d&source=en&target=de", nil, .badRequest,
        "Invalid request: request (4+) exceeds batch limit (3)"
      ),
      (
        "unsupported target", #"{"q": "Cancel", "source": "en", "target": "ja"}"#,
        "application/json", .badRequest, "ja is not supported"
      ),
      (
        "body too large",
        #"{"q": ""# + String(repeating: "x", count: 5000) + #"", "source": "en", "target": "de"}"#,
        "application/json", .contentTooLarge, "Invalid request: the body is larger than 4096 bytes"
      ),
    ]
    let app = server.makeApplication()
    try await app.test(.router) { client in
      for (name, body, type, status, message) in cases {
        try await client.execute(
          uri: "/translate", method: .post, headers: Self.headers(type),
          body: ByteBuffer(string: body)
        ) { response in
          #expect(response.status == status, "\(name)")
          let failure = try? JSONDecoder().decode(Failure.self, from: Data(buffer: response.body))
          #expect(failure?.error == message, "\(name): \(String(buffer: response.body))")
        }
      }
    }
  }

  @Test("good requests: one text, a batch, a form, an alternative, detection and lookup")
  func answers() async throws {
    let app = server.makeApplication()
    try await app.test(.router) { client in
      try await client.execute(
        uri: "/translate", method: .post, headers: Self.headers(),
        body: ByteBuffer(string: #"{"q": "Cancel", "source": "en", "target": "de"}"#)
      ) { response in
        #expect(response.status == .ok)
        let answer = try JSONDecoder().decode(Translated.self, from: Data(buffer: response.body))
        #expect(answer.translatedText == "Abbrechen")
      }
      try await client.execute(
        uri: "/translate", method: .post, headers: Self.headers(),
        body: ByteBuffer(
          string: #"{"q": ["Settings", "Nobody wrote this"], "source": "en", "target": "pt_BR"}"#)
      ) { response in
        let answer = try JSONDecoder().decode(Batch.self, from: Data(buffer: response.body))
        #expect(answer.translatedText == ["Ajustes", "Nobody wrote this"])
      }
      try await client.execute(
        uri: "/translate", method: .post, headers: Self.headers(nil),
        body: ByteBuffer(string: "q=Delete&source=en&target=fr&alternatives=2")
      ) { response in
        let answer = try JSONDecoder().decode(Translated.self, from: Data(buffer: response.body))
        #expect(answer.translatedText == "Supprimer")
      }
      try await client.execute(
        uri: "/detect", method: .post, headers: Self.headers(),
        body: ByteBuffer(string: #"{"q": "Einstellungen"}"#)
      ) { response in
        let answer = try JSONDecoder().decode(
          [Detected].self, from: Data(buffer: response.body))
        #expect(answer.first?.language == "de")
      }
      try await client.execute(
        uri: "/lookup?key=nope", method: .get, headers: Self.headers(nil)
      ) { response in
        #expect(response.status == .notFound)
      }
      try await client.execute(
        uri: "/lookup", method: .get, headers: Self.headers(nil)
      ) { response in
        let failure = try JSONDecoder().decode(Failure.self, from: Data(buffer: response.body))
        #expect(failure.error == "Invalid request: missing key parameter")
      }
    }
  }
}
