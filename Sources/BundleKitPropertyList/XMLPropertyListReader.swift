import BundleKitFileSystem
import BundleKitPropertyListCore
import CBundleKitLibXML2
import Foundation
import OrderedCollections

/// Reads Apple's XML property lists with libxml2's SAX2 parser.
///
/// Safe by construction: no network access, no DTD loading, and no entity other than XML's
/// five predefined ones and character references (CoreFoundation accepts no others either), so
/// neither external entities nor entity expansion bombs can reach us. The tree is built on an
/// explicit stack, so nesting depth cannot overflow the call stack.
enum XMLPropertyListReader {
  /// - Parameter plainFirst: whether a plain document is read by
  ///   ``PlainXMLPropertyListReader`` first (tests compare the two roads).
  static func read(_ bytes: UnsafeRawBufferPointer, plainFirst: Bool = true)
    throws(PropertyListError) -> PropertyListValue
  {
    if plainFirst, let value = PlainXMLPropertyListReader.read(bytes) { return value }
    let box = XMLBuilderBox()
    let unmanaged = Unmanaged.passRetained(box)
    defer { unmanaged.release() }

    var handler = xmlSAXHandler()
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = { context, name, _, _, _, _, _, _, _ in
      guard let context, let name else { return }
      Unmanaged<XMLBuilderBox>.fromOpaque(context).takeUnretainedValue().builder.startElement(name)
    }
    handler.endElementNs = { context, name, _, _ in
      guard let context, let name else { return }
      Unmanaged<XMLBuilderBox>.fromOpaque(context).takeUnretainedValue().builder.endElement(name)
    }
    handler.characters = { context, text, length in
      guard let context, let text else { return }
      Unmanaged<XMLBuilderBox>.fromOpaque(context).takeUnretainedValue()
        .builder.characters(text, Int(length))
    }
    handler.cdataBlock = handler.characters
    handler.reference = { context, name in
      guard let context else { return }
      let entity = name.map { String(cString: $0) } ?? ""
      Unmanaged<XMLBuilderBox>.fromOpaque(context).takeUnretainedValue()
        .builder.fail(
          "unknown entity '&\(entity);' (only &amp; &lt; &gt; &quot; &apos; and &#N; are allowed)")
    }
    handler.serror = { context, error in
      guard let context, let error else { return }
      Unmanaged<XMLBuilderBox>.fromOpaque(context).takeUnretainedValue().builder.libxmlError(error)
    }

    try LibXML2Push.parse(
      bytes, handler: &handler, context: unmanaged.toOpaque(), path: nil,
      attach: { box.builder.parser = $0 }, failed: { box.builder.error != nil })
    if let error = box.builder.error { throw error }
    guard let result = box.builder.result else {
      throw .syntax(
        path: nil, line: 1, column: 1, message: "no property-list value in the document")
    }
    return result
  }
}

/// Runs libxml2's one-time global set-up before first use, from any thread.

/// The element names of the plist DTD.
private enum Tag: UInt8 {
  case plist, dict, array, key, string, integer, real, `true`, `false`, date, data

  /// The element name, for messages.
  var name: String {
    switch self {
    case .plist: "plist"
    case .dict: "dict"
    case .array: "array"
    case .key: "key"
    case .string: "string"
    case .integer: "integer"
    case .real: "real"
    case .true: "true"
    case .false: "false"
    case .date: "date"
    case .data: "data"
    }
  }

  init?(_ name: UnsafePointer<xmlChar>) {
    // Called for every element: compare in place, without allocating.
    func matches(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      return memcmp(name, literal.utf8Start, count) == 0 && name[count] == 0
    }
    switch name.pointee {
    case UInt8(ascii: "k") where matches("key"): self = .key
    case UInt8(ascii: "s") where matches("string"): self = .string
    case UInt8(ascii: "i") where matches("integer"): self = .integer
    case UInt8(ascii: "r") where matches("real"): self = .real
    case UInt8(ascii: "t") where matches("true"): self = .true
    case UInt8(ascii: "f") where matches("false"): self = .false
    case UInt8(ascii: "a") where matches("array"): self = .array
    case UInt8(ascii: "p") where matches("plist"): self = .plist
    case UInt8(ascii: "d"):
      if matches("dict") {
        self = .dict
      } else if matches("data") {
        self = .data
      } else if matches("date") {
        self = .date
      } else {
        return nil
      }
    default: return nil
    }
  }
}

