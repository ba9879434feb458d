import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

/// What CoreFoundation reads and Xcode builds compiles: placeholder and plural findings are
/// lint warnings, only unreadable or ambiguous tables stop a compile.
struct CompilePolicyTests {
  static let russianWithoutOther = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>files</key>
    \t<dict>
    \t\t<key>NSStringLocalizedFormatKey</key>
    \t\t<string>%#@n@</string>
    \t\t<key>n</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>NSStringFormatValueTypeKey</key>
    \t\t\t<string>d</string>
    \t\t\t<key>one</key>
    \t\t\t<string>%d файл</string>
    \t\t\t<key>few</key>
    \t\t\t<string>%d файла</string>
    \t\t\t<key>many</key>
    \t\t\t<string>%d файлов</string>
    \t\t</dict>
    \t</dict>
    </dict>
    </plist>

    """

  func readableButOdd() throws -> TableFolder {
    try TableFolder([
      "en.lproj/Localizable.strings": """
      "stray" = "Save 50% now, %@";
      "parser" = "Name: %s";
      "gap" = "%2$@ only";
      "files" = "files";

      """,
      "ru.lproj/Localizable.strings": "\"stray\" = \"Скидка %@\";\n",
      "ru.lproj/Localizable.stringsdict": Self.russianWithoutOther,
    ])
  }

  @Test("compile takes a stray %, %s and a Russian plural without 'other'; lint --strict does not")
  func compileTakesWhatXcodeBuilds() throws {
    let tables = try readableButOdd()
    let output = try TemporaryFolder()
    let result = try StringsCompiler().compile(try tables.tables(), into: output.path)
    let (written, warnings) = (result.paths, result.warnings)
    #expect(written.count == 3)
    #expect(warnings.allSatisfy { $0.severity == .warning })
    let rules = Set(warnings.compactMap(\.stringsRule))
    #expect(rules.isSuperset(of: [.unsafePlaceholder, .unusedArgument, .pluralForms]), "\(rules)")
    // The binary tables hold exactly what Foundation reads from the sources.
    let compiled = try PropertyListDocument(
      contentsOfFile: output.file("en.lproj/Localizable.strings"))
    #expect(compiled.value["parser"] == .string("Name: %s"))
    // The same findings fail `lint --strict` and `compile --warnings-as-errors`.
    var strict = SeverityPolicy()
    strict.warningsAsErrors = true
    let errors = strict.apply(StringsLinter().lint(try tables.tables())).filter {
      $0.severity == .error
    }
    #expect(errors.count >= 3)
    var compiler = StringsCompiler()
    compiler.policy.warningsAsErrors = true
    #expect(throws: DiagnosticsError.self) { try compiler.compile(try tables.tables()) }
    // And a single rule can be raised, or silenced.
    var raised = SeverityPolicy.compile
    #expect(raised.set("unsafe-placeholder=error") == nil)
    #expect(raised.set("syntax=warning") != nil)
    #expect(raised.set("nonsense=error") != nil)
    let findings = raised.apply(StringsLinter().lint(try tables.tables()))
    #expect(findings.filter { $0.severity == .error }.map(\.stringsRule) == [.unsafePlaceholder])
    var silenced = SeverityPolicy()
    _ = silenced.set("plural-forms=ignore")
    #expect(
      !silenced.apply(StringsLinter().lint(try tables.tables())).contains {
        $0.stringsRule == .pluralForms
      })
  }

  @Test("compile refuses only what CoreFoundation cannot read; two values for a key warn")
  func compileRefuses() throws {
    let conflicting = try TableFolder([
      "en.lproj/A.strings": "\"k\" = \"one\";\n\"k\" = \"two\";\n"
    ])
    let compiled = try StringsCompiler().compile(try conflicting.tables())
    #expect(compiled.warnings.map(\.stringsRule) == [.conflictingDuplicate])
    let sameTwice = try TableFolder(["en.lproj/A.strings": "\"k\" = \"one\";\n\"k\" = \"one\";\n"])
    #expect(throws: Never.self) { try StringsCompiler().compile(try sameTwice.tables()) }
    let broken = try TableFolder(["en.lproj/A.strings": "\"k\" = \"one\"\n"])
    #expect(throws: DiagnosticsError.self) { try StringsCompiler().compile(try broken.tables()) }
  }

  @Test("a key or a whole table marked bundlekit:not-format is text, not a format")
  func notFormat() throws {
    let tables = try TableFolder([
      "en.lproj/Key.strings": """
      /* Fed to our own parser. bundlekit:not-format */
      "pattern" = "%s and %1$@ and %9$d";
      "other" = "%s";

      """,
      "en.lproj/File.strings": """
      /* bundlekit:not-format-file */
      "a" = "%s";
      "b" = "%3$@";

