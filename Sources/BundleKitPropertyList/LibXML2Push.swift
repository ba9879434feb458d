import BundleKitPropertyListCore
import CBundleKitLibXML2

/// libxml2's push parser as both XML readers drive it: no network, huge documents allowed
/// (the size bound is the caller's), fed in pieces since `xmlParseChunk` takes an `Int32`.
enum LibXML2Push {
  /// Parses `bytes` with `handler`, whose callbacks get `context`; `attach` is given the
  /// parser before the first byte (callbacks ask it for positions and stop it) and nil after
  /// the last; `failed` stops the feeding early.
  static func parse(
    _ bytes: UnsafeRawBufferPointer, handler: inout xmlSAXHandler, context: UnsafeMutableRawPointer,
    path: String?, attach: (xmlParserCtxtPtr?) -> Void, failed: () -> Bool
  ) throws(PropertyListError) {
    xmlInitParser()
    // Only XML's own entities and character references: nothing a document declares.
    handler.getEntity = { _, _ in nil }
    guard let parser = xmlCreatePushParserCtxt(&handler, context, nil, 0, nil) else {
      // libxml2 is loaded when first needed: say so when it is not there.
      let missing = bundlekit_libxml2_missing().map { String(cString: $0) }
      throw .syntax(
        path: path, line: 1, column: 1,
        message: missing.map { "this document needs libxml2, and \($0) could not be loaded" }
          ?? "could not create an XML parser")
    }
    defer { xmlFreeParserCtxt(parser) }
    xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue))
    attach(parser)
    defer { attach(nil) }
    // Fed a MiB at a time: libxml2 copies what it is given into its own input buffer, which
    // so stays small instead of holding a second copy of a large document.
    let chunk = 1 << 20
    var offset = 0
    repeat {
      let length = min(chunk, bytes.count - offset)
      let isLast = offset + length == bytes.count
      let base = bytes.baseAddress.map { UnsafeRawPointer($0) + offset }
      _ = xmlParseChunk(
        parser, base?.assumingMemoryBound(to: CChar.self), Int32(length), isLast ? 1 : 0)
      offset += length
    } while offset < bytes.count && !failed()
  }
}
