import Foundation

/// The parameters of a LibreTranslate request, from a JSON body or an HTML form, as
/// LibreTranslate takes either.
struct RequestParameters {
  private var values: [String: Any]

  /// Why a body could not be read.
  struct Malformed: Error {
    var message: String
  }

  /// Parses `body` by its content type: JSON, else form-encoded (which is also what a missing
  /// content type means to LibreTranslate's clients such as curl -d).
  init(body: [UInt8], contentType: String?) throws(Malformed) {
    let type = contentType?.lowercased() ?? ""
    if type.contains("json") || (!type.contains("form") && body.first == UInt8(ascii: "{")) {
      guard !body.isEmpty else {
        values = [:]
        return
      }
      let parsed: Any
      do {
        parsed = try JSONSerialization.jsonObject(with: Data(body))
      } catch {
        throw Malformed(message: "Invalid request: the body is not valid JSON")
      }
      guard let object = parsed as? [String: Any] else {
        throw Malformed(message: "Invalid request: the body must be a JSON object")
      }
      values = object
    } else {
      values = Self.form(body)
    }
  }

  /// Parameters from a URL query.
  init(query: [String: String]) { values = query }

  private static func form(_ body: [UInt8]) -> [String: Any] {
    var result: [String: Any] = [:]
    for pair in body.split(separator: UInt8(ascii: "&")) {
      let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1).map {
        decode(Array($0))
      }
      guard let name = parts.first else { continue }
      let value = parts.count > 1 ? parts[1] : ""
      // Repeated `q` fields make a batch, as in LibreTranslate's form handling.
      if let existing = result[name] {
        result[name] = ((existing as? [String]) ?? [existing as? String ?? ""]) + [value]
      } else {
        result[name] = value
      }
    }
    return result
  }

  private static func decode(_ bytes: [UInt8]) -> String {
    let text = String(
      decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    return text.removingPercentEncoding ?? text
  }

  /// A string parameter; empty strings count as missing.
  func string(_ name: String) -> String? {
    guard let value = values[name] as? String, !value.isEmpty else { return nil }
    return value
  }

  /// A whole-number parameter (a JSON number or a form's text); nil when missing.
  func integer(_ name: String) throws(Malformed) -> Int? {
    switch values[name] {
    case nil, is NSNull: return nil
    case let text as String:
      if text.isEmpty { return nil }
      guard let number = Int(text) else {
        throw Malformed(message: "Invalid request: \(name) must be a whole number")
      }
      return number
    case let number as NSNumber:
      guard let exact = Int(exactly: number.doubleValue) else {
        throw Malformed(message: "Invalid request: \(name) must be a whole number")
      }
      return exact
    default:
      throw Malformed(message: "Invalid request: \(name) must be a whole number")
    }
  }

  /// `q`: one text or a batch. Nil when missing; `.failure` when it is neither.
  enum Texts {
    case single(String)
    case batch([String])
  }

  func texts(_ name: String) throws(Malformed) -> Texts? {
    switch values[name] {
    case nil, is NSNull: return nil
    case let text as String: return text.isEmpty ? nil : .single(text)
    case let array as [Any]:
      var texts: [String] = []
      for item in array {
        guard let text = item as? String else {
          throw Malformed(message: "Invalid request: \(name) must hold strings")
        }
        texts.append(text)
      }
      return .batch(texts)
    default:
      throw Malformed(message: "Invalid request: \(name) must be a string or an array of strings")
    }
  }
}
