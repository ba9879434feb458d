import Foundation

/// The parameters of a LibreTranslate request, from a JSON body or an HTML form, as
/// LibreTranslate takes either. A JSON body is decoded (`Decodable`, one `JSONDecoder`); each
/// field is kept as the kind of value it was sent as, and checked when a handler asks for it,
/// so a request missing `q` is told so before it is told its `alternatives` is not a number.
struct RequestParameters: Decodable {
  /// A field as sent.
  enum Field: Decodable {
    case text(String)
    case texts([String])
    case number(Double)
    /// An array with something other than strings in it.
    case mixedArray
    case null
    /// A boolean or an object: no LibreTranslate parameter is either.
    case other

    init(from decoder: any Decoder) throws {
      let value = try decoder.singleValueContainer()
      if value.decodeNil() {
        self = .null
      } else if let text = try? value.decode(String.self) {
        self = .text(text)
      } else if let number = try? value.decode(Double.self) {
        self = .number(number)
      } else if let texts = try? value.decode([String].self) {
        self = .texts(texts)
      } else if (try? decoder.unkeyedContainer()) != nil {
        self = .mixedArray
      } else {
        self = .other
      }
    }
  }

  private var values: [String: Field]

  /// Why a body could not be read.
  struct Malformed: Error {
    var message: String
  }

  /// Any field name: the body's keys are the client's.
  private struct FieldName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let object = try decoder.container(keyedBy: FieldName.self)
    var values: [String: Field] = [:]
    for key in object.allKeys {
      values[key.stringValue] = try object.decode(Field.self, forKey: key)
    }
    self.values = values
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
      do {
        self = try Self.decoder.decode(RequestParameters.self, from: Data(body))
      } catch DecodingError.typeMismatch {
        throw Malformed(message: "Invalid request: the body must be a JSON object")
      } catch {
        throw Malformed(message: "Invalid request: the body is not valid JSON")
      }
      if case .texts(let texts) = values["q"], texts.count > maximumValues {
        throw Malformed(
          message:
            "Invalid request: request (\(texts.count)) exceeds batch limit (\(maximumValues))")
      }
    } else {
      values = try Self.form(body, maximumValues: maximumValues)
    }
  }

  /// The one decoder of request bodies.
  private static let decoder = JSONDecoder()

  /// Parameters from a URL query.
  init(query: [String: String]) { values = query.mapValues(Field.text) }

  /// The most distinct fields a form may have: LibreTranslate's requests have six.
  static let maximumFields = 64

  private static func form(_ body: [UInt8], maximumValues: Int) throws(Malformed)
    -> [String: Field]
  {
    // Values are gathered per name and turned into fields once: appending to a field's
    // array copied every batch so far (quadratic in repeated `q` fields).
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
    return gathered.mapValues { $0.count == 1 ? .text($0[0]) : .texts($0) }
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
    guard case .text(let value) = values[name], !value.isEmpty else { return nil }
    return value
  }

  /// A whole-number parameter (a JSON number or a form's text); nil when missing.
  func integer(_ name: String) throws(Malformed) -> Int? {
    switch values[name] {
    case nil, .null: return nil
    case .text(let text):
      if text.isEmpty { return nil }
      guard let number = Int(text) else {
        throw Malformed(message: "Invalid request: \(name) must be a whole number")
      }
      return number
    case .number(let number):
      guard let exact = Int(exactly: number) else {
        throw Malformed(message: "Invalid request: \(name) must be a whole number")
      }
      return exact
    case .texts, .mixedArray, .other:
      throw Malformed(message: "Invalid request: \(name) must be a whole number")
    }
  }

  /// `q`: one text or a batch.
  enum Texts {
    case single(String)
    case batch([String])
  }

  /// One text or a batch; nil when missing.
  func texts(_ name: String) throws(Malformed) -> Texts? {
    switch values[name] {
    case nil, .null: return nil
    case .text(let text): return text.isEmpty ? nil : .single(text)
    case .texts(let texts): return .batch(texts)
    case .mixedArray: throw Malformed(message: "Invalid request: \(name) must hold strings")
    case .number, .other:
      throw Malformed(message: "Invalid request: \(name) must be a string or an array of strings")
    }
  }
}
