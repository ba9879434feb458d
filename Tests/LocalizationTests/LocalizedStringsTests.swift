import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

struct FormatterTests {
  @Test("positional arguments, reordering, width and precision, %%")
  func format() {
    #expect(LocalizedFormatter.format("%2$@ %1$@", arguments: ["world", "Hello"]) == "Hello world")
    #expect(
      LocalizedFormatter.format("%@ has %d items (%.1f%%)", arguments: ["Ada", 3, 42.25])
        == "Ada has 3 items (42.2%)")
    #expect(
      LocalizedFormatter.format("%05.1f|%-4d|%x|%lld", arguments: [3.14159, 7, 255, Int64.max])
        == "003.1|7   |ff|9223372036854775807")
    #expect(
      LocalizedFormatter.format("%d and %f from text", arguments: ["12", "2.5"])
        == "12 and 2.500000 from text")
    #expect(
      LocalizedFormatter.format("%@", arguments: [URL(fileURLWithPath: "/tmp")]) == "file:///tmp/")
    #expect(LocalizedFormatter.format("100%% sure, %@", arguments: ["yes"]) == "100% sure, yes")
    #expect(LocalizedFormatter.format("missing %2$@", arguments: ["only one"]) == "missing %2$@")
  }

  /// Found by fuzzing `strings lint`: a position at the very end, a position of zero and one
  /// too long for an Int once crashed the parser or everything that counts positions.
  @Test(
    "odd positions are text, never a crash: %1$ at the end, %0$@, %99999999999999999999$@",
    arguments: ["%1$", "a %2$", "%1$#", "%1$#@", "%0$@", "%99999999999999999999$@", "%10000$@"])
  func oddPosition(text: String) {
    #expect(FormatSpecifier.parse(text).isEmpty)
    #expect(FormatSignature(text).gaps.isEmpty)
    #expect(LocalizedFormatter.format(text, arguments: ["x"]) == text)
  }

  @Test("large positions and numbers beyond Int64: held to range, never a crash")
  func largePositions() {
    #expect(FormatSpecifier.parse("%9999$@ %1$d").map(\.position) == [9_999, 1])
    // Numbers beyond Int64 as integer arguments: held to its range, never a crash.
    #expect(
      LocalizedFormatter.format(
        "%d %d %d %d %d",
        arguments: [Double.infinity, -Double.infinity, Double.nan, "99999999999999999999", 9.3e18])
        == "9223372036854775807 -9223372036854775808 0 9223372036854775807 9223372036854775807")
    #expect(FormatSignature("%9999$@").gaps.count == 9_998)
    #expect(
      FormatSignature("%9999$@ %2$@ %4$@").gapMessages == [
        "argument 1 is never used, so the arguments after it cannot be found",
        "argument 3 is never used, so the arguments after it cannot be found",
        "arguments 5 to 9998 are never used, so the arguments after them cannot be found",
      ])
  }
}

/// A folder of `<lang>.lproj` tables, text or compiled.
func makeBundle(compiled: Bool) throws -> TemporaryFolder {
  let folder = try TemporaryFolder()
  let tables: [String: PropertyListValue] = [
    "en.lproj/Localizable.strings": ["greeting": "Hello, %@!", "only.en": "English only"],
    "fr.lproj/Localizable.strings": ["greeting": "Bonjour, %@ !"],
    "ru.lproj/Localizable.strings": ["greeting": "Привет, %@!"],
    "en.lproj/Localizable.stringsdict": [
      "files": [
        "NSStringLocalizedFormatKey": "%@ has %#@files@",
        "files": [
          "NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
          "zero": "no files", "one": "one file", "other": "%d files",
        ],
      ]
    ],
    "fr.lproj/Localizable.stringsdict": [
      "files": [
        "NSStringLocalizedFormatKey": "%@ a %#@files@",
        "files": [
          "NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
          "one": "%d fichier", "other": "%d fichiers",
        ],
      ]
    ],
    "ru.lproj/Localizable.stringsdict": [
      "files": [
        "NSStringLocalizedFormatKey": "У %@ %#@files@",
        "files": [
          "NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
          "one": "%d файл", "few": "%d файла", "many": "%d файлов", "other": "%d файла",
        ],
      ]
    ],
  ]
  for (path, value) in tables {
    let full = folder.file(path)
    try FileIO.createFolders(for: full)
    if compiled || path.hasSuffix("stringsdict") {
      try FileIO.writeAtomically(try value.encoded(as: compiled ? .binary1 : .xml1), to: full)
    } else {
      try FileIO.writeAtomically(try value.encoded(as: .openstep), to: full)
    }
  }
  return folder
}

