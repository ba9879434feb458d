import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation

/// Fills one language's `.strings` table from the development language's: missing keys are
/// appended, in the file's own encoding, each under a comment marking it for review.
struct StringsFill: FileJob {
  let target: String
  let language: String
  let table: String
  private let existing: (bytes: [UInt8], file: StringsFile)?
  private let missing: [(key: String, value: String, comment: String?)]

  init(source: String, target: String, language: String, table: String) throws {
    self.target = target
    self.language = language
    self.table = table
    let sourceFile = try StringsFile(contentsOfFile: source)
    if FileManager.default.fileExists(atPath: target) {
      let bytes = try FileIO.read(target)
      existing = (bytes, try StringsFile(bytes: bytes, path: target))
    } else {
      existing = nil
    }
    var seen: Set<String> = []
    var missing: [(String, String, String?)] = []
    let present = existing?.file.dictionary
    // Foundation's reading: the last value of a repeated key, at its first position.
    for entry in sourceFile.entries where seen.insert(entry.key).inserted {
      guard present?[entry.key] == nil,
        let value = sourceFile.dictionary[entry.key]?.stringValue, !value.isEmpty
      else { continue }
      let comment = sourceFile.entries.last { $0.key == entry.key }?.comment
      missing.append((entry.key, value, comment))
    }
    self.missing = missing
  }

  var needs: [FillNeed] {
    missing.map {
      FillNeed(language: language, text: $0.value, table: table, key: $0.key, variant: "")
    }
  }

  func apply(
    found: [FillNeed: (String, FillOrigin)], failures: [FillNeed: String], to plan: inout FillPlan
  ) throws {
    var blocks: [String] = []
    var notes: [String] = []
    var filled: [(String, String)] = []
    for (entry, need) in zip(missing, needs) {
      guard let (text, origin) = found[need] else {
        plan.unfilled.append(
          UnfilledEntry(
            path: target, key: entry.key, language: language,
            reason: failures[need] ?? "no translation"))
        continue
      }
      let note = [entry.comment, FillMark.text(origin)].compactMap { $0 }.joined(separator: " — ")
      notes.append(note)
      blocks.append(StringsText.entry(key: entry.key, value: text, comment: note))
      filled.append((entry.key, text))
      plan.filled.append(
        FilledEntry(
          path: target, key: entry.key, variant: "", language: language, value: text,
          origin: origin))
    }
    guard !blocks.isEmpty else { return }
    let encoding = existing?.file.encoding ?? .utf8
    var after = existing?.bytes ?? []
    if let existing, let format = existing.file.propertyListFormat {
      // A table in property-list form stays in it: XML gets its new pairs before the
      // closing </dict>, as a translation platform lays them out; binary is written again.
      after = try Self.propertyList(existing, adding: filled, notes: notes, format: format)
    } else {
      after = StringsText.appending(blocks, to: after, encoding: encoding)
    }
    // What is written must read back as planned, with every old entry unchanged.
    let check = try StringsFile(bytes: after, path: target)
    for (key, value) in filled where check.dictionary[key]?.stringValue != value {
      throw TranslationError.unreadableTable(
        path: target, message: "internal error: \"\(key)\" would not read back as written")
    }
    if let old = existing?.file.dictionary {
      for (key, value) in old where check.dictionary[key] != value {
        throw TranslationError.unreadableTable(
          path: target, message: "internal error: \"\(key)\" would change")
      }
    }
    plan.changes.append(FillPlan.Change(path: target, before: existing?.bytes, after: after))
  }

  /// A property-list table with `filled` added: in XML, each pair (under its note as a
  /// comment) inserted before the last `</dict>` with the indentation of the first `<key>`;
  /// in binary, the whole table written again.
  static func propertyList(
    _ existing: (bytes: [UInt8], file: StringsFile), adding filled: [(String, String)],
    notes: [String], format: PropertyListFormat
  ) throws -> [UInt8] {
    guard format == .xml1, let close = lastRange(of: Array("</dict>".utf8), in: existing.bytes)
    else {
      var dictionary = existing.file.dictionary
      for (key, value) in filled { dictionary[key] = .string(value) }
      return try PropertyListValue.dictionary(dictionary).encoded(as: format)
    }
    var indent = "\t"
    if let key = firstRange(of: Array("<key>".utf8), in: existing.bytes) {
      var start = key
      while start > 0, existing.bytes[start - 1] == 0x20 || existing.bytes[start - 1] == 0x09 {
        start -= 1
      }
      indent = String(decoding: existing.bytes[start..<key], as: UTF8.self)
    }
    var text = ""
    for ((key, value), note) in zip(filled, notes) {
      // `--` may not appear inside an XML comment.
      let comment = note.replacingOccurrences(of: "--", with: "- -")
      text += "\(indent)<!-- \(comment) -->\n"
      text += "\(indent)<key>\(XMLEscaping.escape(key))</key>\n"
      text += "\(indent)<string>\(XMLEscaping.escape(value))</string>\n"
    }
    // At the start of the closing tag's line, so it keeps its own indentation.
    var lineStart = close
    while lineStart > 0, existing.bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
    let onItsOwnLine = existing.bytes[lineStart..<close].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    let at = onItsOwnLine ? lineStart : close
    return Array(existing.bytes[..<at]) + Array((onItsOwnLine ? "" : "\n").utf8)
      + Array(text.utf8) + Array(existing.bytes[at...])
  }

  private static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first {
      bytes[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }

  private static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).reversed().first {
      bytes[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }
}
