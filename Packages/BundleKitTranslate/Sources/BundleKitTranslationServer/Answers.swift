import BundleKitTranslation
import Foundation

/// The server's answers: `Encodable` values, written by one encoder.
enum ServerJSON {
  /// `value` as JSON text. Keys are sorted, so an answer's bytes are the same on every run
  /// (the encoder's own order follows a seeded hash); slashes are left as they are.
  static func text(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Only a real that is not finite fails, and no answer holds one.
    guard let data = try? encoder.encode(value) else {
      return #"{"error":"Internal error; the answer could not be written"}"#
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// `{"error": ...}`: every failed request.
struct ErrorAnswer: Encodable {
  var error: String
}

/// `GET /health`.
struct HealthAnswer: Encodable {
  var status = "ok"
  var languages: Int
  var fuzzyIndexes: [String]
}

/// One entry of `GET /languages`, LibreTranslate's shape.
struct LanguageAnswer: Encodable {
  var code: String
  var name: String
  var targets: [String]
}

/// A language `POST /detect` found (or `/translate` detected), LibreTranslate's shape: the
/// confidence in percent.
struct DetectedAnswer: Encodable {
  var confidence: Int
  var language: String

  init(_ detection: TranslationMemory.DetectedLanguage?, developmentLanguage: String) {
    confidence = Int(((detection?.confidence ?? 0) * 100).rounded())
    language = detection?.language ?? developmentLanguage
  }
}

/// `POST /translate`, LibreTranslate's shape: one text (`Text` a string) or a batch (`Text`
/// an array of strings, `Detected` an array); members that were not asked for are left out.
struct TranslateAnswer<Text: Encodable, Detected: Encodable>: Encodable {
  var translatedText: Text
  var alternatives: [Text]?
  var detectedLanguage: Detected?
}

/// A record as the page, `/lookup`, `/search` and `/matches` show it; a missing comment or
/// source is `null`.
struct RecordAnswer: Encodable {
  var record: TranslationRecord

  init(_ record: TranslationRecord) { self.record = record }

  private enum Key: String, CodingKey {
    case project, bundle, table, key, variant, language, value, comment, source, state
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(record.project, forKey: .project)
    try container.encode(record.bundle, forKey: .bundle)
    try container.encode(record.table, forKey: .table)
    try container.encode(record.key, forKey: .key)
    try container.encode(record.variant, forKey: .variant)
    try container.encode(record.language, forKey: .language)
    try container.encode(record.value, forKey: .value)
    try container.encode(record.comment, forKey: .comment)
    try container.encode(record.source, forKey: .source)
    try container.encode(record.state.rawValue, forKey: .state)
  }
}

/// `GET /lookup`.
struct LookupAnswer: Encodable {
  var key: String
  var translations: [RecordAnswer]
}

/// `GET /search`.
struct SearchAnswer: Encodable {
  var results: [RecordAnswer]
}

/// `POST /review`: the entry as it is now, or that it was removed.
struct ReviewAnswer: Encodable {
  var record: RecordAnswer?
  var removed: Bool?
}

/// One match of `GET /matches`.
struct MatchAnswer: Encodable {
  var translation: String
  var language: String
  var matchedText: String
  var kind: String
  var score: Double
  var occurrences: Int
  var record: RecordAnswer
}

/// `GET /matches`.
struct MatchesAnswer: Encodable {
  var matches: [MatchAnswer]
}