/// Holds the builder for the C callbacks. The state lives in one struct so that each callback
/// pays for one dynamic exclusivity check, not one per property it touches.
private final class XMLBuilderBox {
  var builder = XMLTreeBuilder()
}

/// Builds the value from SAX events on an explicit stack.
private struct XMLTreeBuilder {
  private enum Frame {
    case plist(PropertyListValue?)
    case array([PropertyListValue])
    /// Keys and values are gathered first and hashed once at `</dict>`, when the count is
    /// known: growing a hash table entry by entry costs three times as much.
    case dictionary(keys: [String], values: [PropertyListValue], pendingKey: String?)
  }

  var parser: xmlParserCtxtPtr?
  var result: PropertyListValue?
  var error: PropertyListError?
  private var stack: [Frame] = []
  /// The scalar element whose text is being collected, if any.
  private var scalar: Tag?
  private var text: [UInt8] = []

  mutating func fail(_ message: String) {
    guard error == nil else { return }
    var line = 1
    var column = 1
    if let parser {
      line = Int(xmlSAX2GetLineNumber(parser))
      column = Int(xmlSAX2GetColumnNumber(parser))
      xmlStopParser(parser)
    }
    error = .syntax(path: nil, line: line, column: column, message: message)
  }

  mutating func libxmlError(_ raised: xmlErrorPtr) {
    guard raised.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, error == nil else { return }
    let message =
      raised.pointee.message.map { String(cString: $0) }?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
    error = .syntax(
      path: nil, line: max(1, Int(raised.pointee.line)), column: max(1, Int(raised.pointee.int2)),
      message: message)
    if let parser { xmlStopParser(parser) }
  }

  /// Containers nest at most 512 deep, as in the other readers: the value is built here
  /// without recursion, but freeing, comparing and writing it recurse.
  private mutating func withinDepth() -> Bool {
    // The stack holds the <plist> frame under the containers.
    guard stack.count <= Nesting.maximumDepth else {
      fail("nesting deeper than \(Nesting.maximumDepth) levels")
      return false
    }
    return true
  }

  mutating func startElement(_ name: UnsafePointer<xmlChar>) {
    guard error == nil else { return }
    if let scalar {
      fail("element <\(String(cString: name))> is not allowed inside <\(scalar.name)>")
      return
    }
    guard let tag = Tag(name) else {
      fail("unknown element <\(String(cString: name))>")
      return
    }
    switch tag {
    case .plist:
      guard stack.isEmpty, result == nil else {
        fail("<plist> is only allowed as the document element")
        return
      }
      stack.append(.plist(nil))
    case .dict:
      guard expectValue(tag), withinDepth() else { return }
      stack.append(.dictionary(keys: [], values: [], pendingKey: nil))
    case .array:
      guard expectValue(tag), withinDepth() else { return }
      stack.append(.array([]))
    case .key:
      guard case .dictionary(_, _, let pending)? = stack.last else {
        fail("<key> outside a <dict>")
        return
      }
      if let pending {
        fail("key '\(pending)' has no value before the next <key>")
        return
      }
      scalar = .key
      text.removeAll(keepingCapacity: true)
    default:
      guard expectValue(tag) else { return }
      scalar = tag
      text.removeAll(keepingCapacity: true)
    }
  }

