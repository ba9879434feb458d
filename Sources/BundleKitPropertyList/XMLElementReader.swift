import BundleKitPropertyListCore
import CBundleKitLibXML2
import Foundation

/// One element of an XML document, with where it starts: what readers of XML formats other
/// than property lists (XLIFF) walk.
public struct XMLElement: Sendable, Hashable {
  /// The local name (`trans-unit`), without prefix.
  public var name: String
  /// The attributes by name; prefixed ones keep their prefix (`xml:space`).
  public var attributes: [String: String]
  /// The child elements, in order.
  public var children: [XMLElement]
  /// The character data directly inside the element (entities and character references
  /// resolved), in order; for an element without children, its whole text.
  public var text: String
  /// The 1-based line of the start tag.
  public var line: Int
  /// The 1-based column (in bytes) of the start tag's `<`.
  public var column: Int

  /// The child elements named `name`.
  public func children(named name: String) -> [XMLElement] {
    children.filter { $0.name == name }
  }

  /// The first child element named `name`.
  public func child(named name: String) -> XMLElement? {
    children.first { $0.name == name }
  }
}

/// Reads an XML document into ``XMLElement``s with libxml2's SAX2 parser, as safely as the
/// property-list reader: no network, no DTD, no entity but XML's five and character
/// references, nesting at most 512 deep, built on an explicit stack.
public enum XMLElementReader {
  /// The document's root element; a malformed document is a syntax error with its line and
  /// column in `path`.
  public static func read(_ bytes: [UInt8], path: String) throws(PropertyListError) -> XMLElement {
    try read(bytes, path: path, streaming: []) { _ in }
  }

  /// Reads a document whose repeated elements are handed over one at a time: each element
  /// named in `streamed` goes to `visit` as it closes, whole, and is not kept in its parent,
  /// so a document of a million `<tu>`s is read holding one. The root is returned with the
  /// rest. `visit` is called in document order.
  public static func read(
    _ bytes: [UInt8], path: String, streaming streamed: Set<String>,
    _ visit: (XMLElement) -> Void
  ) throws(PropertyListError) -> XMLElement {
    try withoutActuallyEscaping(visit) { (visit) throws(PropertyListError) -> XMLElement in
      let box = ElementBuilderBox()
      box.streamed = streamed
      box.visit = visit
      return try read(bytes, path: path, box: box)
    }
  }

  private static func read(_ bytes: [UInt8], path: String, box: ElementBuilderBox)
    throws(PropertyListError) -> XMLElement
  {
    let unmanaged = Unmanaged.passRetained(box)
    defer { unmanaged.release() }

    var handler = xmlSAXHandler()
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = { context, name, prefix, _, _, _, count, defaulted, attributes in
      guard let context, let name else { return }
      // Defaulted attributes (a DTD's `<!ATTLIST ... "value">`) come last: only what the
      // document writes counts, as no DTD is applied.
      Unmanaged<ElementBuilderBox>.fromOpaque(context).takeUnretainedValue()
        .start(name, prefix, Int(count) - Int(defaulted), attributes)
    }
    handler.endElementNs = { context, _, _, _ in
      guard let context else { return }
      Unmanaged<ElementBuilderBox>.fromOpaque(context).takeUnretainedValue().end()
    }
    handler.characters = { context, text, length in
      guard let context, let text else { return }
      Unmanaged<ElementBuilderBox>.fromOpaque(context).takeUnretainedValue()
        .characters(text, Int(length))
    }
    handler.cdataBlock = handler.characters
    handler.reference = { context, name in
      guard let context else { return }
      let entity = name.map { String(cString: $0) } ?? ""
      Unmanaged<ElementBuilderBox>.fromOpaque(context).takeUnretainedValue()
        .fail(
          "unknown entity '&\(entity);' (only &amp; &lt; &gt; &quot; &apos; and &#N; are allowed)")
    }
    handler.serror = { context, error in
      guard let context, let error else { return }
      Unmanaged<ElementBuilderBox>.fromOpaque(context).takeUnretainedValue().libxmlError(error)
    }
    box.bytes = bytes
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(PropertyListError) in
        try LibXML2Push.parse(
          buffer, handler: &handler, context: unmanaged.toOpaque(), path: path,
          attach: { box.parser = $0 }, failed: { box.error != nil })
      }
    }.get()
    if let (line, column, message) = box.error {
      throw .syntax(path: path, line: line, column: column, message: message)
    }
    guard let root = box.root else {
      throw .syntax(path: path, line: 1, column: 1, message: "no XML element in the document")
    }
    return root
  }
}

