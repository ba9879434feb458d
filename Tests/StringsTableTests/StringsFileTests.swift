import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

struct StringsFileTests {
  func parse(_ text: String) throws -> StringsFile {
    try StringsFile(bytes: Array(text.utf8), path: "Test.strings")
  }

  func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
    var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
    for unit in text.utf16 {
      let high = UInt8(truncatingIfNeeded: unit >> 8)
      let low = UInt8(truncatingIfNeeded: unit)
      bytes += bigEndian ? [high, low] : [low, high]
    }
    return bytes
  }

  let sample = """
    /* The greeting on the first screen. */
    "greeting" = "Hello, %@!";

    // Shown when nothing is there.
    empty_state = "Nothing here";
    "shorthand";
    "multi
    line" = "value";
    """

  @Test("UTF-8, UTF-8 with BOM, UTF-16 LE and BE with and without BOM read the same")
  func encodings() throws {
    let expected = try parse(sample)
    #expect(expected.encoding == .utf8)
    let variants: [([UInt8], StringsFileEncoding)] = [
      ([0xEF, 0xBB, 0xBF] + Array(sample.utf8), .utf8WithBOM),
      (utf16(sample, bigEndian: false, bom: true), .utf16LittleEndian),
      (utf16(sample, bigEndian: true, bom: true), .utf16BigEndian),
      (utf16(sample, bigEndian: false, bom: false), .utf16LittleEndian),
      (utf16(sample, bigEndian: true, bom: false), .utf16BigEndian),
    ]
    for (bytes, encoding) in variants {
      let file = try StringsFile(bytes: bytes, path: "x.strings")
      #expect(file.encoding == encoding)
      #expect(file.entries == expected.entries, "\(encoding)")
    }
  }

  @Test("entries keep their comment, line and column; shorthand and unquoted forms")
  func entries() throws {
    let file = try parse(sample)
    #expect(file.entries.map(\.key) == ["greeting", "empty_state", "shorthand", "multi\nline"])
    #expect(file.entries[0].comment == "The greeting on the first screen.")
    #expect(file.entries[0].line == 2)
    #expect(file.entries[0].column == 1)
    #expect(file.entries[1].comment == "Shown when nothing is there.")
    #expect(file.entries[1].line == 5)
    #expect(file.entries[2].value == "shorthand")
    #expect(file.entries[2].comment == nil)
    #expect(file.entries[3].line == 7)
  }

  @Test(
    "a comment after the entry on its own line is the entry's, not the next one's (Xcode's export of FocusedWork)"
  )
  func trailingComments() throws {
    let file = try parse(
      """
      "a" = "A"; // Name as param
      "b" = "B";
      /* Above c */
      "c" = "C"; // after c
      "d" = "D";	/* block */ "e" = "E";
      "f" = "F";
      // On its own line, for g
      "g" = "G";
      """)
    #expect(file.entries.map(\.key) == ["a", "b", "c", "d", "e", "f", "g"])
    #expect(
      file.entries.map(\.comment) == [
        "Name as param", nil, "Above c", "block", nil, nil, "On its own line, for g",
      ])
    #expect(
      file.dictionary == ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E", "f": "F", "g": "G"])
  }

  @Test("escapes exactly as CoreFoundation reads them")
  func escapes() throws {
    let file = try parse(#""k" = "\n\t\r\a\b\f\v \" \' \\ \U00e9\UD83D\UDE00 \101\60 \u00e9 \q";"#)
    #expect(file.entries[0].value == "\n\t\r\u{7}\u{8}\u{C}\u{B} \" ' \\ é😀 A0 u00e9 q")
  }

  @Test("duplicates: the last value wins, every occurrence is kept for lint")
  func duplicates() throws {
    let file = try parse("a = one;\nb = two;\na = three;\n")
    #expect(file.dictionary == ["a": "three", "b": "two"])
    #expect(file.duplicates.count == 1)
    #expect(file.duplicates[0].entries.map(\.line) == [1, 3])
  }

  @Test("empty and comment-only files are empty tables")
  func empty() throws {
    #expect(try parse("").entries.isEmpty)
    #expect(try parse("  \n// nothing\n/* at all */\n").entries.isEmpty)
    #expect(try StringsFile(bytes: [0xFF, 0xFE], path: "x.strings").entries.isEmpty)
  }

  @Test("syntax errors name the file, line and column and what was expected")
  func errors() {
    func message(_ text: String) -> String {
      do {
        _ = try parse(text)
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      message("\"a\" = \"b\"\n\"c\" = \"d\";")
        == "Test.strings:2:1: error: expected ';' after the value of \"a\", found '\"'")
    #expect(
      message("\"a\" \"b\";")
        == "Test.strings:1:5: error: expected '=' or ';' after the key \"a\", found '\"'")
    #expect(message("\"a\" = \"b;\n") == "Test.strings:1:7: error: unterminated quoted string")
    #expect(
      message("= \"b\";")
        == "Test.strings:1:1: error: expected a key (a quoted or unquoted string), found '='")
    #expect(message("/* open") == "Test.strings:1:1: error: unterminated /* comment")
  }
}

