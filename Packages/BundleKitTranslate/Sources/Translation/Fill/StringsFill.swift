import FileSystem
import Foundation
import PropertyListXML
import StringsTable

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
      blocks.append(
        "/* \(StringsText.comment(note)) */\n\(StringsText.literal(entry.key)) = \(StringsText.literal(text));\n"
      )
      filled.append((entry.key, text))
      plan.filled.append(
        FilledEntry(
          path: target, key: entry.key, variant: "", language: language, value: text,
          origin: origin))
    }
    guard !blocks.isEmpty else { return }
    let encoding = existing?.file.encoding ?? .utf8
    var after = existing?.bytes ?? []
    var text = blocks.joined(separator: "\n")
    if let existing, !existing.bytes.isEmpty {
      text =
        (StringsText.endsWithNewline(existing.bytes, encoding: encoding) ? "\n" : "\n\n") + text
    }
    after += StringsText.encode(text, as: encoding)
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
}
