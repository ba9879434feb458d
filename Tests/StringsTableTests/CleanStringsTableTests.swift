import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitStringsTable

/// The compile of a clean table straight from its bytes must be the full road's twin: the
/// same bytes when it takes a table, and it takes a UTF-8 text table exactly when the full
/// reader parses it and the linter finds nothing in it.
struct CleanStringsTableTests {
  /// What the full road does with `bytes`: nil when the reader refuses them, else the
  /// linter's findings on the table alone and its binary property list.
  static func fullRoad(_ bytes: [UInt8]) -> (findings: [String], binary: [UInt8])? {
    guard let file = try? StringsFile(bytes: bytes, path: "T.strings") else { return nil }
    let findings = StringsLinter().check(file).map(\.description)
    let binary = (try? PropertyListValue.dictionary(file.dictionary).encoded(as: .binary1)) ?? []
    return (findings, binary)
  }

  /// Checks the twin rule on one table; true when the clean road took it.
  @discardableResult
  static func agree(_ bytes: [UInt8], _ label: String) -> Bool {
    let clean = CleanStringsTable.binary(bytes)
    let full = fullRoad(bytes)
    let text =
      StringsFile.propertyListFormat(of: bytes) == nil
      && [.utf8, .utf8WithBOM].contains(StringsFile.detectEncoding(bytes))
    if let clean {
      #expect(full?.findings == [], "\(label): the clean road took a table with findings")
      #expect(full?.binary == clean, "\(label): the clean road wrote other bytes")
    } else if text, let full {
      #expect(!full.findings.isEmpty, "\(label): a clean table left to the full road")
    }
    return clean != nil
  }

  @Test("the shapes a table takes: escapes, unquoted strings, comments, the key as its value")
  func shapes() {
    let taken = [
      "", "/* only a comment */\n", "\u{FEFF}\"a\" = \"b\";",
      "\"a\" = \"b\"; // trailing\n/* c */ \"c\" = 'd';\n",
      "key = value;\nother.key-1 = \"x\";", "\"same\";\n\"a\\\"q\" = \"tab\\there\\n\";",
      "\"\\U00e9t\\U00E9\" = \"\\UD83D\\UDE00 \\101\\7 \\\\ \\/\";",
      "\"\" = \"\";", "\"fmt\" = \"%@ of %lld, 100%%\";", "\"ja\" = \"日本語の%1$@と%2$@\";",
    ]
    for text in taken {
      #expect(Self.agree(Array(text.utf8), text), "not taken: \(text)")
    }
    let left = [
      "\"a\" = \"b\";\n\"a\" = \"c\";", "\"a\" = \"b\";\n\"a\" = \"b\";", "\"a\" = \"\";",
      "\"a\" = (\"x\");", "\"a\" = { b = c; };", "\"a\" = <0fab>;", "\"a\" = \"b\"",
      "\"a\" = \"%d %s\";", "\"a\" = \"%2$@\";", "\"a\" \"b\";", "/* open", "\"a\" = \"b;",
      "<?xml version=\"1.0\"?><plist><dict/></plist>",
    ]
    for text in left {
      #expect(!Self.agree(Array(text.utf8), text), "taken: \(text)")
    }
    // Bytes that are not UTF-8, and UTF-16, are the full reader's.
    #expect(CleanStringsTable.binary([0x22, 0x61, 0x22, 0x3D, 0x22, 0xFF, 0x22, 0x3B]) == nil)
    #expect(CleanStringsTable.binary([0xFF, 0xFE, 0x61, 0x00, 0x3B, 0x00]) == nil)
  }