struct LocalizedStringsTests {
  @Test("plurals in three languages, text and compiled tables", arguments: [false, true])
  func plurals(compiled: Bool) throws {
    let folder = try makeBundle(compiled: compiled)
    let strings = LocalizedStrings(path: folder.path)
    #expect(strings.availableLanguages == ["en", "fr", "ru"])
    #expect(
      strings.localized("files", language: "en", arguments: ["Ada", 1]) == "Ada has one file")
    #expect(strings.localized("files", language: "en", arguments: ["Ada", 5]) == "Ada has 5 files")
    // English has no `zero` category: 0 is `other`.
    #expect(strings.localized("files", language: "en", arguments: ["Ada", 0]) == "Ada has 0 files")
    #expect(strings.localized("files", language: "fr", arguments: ["Ada", 0]) == "Ada a 0 fichier")
    #expect(
      strings.localized("files", language: "fr", arguments: ["Ada", 2]) == "Ada a 2 fichiers")
    #expect(strings.localized("files", language: "ru", arguments: ["Аде", 21]) == "У Аде 21 файл")
    #expect(strings.localized("files", language: "ru", arguments: ["Аде", 3]) == "У Аде 3 файла")
    #expect(
      strings.localized("files", language: "ru", arguments: ["Аде", 11]) == "У Аде 11 файлов")
    #expect(strings.localized("greeting", language: "ru", arguments: ["Ада"]) == "Привет, Ада!")
  }

  @Test("fallbacks: region to language to development language; a missing key is itself, reported")
  func fallbacks() throws {
    let folder = try makeBundle(compiled: true)
    let strings = LocalizedStrings(path: folder.path)
    #expect(
      strings.localized("greeting", language: "fr-CA", arguments: ["Ada"]) == "Bonjour, Ada !")
    #expect(strings.localized("only.en", language: "fr") == "English only")
    #expect(strings.localized("greeting", language: "ja", arguments: ["Ada"]) == "Hello, Ada!")
    final class Box: @unchecked Sendable { var missing: [String] = [] }
    let box = Box()
    strings.missingKeyHandler = { key, _, _ in box.missing.append(key) }
    #expect(strings.localized("nope", language: "fr") == "nope")
    #expect(box.missing == ["nope"])
  }

  @Test("safe from many threads at once")
  func concurrency() throws {
    let folder = try makeBundle(compiled: true)
    let strings = LocalizedStrings(path: folder.path)
    DispatchQueue.concurrentPerform(iterations: 200) { index in
      let language = ["en", "fr", "ru"][index % 3]
      let text = strings.localized("files", language: language, arguments: ["x", index])
      #expect(!text.isEmpty && !text.contains("%"))
    }
  }
}

struct PluralResolutionTests {
  func bundle(_ tables: [String: PropertyListValue]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (path, value) in tables {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(try value.encoded(as: .binary1), to: folder.file(path))
    }
    return folder
  }

  static func plural(_ forms: [String: String], type: String = "d") -> PropertyListValue {
    var variable: PropertyListDictionary = [
      "NSStringFormatSpecTypeKey": "NSStringPluralRuleType",
      "NSStringFormatValueTypeKey": .string(type),
    ]
    for (category, text) in forms.sorted(by: { $0.key < $1.key }) {
      variable[category] = .string(text)
    }
    return .dictionary(variable)
  }

  @Test("two variables, each with its own count and language rules")
  func twoVariables() throws {
    let folder = try bundle([
      "pl.lproj/Localizable.stringsdict": [
        "files in folders": [
          "NSStringLocalizedFormatKey": "%#@files@ w %#@folders@",
          "files": Self.plural([
            "one": "%d plik", "few": "%d pliki", "many": "%d plików", "other": "%d pliku",
          ]),
          "folders": Self.plural([
            "one": "%d folderze", "few": "%d folderach", "many": "%d folderach",
            "other": "%d folderu",
          ]),
        ]
      ]
    ])
    let strings = LocalizedStrings(path: folder.path, developmentLanguage: "pl")
    #expect(
      strings.localized("files in folders", language: "pl", arguments: [1, 3])
        == "1 plik w 3 folderach")
    #expect(
      strings.localized("files in folders", language: "pl", arguments: [22, 1])
        == "22 pliki w 1 folderze")
    #expect(
      strings.localized("files in folders", language: "pl", arguments: [5, 2])
        == "5 plików w 2 folderach")
  }

  @Test("a form with no placeholder does not shift the arguments after it; nested variables")
  func shiftingAndNesting() throws {
    let folder = try bundle([
      "en.lproj/Localizable.stringsdict": [
        "summary": [
          "NSStringLocalizedFormatKey": "%#@apples@ for %@",
          "apples": Self.plural(["zero": "no apples", "one": "one apple", "other": "%d apples"]),
        ],
        "nested": [
          "NSStringLocalizedFormatKey": "%#@outer@",
          "outer": Self.plural(["one": "one box of %#@inner@", "other": "%d boxes of %#@inner@"]),
          "inner": Self.plural(["one": "one item", "other": "%d items"]),
        ],
      ]
    ])
    let strings = LocalizedStrings(path: folder.path)
    // English has no `zero`: 0 takes `other`. "one apple" holds no %d, yet %@ still takes argument 2.
    #expect(
      strings.localized("summary", language: "en", arguments: [1, "Ada"]) == "one apple for Ada")
    #expect(
      strings.localized("summary", language: "en", arguments: [4, "Ada"]) == "4 apples for Ada")
    #expect(strings.localized("nested", language: "en", arguments: [2]) == "2 boxes of 2 items")
    #expect(strings.localized("nested", language: "en", arguments: [1]) == "one box of one item")
  }

  @Test("catalog substitutions compiled by StringsTable resolve at run time")
  func catalogSubstitutions() throws {
    let output = try TemporaryFolder()
    let compile = try BundleKitTool.run([
      "strings", "compile", Fixture.catalog("Inbox"),
      "--output-dir", output.path,
    ])
    try #require(compile.status == 0, "\(compile.stderr)")
    let strings = LocalizedStrings(path: output.path)
    #expect(
      strings.localized("inbox.summary", table: "Inbox", language: "en", arguments: ["Ada", 1, 3])
        == "Ada, you have 1 unread message in 3 folders")
    #expect(
      strings.localized("inbox.summary", table: "Inbox", language: "en", arguments: ["Ada", 2, 1])
        == "Ada, you have 2 unread messages in one folder")
  }
}