/// The shared corpus, read by us and by Foundation's own parser (CoreFoundation's
/// old-style-plist reader on Linux), must agree wherever Foundation succeeds.
@Suite(.enabled(if: Corpus.isPresent, Corpus.reason(".")))
struct CorpusOracleTests {
  static let folders = [
    "swiftgen-strings", "bartycrouch-strings", "xcstrings-tool-fixtures", "xcstrings-tool-package",
    "home-assistant-ios", "icecubes-xcstrings",
  ]

  static var tables: [TableLocation] {
    (try? TableDiscovery.tables(in: folders.filter(Corpus.has).map { Corpus.path($0) })) ?? []
  }

  @Test(".strings and .stringsdict files parse to what Foundation returns")
  func stringsAgreeWithFoundation() throws {
    var compared = 0
    var foundationFailed: [String] = []
    for location in Self.tables where location.kind != .catalog {
      let data = try Data(contentsOf: URL(fileURLWithPath: location.path))
      let ours: PropertyListValue
      switch location.kind {
      case .strings: ours = .dictionary(try StringsFile(contentsOfFile: location.path).dictionary)
      default: ours = .dictionary(try StringsdictFile(contentsOfFile: location.path).entries)
      }
      guard let object = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
        foundationFailed.append(location.path)
        continue
      }
      let theirs = try FoundationBridge.value(object)
      #expect(ours.sortedKeys == theirs.sortedKeys, "\(location.path)")
      compared += 1
    }
    print(
      "compared \(compared) tables with Foundation; Foundation could not read: \(foundationFailed)")
    // 165 tables in the shared corpus.
    #expect(compared >= 160)
  }

  @Test("String Catalogs parse to what JSONSerialization returns, and compile")
  func catalogs() throws {
    var compared = 0
    for location in Self.tables where location.kind == .catalog {
      let data = try Data(contentsOf: URL(fileURLWithPath: location.path))
      let theirs = try FoundationBridge.value(try JSONSerialization.jsonObject(with: data))
      let ours = try PropertyListValue(bytes: Array(data), format: .json)
      #expect(ours.sortedKeys == theirs.sortedKeys, "\(location.path)")
      let catalog = try StringCatalog(contentsOfFile: location.path)
      #expect(catalog.strings.count == theirs["strings"]?.dictionaryValue?.count)
      let compiled = catalog.compile()
      #expect(Set(compiled.keys) == Set(catalog.languages))
      compared += 1
    }
    #expect(compared >= 12)
  }
}

/// Large tables are read in two halves on two threads; the result must equal a plain
/// front-to-back reading, whatever sits in the middle of the file.
struct LargeStringsFileTests {
  func table(entries: Int, middle: String = "") -> (text: String, keys: [String]) {
    var text = ""
    var keys: [String] = []
    for index in 0..<entries {
      if index == entries / 2 { text += middle }
      text += "\"key.\(index)\" = \"value \(index)\";\n"
      keys.append("key.\(index)")
    }
    return (text, keys)
  }

  @Test("a large table reads the same in two halves, lines included")
  func halves() throws {
    let (text, keys) = table(entries: 60_000)
    #expect(text.utf8.count > 1 << 20)
    let file = try StringsFile(bytes: Array(text.utf8), path: "big.strings")
    #expect(file.entries.map(\.key) == keys)
    #expect(file.entries.map(\.line) == Array(1...60_000))
    #expect(file.dictionary.count == 60_000)
  }

  @Test("a middle that looks like entries but sits in a comment or a string is not split")
  func misleadingMiddle() throws {
    let fake = String(repeating: "\"fake\" = \"no\";\n", count: 12_000)
    for middle in ["/*\n" + fake + "*/\n", "'long' = '\n" + fake + "';\n"] {
      let (text, keys) = table(entries: 60_000, middle: middle)
      let file = try StringsFile(bytes: Array(text.utf8), path: "big.strings")
      let expected =
        middle.hasPrefix("/*") ? keys : Array(keys[..<30_000]) + ["long"] + Array(keys[30_000...])
      #expect(file.entries.map(\.key) == expected)
      #expect(!file.entries.contains { $0.key == "fake" })
    }
  }

  @Test("an error in the second half is reported with its real line")
  func errorInSecondHalf() {
    var (text, _) = table(entries: 60_000)
    text += "\"broken\" = \"x\"\n"
    do {
      _ = try StringsFile(bytes: Array(text.utf8), path: "big.strings")
      Issue.record("no error")
    } catch {
      #expect(
        "\(error)"
          == "big.strings:60002:1: error: expected ';' after the value of \"broken\", found end of file"
      )
    }
  }
}