/// The tree under construction, for the C callbacks.
private final class ElementBuilderBox {
  var parser: xmlParserCtxtPtr?
  /// The document, to find where a start tag begins: libxml2 reports where it ends.
  var bytes: [UInt8] = []
  /// The offset of each line's first byte, built on first use.
  var lineStarts: [Int] = []
  /// Where the last tag search ended: its line, the character column there and its byte
  /// offset. Tags come in document order, so the next search on the same line starts here
  /// (a one-line document of 20,000 units is read in one pass, not 20,000).
  var cursor = (line: 0, characters: 0, offset: 0)
  var stack: [XMLElement] = []
  var root: XMLElement?
  /// Names of elements handed to `visit` as they close, instead of kept in their parent.
  var streamed: Set<String> = []
  var visit: (XMLElement) -> Void = { _ in }
  var error: (line: Int, column: Int, message: String)?

  func position() -> (Int, Int) {
    guard let parser else { return (1, 1) }
    return (max(1, Int(xmlSAX2GetLineNumber(parser))), max(1, Int(xmlSAX2GetColumnNumber(parser))))
  }

  /// The line and byte column of the `<` of the start tag just read: from libxml2's
  /// position after it (counted in characters), back to the `<`.
  func tagStart() -> (Int, Int) {
    let (line, column) = position()
    if lineStarts.isEmpty {
      lineStarts = [0]
      for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
    }
    guard line <= lineStarts.count else { return (line, column) }
    var offset = lineStarts[line - 1]
    var characters = 1
    if cursor.line == line, cursor.characters <= column {
      (characters, offset) = (cursor.characters, cursor.offset)
    }
    while characters < column, offset < bytes.count, bytes[offset] != 0x0A {
      offset += 1
      // Continuation bytes belong to the character before.
      while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      characters += 1
    }
    cursor = (line, characters, offset)
    while offset > 0, offset >= bytes.count || bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
    var startLine = line
    while startLine > 1, lineStarts[startLine - 1] > offset { startLine -= 1 }
    return (startLine, offset - lineStarts[startLine - 1] + 1)
  }

  func fail(_ message: String) {
    guard error == nil else { return }
    let (line, column) = position()
    error = (line, column, message)
    if let parser { xmlStopParser(parser) }
  }

  func libxmlError(_ raised: xmlErrorPtr) {
    guard raised.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, error == nil else { return }
    var message = raised.pointee.message.map { String(cString: $0) } ?? "malformed XML"
    while message.last?.isWhitespace == true { message.removeLast() }
    error = (max(1, Int(raised.pointee.line)), max(1, Int(raised.pointee.int2)), message)
    if let parser { xmlStopParser(parser) }
  }

  func start(
    _ name: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ count: Int,
    _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  ) {
    guard error == nil else { return }
    guard stack.count < Nesting.maximumDepth else {
      fail("elements nested deeper than \(Nesting.maximumDepth) levels")
      return
    }
    var values: [String: String] = [:]
    if let attributes {
      for index in 0..<count {
        let base = index * 5
        guard let local = attributes[base], let start = attributes[base + 3],
          let end = attributes[base + 4]
        else { continue }
        var key = String(cString: local)
        if let prefix = attributes[base + 1] { key = String(cString: prefix) + ":" + key }
        let length = UnsafeRawPointer(end) - UnsafeRawPointer(start)
        let raw = UnsafeBufferPointer(start: start, count: max(0, length))
        // Without entity substitution libxml2 hands an attribute's `&` over as `&#38;`
        // (and only that): undone on the bytes, since a combining mark after the `;` makes
        // it part of another `Character`.
        values[key] = String(decoding: Self.ampersandsRestored(raw), as: UTF8.self)
      }
    }
    _ = prefix
    let (line, column) = tagStart()
    stack.append(
      XMLElement(
        name: String(cString: name), attributes: values, children: [], text: "", line: line,
        column: column))
  }

  /// `bytes` with each `&#38;` made `&` again.
  static func ampersandsRestored(_ bytes: UnsafeBufferPointer<xmlChar>) -> [UInt8] {
    let pattern = Array("&#38;".utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "&"), index + pattern.count <= bytes.count,
        bytes[index..<index + pattern.count].elementsEqual(pattern)
      {
        result.append(UInt8(ascii: "&"))
        index += pattern.count
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }

  func end() {
    guard error == nil, let element = stack.popLast() else { return }
    if stack.isEmpty {
      root = element
    } else if streamed.contains(element.name) {
      visit(element)
    } else {
      stack[stack.count - 1].children.append(element)
    }
  }

  func characters(_ text: UnsafePointer<xmlChar>, _ length: Int) {
    guard error == nil, !stack.isEmpty else { return }
    stack[stack.count - 1].text += String(
      decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
  }
}
