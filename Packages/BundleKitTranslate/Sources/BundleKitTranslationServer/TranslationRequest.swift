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
  /// content type means to LibreTranslate's clients such as curl -d). Linear in the body's
  /// size; a form field repeated more than `maximumValues` times (a batch over the limit)
  /// stops the parse there.
  init(body: [UInt8], contentType: String?, maximumValues: Int = .max) throws(Malformed) {
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
      if let texts = object["q"] as? [Any], texts.count > maximumValues {
        throw Malformed(
          message:
            "Invalid request: request (\(texts.count)) exceeds batch limit (\(maximumValues))")
      }
      values = object
    } else {
      values = try Self.form(body, maximumValues: maximumValues)
    }
  }

  /// Parameters from a URL query.
  init(query: [String: String]) { values = query }

  /// The most distinct fields a form may have: LibreTranslate's requests have six.
  static let maximumFields = 64

  private static func form(_ body: [UInt8], maximumValues: Int) throws(Malformed)
    -> [String: Any]
  {
    // Values are gathered per name and turned into the result once: appending to a value
    // stored as `Any` copied every batch so far (quadratic in repeated `q` fields).
    var gathered: [String: [String]] = [:]
    var order: [String] = []
    var start = 0
    while start <= body.count {
      let end = body[start...].firstIndex(of: UInt8(ascii: "&")) ?? body.count
      defer { start = end + 1 }
      guard end > start else { continue }
      let pair = body[start..<end]
      let equals = pair.firstIndex(of: UInt8(ascii: "="))
      let name = decode(pair[..<(equals ?? end)])
      let value = equals.map { decode(pair[($0 + 1)...]) } ?? ""
      if gathered[name] == nil {
        guard order.count < maximumFields else {
          throw Malformed(message: "Invalid request: more than \(maximumFields) form fields")
        }
        order.append(name)
      }
      gathered[name, default: []].append(value)
      // Repeated `q` fields make a batch, as in LibreTranslate's form handling.
      if let count = gathered[name]?.count, count > maximumValues {
        throw Malformed(
          message: "Invalid request: request (\(count)+) exceeds batch limit (\(maximumValues))")
      }
    }
    var result: [String: Any] = [:]
    for (name, values) in gathered {
      result[name] = values.count == 1 ? values[0] : values
    }
    return result
  }

  /// A form field's text: `+` is a space, `%XX` a byte; a bad escape stays as it is.
  private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case 0x30...0x39: byte - 0x30
      case 0x41...0x46: byte - 0x41 + 10
      case 0x61...0x66: byte - 0x61 + 10
      default: nil
      }
    }
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "+") {
        output.append(0x20)
      } else if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
        let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
        continue
      } else {
        output.append(byte)
      }
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
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
