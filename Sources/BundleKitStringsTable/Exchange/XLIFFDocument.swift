import BundleKitDiagnostics
import BundleKitPropertyList
import BundleKitPropertyListCore

/// An XLIFF 1.2 document as Xcode exports and imports them: one `<file>` per table, one
/// `<trans-unit>` per string or variation.
public struct XLIFFDocument: Sendable, Hashable {
  /// One table of one language pair.
  public struct File: Sendable, Hashable {
    /// The table's path relative to the project (`App/Localizable.xcstrings`,
    /// `App/en.lproj/Localizable.strings`).
    public var original: String
    /// The development language.
    public var sourceLanguage: String
    /// The language translated into; nil when the file does not say (an error on import).
    public var targetLanguage: String?
    /// The units, in order.
    public var units: [Unit]
    /// Where the `<file>` element starts.
    public var line: Int = 0
    /// The column after its start tag.
    public var column: Int = 0
    /// Whether the project has this table in the target language. Xcode writes the `<file>`
    /// of a `.strings`, `.stringsdict` or interface table that has no translation yet into a
    /// language other than the development one with `datatype` first (Xcode 10.2 to 15's
    /// exports: 559 of 1,707 `<file>`s, none with a target), and every other `<file>` with it
    /// last.
    public var isTranslated = true

    /// A file of units.
    public init(original: String, sourceLanguage: String, targetLanguage: String?, units: [Unit]) {
      self.original = original
      self.sourceLanguage = sourceLanguage
      self.targetLanguage = targetLanguage
      self.units = units
    }
  }

  /// One string to translate.
  public struct Unit: Sendable, Hashable {
    /// Xcode's id: the key, `key|==|plural.one` for a catalog variation,
    /// `/key:dict/VAR:dict/one:dict/:string` for a `.stringsdict` form.
    public var id: String
    /// The development-language text.
    public var source: String
    /// The translation, when there is one.
    public var target: String?
    /// The target's `state` (`translated`, `needs-review-l10n`, `new` ...).
    public var state: String?
    /// The comment for translators.
    public var note: String?
    /// Where the `<trans-unit>` starts.
    public var line: Int = 0
    /// The column after its start tag.
    public var column: Int = 0

    /// A unit.
    public init(id: String, source: String, target: String?, state: String?, note: String?) {
      self.id = id
      self.source = source
      self.target = target
      self.state = state
      self.note = note
    }
  }

  /// The files, in order.
  public var files: [File]

  /// A document of `files`.
  public init(files: [File]) { self.files = files }

  /// The namespace of XLIFF 1.2.
  static let namespace = "urn:oasis:names:tc:xliff:document:1.2"