  mutating func endElement(_ name: UnsafePointer<xmlChar>) {
    guard error == nil, let tag = Tag(name) else { return }
    if let current = scalar {
      guard current == tag else { return }  // libxml2 reports mismatched tags itself
      scalar = nil
      if current == .key {
        guard case .dictionary(let keys, let values, _)? = stack.popLast() else { return }
        stack.append(
          .dictionary(keys: keys, values: values, pendingKey: String(decoding: text, as: UTF8.self))
        )
        return
      }
      guard let value = scalarValue(current) else { return }
      add(value)
      return
    }
    switch tag {
    case .plist:
      guard case .plist(let value)? = stack.popLast() else { return }
      guard let value else {
        fail("<plist> holds no value")
        return
      }
      result = value
    case .array:
      guard case .array(let items)? = stack.popLast() else { return }
      add(.array(items))
    case .dict:
      guard case .dictionary(let keys, let values, let pending)? = stack.popLast() else { return }
      if let pending {
        fail("key '\(pending)' has no value")
        return
      }
      var dictionary = PropertyListDictionary(minimumCapacity: keys.count)
      for (key, value) in zip(keys, values) {
        dictionary[key] = value  // a repeated key: the last value wins, as in CoreFoundation
      }
      // CoreFoundation writes UIDs to XML as <dict><key>CF$UID</key><integer>N</integer></dict>.
      if dictionary.count == 1, case .integer(let uid)? = dictionary["CF$UID"],
        let value = uid.uint64Value
      {
        add(.uid(value))
      } else {
        add(.dictionary(dictionary))
      }
    default:
      break
    }
  }

  mutating func characters(_ pointer: UnsafePointer<xmlChar>, _ length: Int) {
    guard error == nil else { return }
    let chunk = UnsafeBufferPointer(start: pointer, count: length)
    if scalar != nil {
      text.append(contentsOf: chunk)
    } else if !chunk.allSatisfy(isSpace) {
      let preview = String(decoding: chunk.prefix(20), as: UTF8.self)
      fail("unexpected text '\(preview)' outside a value element")
    }
  }

  /// Whether a value may start here; reports why not.
  private mutating func expectValue(_ tag: Tag) -> Bool {
    // Messages are built only on failure: this runs for every element.
    switch stack.last {
    case .dictionary(_, _, nil)?:
      fail("<\(tag.name)> in a <dict> must follow a <key>")
      return false
    case .plist(.some)?:
      fail("<plist> holds more than one value")
      return false
    case nil where result != nil:
      fail("more than one top-level value")
      return false
    default:
      return true
    }
  }

  private mutating func add(_ value: PropertyListValue) {
    switch stack.popLast() {
    case nil:
      result = value
    case .plist?:
      stack.append(.plist(value))
    case .array(var items)?:
      items.append(value)
      stack.append(.array(items))
    case .dictionary(var keys, var values, let key?)?:
      keys.append(key)
      values.append(value)
      stack.append(.dictionary(keys: keys, values: values, pendingKey: nil))
    case .dictionary(_, _, nil)?:
      fail("value in a <dict> without a <key>")
    }
  }

  private mutating func scalarValue(_ tag: Tag) -> PropertyListValue? {
    switch tag {
    case .string:
      return .string(String(decoding: text, as: UTF8.self))
    case .integer:
      let trimmed = trim(text)
      guard let integer = PropertyListInteger(text: trimmed) else {
        fail("invalid <integer> '\(String(decoding: trimmed, as: UTF8.self))'")
        return nil
      }
      return .integer(integer)
    case .real:
      let trimmed = trim(text)
      guard let real = parseReal(trimmed) else {
        fail("invalid <real> '\(String(decoding: trimmed, as: UTF8.self))'")
        return nil
      }
      return .real(real)
    case .true, .false:
      guard text.allSatisfy(isSpace) else {
        fail("<\(tag.name)> must be empty")
        return nil
      }
      return .bool(tag == .true)
    case .date:
      guard let date = ISO8601.parse(text) else {
        fail(
          "invalid <date> '\(String(decoding: trim(text), as: UTF8.self))' (expected YYYY-MM-DDTHH:MM:SSZ)"
        )
        return nil
      }
      return .date(date)
    case .data:
      switch Base64.decode(text) {
      case .success(let bytes): return .data(Data(bytes))
      case .failure(let bad):
        fail("invalid base64 in <data> at character \(bad.offset + 1)")
        return nil
      }
    default:
      return nil
    }
  }

  private func trim(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    var slice = bytes[...]
    while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    return slice
  }
}
