import BundleKitDiagnostics
import BundleKitPropertyList
import BundleKitPropertyListCore

/// A translation memory as TMX 1.4b, the exchange format of memory tools (Translate
/// Toolkit, OmegaT, Okapi, Weblate, Tolgee): one `<tu>` per entry, one `<tuv xml:lang>` per
/// language, the entry's project, table, key and form as `<prop>`s so that a round trip
/// loses nothing, each language's comment as its `<note>`.
public enum TMXDocument {
  /// The `<prop type>`s BundleKit writes and reads back.
  enum Property {
    static let project = "x-bundlekit-project"
    static let bundle = "x-bundlekit-bundle"
    static let state = "x-bundlekit-state"
    static let table = "x-bundlekit-table"
    static let key = "x-bundlekit-key"
    static let variant = "x-bundlekit-variant"
  }

  /// `records` as TMX, entries in project, table, key and form order, the source language
  /// first in each.
  public static func write(
    _ records: [TranslationRecord], sourceLanguage: String, toolVersion: String
  ) -> [UInt8] {
    struct Unit: Hashable, Comparable {
      var project: String
      var bundle: String
      var table: String
      var key: String
      var variant: String
      static func < (a: Unit, b: Unit) -> Bool {
        (a.project, a.bundle, a.table, a.key, a.variant)
          < (b.project, b.bundle, b.table, b.key, b.variant)
      }
    }
    var units: [Unit: [TranslationRecord]] = [:]
    for record in records {
      units[
        Unit(
          project: record.project, bundle: record.bundle, table: record.table, key: record.key,
          variant: record.variant),
        default: []
      ].append(record)
    }
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <tmx version="1.4">
        <header creationtool="BundleKit" creationtoolversion="\(XMLEscaping.attribute(toolVersion))" segtype="block" o-tmf="BundleKit" adminlang="en" srclang="\(XMLEscaping.attribute(sourceLanguage))" datatype="plaintext"/>
        <body>

      """
    for unit in units.keys.sorted() {
      out += "    <tu>\n"
      if !unit.project.isEmpty {
        out +=
          "      <prop type=\"\(Property.project)\">\(XMLEscaping.escape(unit.project))</prop>\n"
      }
      out += "      <prop type=\"\(Property.bundle)\">\(XMLEscaping.escape(unit.bundle))</prop>\n"
      out += "      <prop type=\"\(Property.table)\">\(XMLEscaping.escape(unit.table))</prop>\n"
      out += "      <prop type=\"\(Property.key)\">\(XMLEscaping.escape(unit.key))</prop>\n"
      if !unit.variant.isEmpty {
        out +=
          "      <prop type=\"\(Property.variant)\">\(XMLEscaping.escape(unit.variant))</prop>\n"
      }
      let variants = (units[unit] ?? []).sorted {
        ($0.language == sourceLanguage ? 0 : 1, $0.language) < (
          $1.language == sourceLanguage ? 0 : 1, $1.language
        )
      }
      for record in variants {
        out += "      <tuv xml:lang=\"\(XMLEscaping.attribute(record.language))\">\n"
        if record.state != .translated {
          out += "        <prop type=\"\(Property.state)\">\(record.state.rawValue)</prop>\n"
        }
        if let comment = record.comment {
          out += "        <note>\(XMLEscaping.escape(comment))</note>\n"
        }
        out += "        <seg>\(XMLEscaping.escape(record.value))</seg>\n"
        out += "      </tuv>\n"
      }
      out += "    </tu>\n"
    }
    out += "  </body>\n</tmx>\n"
    return Array(out.utf8)
  }

  /// The records of a TMX document. A `<tu>` without BundleKit's properties (a memory
  /// written by another tool) is keyed by its `tuid`, else its source text, in the table
  /// `TMX` of the project `tmx:<file>`. Every problem is an error with its line and column
  /// in `path`, all reported together; nothing is returned then.
  public static func read(_ bytes: [UInt8], path: String) throws -> (
    records: [TranslationRecord], sourceLanguage: String?
  ) {
    var problems: [Diagnostic] = []
    func problem(_ element: XMLElement, _ message: String) {
      problems.append(.error(path, line: element.line, column: element.column, message))
    }
    var header: XMLElement?
    var headerSource: String?
    let fileName = path.split(separator: "/").last.map(String.init) ?? path
    var records: [TranslationRecord] = []
    var seen: Set<String> = []
    // Streamed: each <tu> is read into records as it closes and let go, so a large memory
    // is read holding one unit's elements at a time, not the whole document's.
    let root: XMLElement
    do {
      root = try XMLElementReader.read(bytes, path: path, streaming: ["tu", "header"]) {
        element in
        if element.name == "header" {
          header = element
          let declared = element.attributes["srclang"]
          headerSource = declared.flatMap {
            $0.lowercased() == "*all*" ? nil : LanguageTag.normalize($0)
          }
          return
        }
        unit(element)
      }
    } catch {
      throw TranslationError.table(error.diagnostics)
    }
    guard root.name == "tmx" else {
      throw TranslationError.table([
        .error(
          path, line: root.line, column: root.column,
          "not a TMX document: the root element is <\(root.name)>, not <tmx>")
      ])
    }
    if header == nil { problem(root, "<tmx> has no <header>") }
    if root.child(named: "body") == nil { problem(root, "<tmx> has no <body>") }

    func unit(_ tu: XMLElement) {
      var properties: [String: String] = [:]
      for prop in tu.children(named: "prop") {
        if let type = prop.attributes["type"] { properties[type] = prop.text }
      }
      var values: [(language: String, value: String, comment: String?, state: ReviewState)] = []
      for tuv in tu.children(named: "tuv") {
        guard let code = tuv.attributes["xml:lang"] ?? tuv.attributes["lang"] else {
          problem(tuv, "<tuv> has no xml:lang")
          continue
        }
        guard let language = LanguageTag.normalize(code) else {
          problem(tuv, "\"\(code)\" is not a language code")
          continue
        }
        guard let seg = tuv.child(named: "seg") else {
          problem(tuv, "<tuv xml:lang=\"\(code)\"> has no <seg>")
          continue
        }
        if let inline = seg.children.first {
          problem(
            inline,
            "<\(inline.name)> inside <seg>: inline markup is not supported; export plain text")
          continue
        }
        let notes = tuv.children(named: "note").map(\.text)
        var state = ReviewState.translated
        if let given = tuv.children(named: "prop").first(where: {
          $0.attributes["type"] == Property.state
        }) {
          guard let known = ReviewState(rawValue: given.text) else {
            problem(
              given, "review state \"\(given.text)\" is not translated, needs_review or approved")
            continue
          }
          state = known
        }
        values.append(
          (language, seg.text, notes.isEmpty ? nil : notes.joined(separator: "\n"), state))
      }
      if values.isEmpty {
        if tu.children(named: "tuv").isEmpty { problem(tu, "<tu> has no <tuv>") }
        return
      }
      let unitSource = tu.attributes["srclang"].flatMap(LanguageTag.normalize) ?? headerSource
      let sourceText = values.first { $0.language == unitSource }?.value
      guard
        let key = properties[Property.key] ?? tu.attributes["tuid"] ?? sourceText
          ?? values.first?.value
      else { return }
      let record = TranslationRecord(
        bundle: properties[Property.bundle] ?? "tmx:\(fileName)",
        table: properties[Property.table] ?? "TMX", key: key,
        variant: properties[Property.variant] ?? "", language: "", value: "",
        project: properties[Property.project] ?? "")
      let identity = [record.project, record.bundle, record.table, record.key, record.variant]
        .joined(separator: "\u{0}")
      guard seen.insert(identity).inserted else {
        problem(tu, "a second <tu> for \"\(key)\" in table \(record.table)")
        return
      }
      for (language, value, comment, state) in values {
        var copy = record
        copy.language = language
        copy.value = value
        copy.comment = comment
        copy.state = state
        copy.source = sourceText
        records.append(copy)
      }
    }
    if !problems.isEmpty { throw TranslationError.table(problems) }
    return (records, headerSource)
  }

}