  /// The document in Xcode's layout: two-space indentation, `xml:space="preserve"` on every
  /// unit, a note on every unit (`<note/>` without a comment), an empty text as an empty
  /// element (`<source/>`).
  public func xml(toolVersion: String) -> [UInt8] {
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.2" xsi:schemaLocation="urn:oasis:names:tc:xliff:document:1.2 http://docs.oasis-open.org/xliff/v1.2/os/xliff-core-1.2-strict.xsd">

      """
    for file in files {
      out += "  <file original=\"\(XMLEscaping.attribute(file.original))\""
      if !file.isTranslated { out += " datatype=\"plaintext\"" }
      out += " source-language=\"\(XMLEscaping.attribute(file.sourceLanguage))\""
      if let target = file.targetLanguage {
        out += " target-language=\"\(XMLEscaping.attribute(target))\""
      }
      out += file.isTranslated ? " datatype=\"plaintext\">\n" : ">\n"
      out += "    <header>\n"
      out +=
        "      <tool tool-id=\"org.bundlekit\" tool-name=\"BundleKit\" tool-version=\"\(XMLEscaping.attribute(toolVersion))\"/>\n"
      out += "    </header>\n    <body>\n"
      for unit in file.units {
        out +=
          "      <trans-unit id=\"\(XMLEscaping.attribute(unit.id))\" xml:space=\"preserve\">\n"
        out += "        " + Self.element("source", unit.source) + "\n"
        if let target = unit.target {
          let state = unit.state.map { " state=\"\(XMLEscaping.attribute($0))\"" } ?? ""
          out += "        " + Self.element("target", target, attributes: state) + "\n"
        }
        out += "        " + Self.element("note", unit.note ?? "") + "\n"
        out += "      </trans-unit>\n"
      }
      out += "    </body>\n  </file>\n"
    }
    out += "</xliff>\n"
    return Array(out.utf8)
  }

  /// `<name attributes>text</name>`, or `<name attributes/>` for an empty text, as Xcode
  /// writes them.
  private static func element(_ name: String, _ text: String, attributes: String = "") -> String {
    text.isEmpty
      ? "<\(name)\(attributes)/>" : "<\(name)\(attributes)>\(XMLEscaping.escape(text))</\(name)>"
  }

  /// Reads an XLIFF 1.2 document; every structural problem is an error with its line and
  /// column in `path`, all of them reported together.
  public static func read(_ bytes: [UInt8], path: String) throws(DiagnosticsError) -> XLIFFDocument
  {
    let root: XMLElement
    do {
      root = try XMLElementReader.read(bytes, path: path)
    } catch {
      throw DiagnosticsError(error.diagnostics)
    }
    var problems: [Diagnostic] = []
    func problem(_ element: XMLElement, _ message: String) {
      problems.append(.error(path, line: element.line, column: element.column, message))
    }
    guard root.name == "xliff" else {
      throw DiagnosticsError([
        .error(
          path, line: root.line, column: root.column,
          "not an XLIFF document: the root element is <\(root.name)>, not <xliff>")
      ])
    }
    if let version = root.attributes["version"], !version.hasPrefix("1.") {
      problem(root, "XLIFF version \(version) is not supported; export XLIFF 1.2")
    }
    var files: [File] = []
    for element in root.children(named: "file") {
      guard let original = element.attributes["original"], !original.isEmpty else {
        problem(element, "<file> has no original attribute naming its table")
        continue
      }
      let source = element.attributes["source-language"] ?? ""
      if source.isEmpty {
        problem(element, "<file original=\"\(original)\"> has no source-language")
      }
      let target = element.attributes["target-language"]
      if target?.isEmpty ?? true {
        problem(element, "<file original=\"\(original)\"> has no target-language")
      }
      // A language becomes a folder name (`<lang>.lproj`) and a catalog key: only a tag.
      for (attribute, value) in [("source-language", source), ("target-language", target ?? "")]
      where !value.isEmpty && !LanguageName.isValid(value) {
        problem(
          element,
          "<file original=\"\(original)\"> \(attribute) \(StringCatalog.quoted(value)) \(StringCatalog.notALanguage)"
        )
      }
      var file = File(original: original, sourceLanguage: source, targetLanguage: target, units: [])
      file.line = element.line
      file.column = element.column
      var seen: Set<String> = []
      for unitElement in Self.units(in: element) {
        guard let id = unitElement.attributes["id"] else {
          problem(unitElement, "<trans-unit> has no id")
          continue
        }
        guard let sourceElement = unitElement.child(named: "source") else {
          problem(unitElement, "<trans-unit id=\"\(id)\"> has no <source>")
          continue
        }
        guard seen.insert(id).inserted else {
          problem(unitElement, "a second <trans-unit id=\"\(id)\"> in \(original)")
          continue
        }
        let targetElement = unitElement.child(named: "target")
        for inline in [sourceElement, targetElement].compactMap({ $0 })
        where !inline.children.isEmpty {
          problem(
            inline.children[0],
            "<\(inline.children[0].name)> inside <\(inline.name)> of \"\(id)\": inline markup is not supported; use plain text"
          )
        }
        let note = unitElement.children(named: "note").map(\.text).filter { !$0.isEmpty }
        var unit = Unit(
          id: id, source: sourceElement.text, target: targetElement?.text,
          state: targetElement?.attributes["state"],
          note: note.isEmpty ? nil : note.joined(separator: "\n"))
        unit.line = unitElement.line
        unit.column = unitElement.column
        file.units.append(unit)
      }
      files.append(file)
    }
    if files.isEmpty, problems.isEmpty { problem(root, "the document has no <file>") }
    if !problems.isEmpty { throw DiagnosticsError(problems) }
    return XLIFFDocument(files: files)
  }

  /// The `<trans-unit>`s of a file's `<body>`, those inside `<group>`s included.
  private static func units(in file: XMLElement) -> [XMLElement] {
    var result: [XMLElement] = []
    var pending = file.children(named: "body").reversed().map { $0 }
    while let element = pending.popLast() {
      for child in element.children.reversed() {
        if child.name == "trans-unit" {
          pending.append(child)
        } else if child.name == "group" {
          pending.append(child)
        }
      }
      if element.name == "trans-unit" { result.append(element) }
    }
    return result
  }
}