  @Test("random tables: the clean road's bytes are the full road's, and it takes every clean one")
  func randomTables() {
    let seed = SeededGenerator.seed("clean strings tables")
    var random = SeededGenerator(seed: seed)
    let pieces = [
      "a", "b", "é", "日本", "%@", "%d", "%1$@", "%%", "\\n", "\\\"", "\\U00e9", "\\101", " ",
      "100%", "%lld", "\\\\", "x.y",
    ]
    var taken = 0
    for round in 0..<600 {
      var text = ""
      var keys: [String] = []
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        if Int.random(in: 0..<4, using: &random) == 0 { text += "/* note */\n" }
        let key: String
        if !keys.isEmpty, Int.random(in: 0..<10, using: &random) == 0 {
          key = keys.randomElement(using: &random) ?? "k"
        } else {
          key = "k\(keys.count)" + (pieces.randomElement(using: &random) ?? "")
        }
        keys.append(key)
        var value = ""
        for _ in 0..<Int.random(in: 0...3, using: &random) {
          value += pieces.randomElement(using: &random) ?? ""
        }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: text += "\"\(key)\";\n"
        case 1: text += "\"\(key)\" = (\"\(value)\");\n"
        default: text += "\"\(key)\" = \"\(value)\";\n"
        }
      }
      if Self.agree(Array(text.utf8), "round \(round) (seed \(seed)): \(text)") { taken += 1 }
    }
    // Most random tables have something to report; some are clean.
    #expect(taken > 20)
  }

  @Test(
    "every .strings table of the corpus: the same bytes on both roads",
    .enabled(if: Corpus.isPresent, Corpus.reason(".")))
  func corpus() throws {
    let tables = try TableDiscovery.tables(in: [Corpus.path(".")]).filter { $0.kind == .strings }
    var taken = 0
    for location in tables {
      let bytes = try FileIO.read(location.path)
      if Self.agree(bytes, location.path) { taken += 1 }
    }
    print("clean strings tables: \(taken) of \(tables.count) corpus tables took the clean road")
    #expect(tables.count > 100)
    #expect(taken > 20)
  }

  @Test("a compile of several languages, or of a table with findings, says what it said before")
  func compilerRoads() throws {
    let folder = try TableFolder([
      "Solo/en.lproj/Clean.strings": "\"a\" = \"b\";\n",
      "Solo/en.lproj/Empty.strings": "\"a\" = \"\";\n",
      "Pair/en.lproj/Localizable.strings": "\"a\" = \"%@\";\n\"b\" = \"c\";\n",
      "Pair/de.lproj/Localizable.strings": "\"a\" = \"%d\";\n",
    ])
    let locations = try TableDiscovery.tables(in: [folder.folder.path])
    let compiled = try StringsCompiler().compile(locations)
    let warnings = compiled.warnings.map(\.description).sorted()
    #expect(warnings.count == 3, "\(warnings)")
    #expect(warnings.contains { $0.contains("Empty.strings:1:1: warning: empty value for \"a\"") })
    #expect(
      warnings.contains { $0.contains("de.lproj/Localizable.strings") && $0.contains("\"b\"") })
    #expect(warnings.contains { $0.contains("de.lproj/Localizable.strings:1:1: ") })
    for output in compiled.outputs {
      let source = try #require(locations.first { $0.path.hasSuffix(output.relativePath) })
      #expect(output.bytes == Self.fullRoad(try FileIO.read(source.path))?.binary)
    }
    #expect(compiled.outputs.count == 4)
  }
}

/// `bundlekit.json`'s schema, decoded by Foundation's own `JSONDecoder`.
struct StringsSettingsTests {
  func decode(_ json: String) throws -> StringsSettings {
    try JSONDecoder().decode(StringsSettings.self, from: Data(json.utf8))
  }

  @Test("every setting read; severities by rule")
  func settings() throws {
    let settings = try decode(
      """
      {"developmentLanguage": "de", "accessLevel": "public", "enumName": "L", "template": "t",
       "warningsAsErrors": true, "notFormat": false, "pruneBelow": 1,
       "severities": {"unsafe-placeholder": "error", "empty-value": "ignore"}, "format": "json"}
      """)
    #expect(settings.developmentLanguage == "de")
    #expect(settings.accessLevel == "public")
    #expect(settings.warningsAsErrors == true)
    #expect(settings.notFormat == false)
    #expect(settings.pruneBelow == 1)
    #expect(settings.severities == ["empty-value=ignore", "unsafe-placeholder=error"])
    #expect(try decode("{}") == StringsSettings())
  }

  @Test("unknown keys and bad values are refused, all of them, each by its key")
  func refusals() throws {
    do {
      _ = try decode(
        """
        {"enumNme": "X", "accessLevel": "open", "pruneBelow": "most", "notFormat": 1,
         "severities": {"empty-value": 3}, "developmentLanguage": ""}
        """)
      Issue.record("decoded")
    } catch let refused as StringsSettings.Refusals {
      let keys = Set(refused.refusals.map(\.key))
      #expect(
        keys == [
          "enumNme", "accessLevel", "pruneBelow", "notFormat", "empty-value", "developmentLanguage",
        ])
      #expect(
        refused.refusals.contains {
          $0.message == "'accessLevel' must be \"public\" or \"internal\", not \"open\""
        })
    }
    #expect(throws: StringsSettings.Refusals.self) { try decode("{\"severities\": [1]}") }
    #expect(throws: StringsSettings.Refusals.self) { try decode("{\"pruneBelow\": 1.5}") }
  }
}