      """,
      "Catalog.xcstrings": """
      {"sourceLanguage": "en", "version": "1.0", "strings": {
        "raw %s": {"comment": "bundlekit:not-format", "localizations": {"en": {"stringUnit": {"state": "translated", "value": "raw %s"}}}},
        "fmt %s": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "fmt %s"}}}}
      }}
      """,
    ])
    let findings = StringsLinter().lint(try tables.tables())
    let keys = findings.map(\.message)
    #expect(!keys.contains { $0.contains("\"pattern\"") }, "\(keys)")
    #expect(keys.contains { $0.contains("\"other\"") }, "\(keys)")
    #expect(!findings.contains { $0.path?.hasSuffix("File.strings") == true }, "\(keys)")
    #expect(!keys.contains { $0.contains("\"raw %s\"") }, "\(keys)")
    #expect(keys.contains { $0.contains("\"fmt %s\"") }, "\(keys)")
  }

  @Test("a regional variant falls back to its base language: no noise about keys it lacks")
  func regionalVariants() throws {
    let tables = try TableFolder([
      "en.lproj/L.strings": "\"a\" = \"Color\";\n\"b\" = \"Hello\";\n",
      "en-GB.lproj/L.strings": "\"a\" = \"Colour\";\n",
      "en_AU.lproj/L.strings": "\"a\" = \"Colour\";\n",
      "pt-BR.lproj/L.strings": "\"a\" = \"Cor\";\n",
      "Catalog.xcstrings": """
      {"sourceLanguage": "en", "version": "1.0", "strings": {
        "k": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "Color"}},
          "fr": {"stringUnit": {"state": "translated", "value": "Couleur"}},
          "fr-CA": {"stringUnit": {"state": "translated", "value": "Couleur"}},
          "en-GB": {"stringUnit": {"state": "translated", "value": "Colour"}}}},
        "j": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "J"}},
          "fr": {"stringUnit": {"state": "translated", "value": "J"}}}}
      }}
      """,
    ])
    let missing = StringsLinter().lint(try tables.tables()).filter {
      $0.stringsRule == .missingTranslation
    }
    .map(\.description)
    #expect(!missing.contains { $0.contains("en-GB") || $0.contains("en_AU") }, "\(missing)")
    // pt-BR has no pt table to fall back to: it is told.
    #expect(missing.contains { $0.contains("pt-BR") && $0.contains("\"b\"") }, "\(missing)")
    // j: fr-CA falls back to fr, en-GB to en.
    #expect(!missing.contains { $0.contains("\"j\"") }, "\(missing)")
  }

  @Test("text that is not valid UTF-8 or UTF-16 is an error at its line and column")
  func invalidEncoding() throws {
    let folder = try TemporaryFolder()
    let utf8 = folder.file("en.lproj/A.strings")
    try FileIO.createFolders(for: utf8)
    try FileIO.writeAtomically(
      Array("\"a\" = \"ok\";\n\"b\" = \"bad ".utf8) + [0xFF] + Array(" x\";\n".utf8), to: utf8)
    do {
      _ = try StringsFile(contentsOfFile: utf8)
      Issue.record("invalid UTF-8 was read")
    } catch {
      #expect(error.description.hasPrefix("\(utf8):2:12: error: invalid UTF-8"), "\(error)")
    }
    // A lone surrogate in UTF-16 (little-endian, with a byte order mark).
    let utf16 = folder.file("de.lproj/A.strings")
    try FileIO.createFolders(for: utf16)
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in Array("\"a\" = \"x\";\n\"b\" = \"".utf16) + [0xD800] + Array("\";\n".utf16) {
      bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    try FileIO.writeAtomically(bytes, to: utf16)
    do {
      _ = try StringsFile(contentsOfFile: utf16)
      Issue.record("a lone surrogate was read")
    } catch {
      #expect(error.description.hasPrefix("\(utf16):2:8: error: invalid UTF-16"), "\(error)")
    }
    // Valid text in every script still reads, as do the corpus's UTF-16 files.
    try FileIO.writeAtomically(Array("\"k\" = \"日本語 ру 🎉\";\n".utf8), to: utf8)
    #expect(try StringsFile(contentsOfFile: utf8).dictionary["k"] == .string("日本語 ру 🎉"))
  }

  @Test("the strict UTF-8 check agrees with Swift's own validation on random bytes")
  func utf8CheckAgrees() throws {
    let seed = SeededGenerator.seed("utf8-validation")
    var random = SeededGenerator(seed: seed)
    for _ in 0..<3000 {
      let count = Int.random(in: 0..<24, using: &random)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      if Bool.random(using: &random) {
        bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
      }
      let table =
        Array("\"k\" = \"".utf8) + bytes.filter { $0 != 0x22 && $0 != 0x5C }
        + Array("\";".utf8)
      let valid = String(validating: table, as: UTF8.self) != nil
      let read = (try? StringsFile(bytes: table, path: "t.strings")) != nil
      #expect(read == valid, "\(table)")
    }
  }
}

/// `% @`: the space flag, as Foundation reads it.
struct SpaceFlagTests {
  @Test("% @ and % d are placeholders; formatting matches Foundation's")
  func spaceFlag() {
    let specifiers = FormatSpecifier.parse("Value % @ and % d")
    #expect(specifiers.map(\.text) == ["% @", "% d"])
    #expect(specifiers.map(\.kind) == [.object, .signedInteger])
    #expect(
      LocalizedFormatter.format("a % @ b % d", arguments: ["x", 5])
        == String(format: "a % @ b % d", "x", 5))
  }

  @Test("a table that uses it is not told its argument is missing")
  func lintTakesIt() throws {
    let tables = try TableFolder([
      "en.lproj/L.strings": "\"v\" = \"Value %@\";\n",
      "de.lproj/L.strings": "\"v\" = \"Wert % @\";\n",
    ])
    let findings = StringsLinter().lint(try tables.tables())
    #expect(findings.isEmpty, "\(findings)")
  }
}
