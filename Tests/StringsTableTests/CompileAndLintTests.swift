import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

/// A package-shaped folder of tables written for a test.
struct TableFolder {
  let folder: TemporaryFolder

  init(_ files: [String: String]) throws {
    folder = try TemporaryFolder()
    for (path, text) in files {
      let full = folder.file(path)
      try FileIO.createFolders(for: full)
      try FileIO.writeAtomically(Array(text.utf8), to: full)
    }
  }

  var path: String { folder.path }
  func file(_ name: String) -> String { folder.file(name) }
  func tables() throws -> [TableLocation] { try TableDiscovery.tables(in: [path]) }
}

let pluralsEnglish = """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  <dict>
  \t<key>%d files</key>
  \t<dict>
  \t\t<key>NSStringLocalizedFormatKey</key>
  \t\t<string>%#@files@</string>
  \t\t<key>files</key>
  \t\t<dict>
  \t\t\t<key>NSStringFormatSpecTypeKey</key>
  \t\t\t<string>NSStringPluralRuleType</string>
  \t\t\t<key>NSStringFormatValueTypeKey</key>
  \t\t\t<string>d</string>
  \t\t\t<key>one</key>
  \t\t\t<string>%d file</string>
  \t\t\t<key>other</key>
  \t\t\t<string>%d files</string>
  \t\t</dict>
  \t</dict>
  </dict>
  </plist>
  """

let catalog = """
  {
    "sourceLanguage" : "en",
    "strings" : {
      "Welcome" : {
        "comment" : "Title",
        "localizations" : {
          "de" : { "stringUnit" : { "state" : "translated", "value" : "Willkommen" } },
          "fr" : { "stringUnit" : { "state" : "translated", "value" : "Bienvenue" } }
        }
      },
      "Only English" : { },
      "Brand" : {
        "shouldTranslate" : false,
        "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "BundleKit" } } }
      },
      "%lld apples" : {
        "localizations" : {
          "en" : { "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld apple" } },
            "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld apples" } } } } },
          "fr" : { "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld pomme" } },
            "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld pommes" } } } } }
        }
      },
      "%@ has %#@count@" : {
        "localizations" : {
          "en" : {
            "stringUnit" : { "state" : "translated", "value" : "%@ has %#@count@" },
            "substitutions" : { "count" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg item" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg items" } } } } } }
          }
        }
      }
    },
    "version" : "1.0"
  }
  """

struct CatalogCompileTests {
  @Test("a catalog compiles per language, falling back to the source language")
  func compile() throws {
    let parsed = try StringCatalog(bytes: Array(catalog.utf8), path: "Localizable.xcstrings")
    #expect(parsed.languages == ["en", "de", "fr"])
    let compiled = parsed.compile()
    #expect(
      compiled["de"]?.strings == [
        "Welcome": "Willkommen", "Only English": "Only English", "Brand": "BundleKit",
      ])
    #expect(compiled["en"]?.strings["Welcome"] == "Welcome")
    #expect(compiled["fr"]?.strings["Welcome"] == "Bienvenue")
    // Plurals go to the stringsdict, in the language's own words or the source's.
    let frApples = try #require(compiled["fr"]?.stringsdict["%lld apples"])
    #expect(frApples["NSStringLocalizedFormatKey"] == "%#@format@")
    #expect(
      frApples["format"] == [
        "NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "lld",
        "one": "%lld pomme", "other": "%lld pommes",
      ])
    #expect(compiled["de"]?.stringsdict["%lld apples"]?["format"]?["one"] == "%lld apple")
    // Substitutions: `%arg` becomes the substitution's own argument.
    let substitution = try #require(compiled["de"]?.stringsdict["%@ has %#@count@"])
    #expect(substitution["NSStringLocalizedFormatKey"] == "%@ has %#@count@")
    #expect(substitution["count"]?["one"] == "%2$lld item")
    #expect(substitution["count"]?["NSStringFormatValueTypeKey"] == "lld")
    // The compiled stringsdict passes our own stringsdict checks.
    let bytes = try PropertyListValue.dictionary(compiled["fr"]?.stringsdict ?? [:]).encoded(
      as: .xml1)
    #expect(try StringsdictFile(bytes: bytes, path: "fr.stringsdict").validate().isEmpty)
  }

  @Test(
    "xcstrings-tool's catalogs compile, its error fixtures too (as Xcode builds them), and fail lint --strict",
    .enabled(
      if: Corpus.has("xcstrings-tool-fixtures"), Corpus.reason("xcstrings-tool-fixtures"))
  )
  func fixtures() throws {
    var strict = SeverityPolicy()
    strict.warningsAsErrors = true
    for path in Corpus.files(in: "xcstrings-tool-fixtures") where path.hasSuffix(".xcstrings") {
      let location = try #require(TableLocation(path: path))
      let diagnostics = StringsLinter().lint([location])
      let errors = strict.apply(diagnostics).filter { $0.severity == .error }
      // What CoreFoundation reads compiles: placeholder findings are warnings to compile.
      let compileErrors = SeverityPolicy.compile.apply(diagnostics).filter {
        $0.severity == .error
      }
      #expect(compileErrors.isEmpty, "\(path): \(compileErrors)")
      if URL(fileURLWithPath: path).lastPathComponent.hasPrefix("!") {
        #expect(!errors.isEmpty, "\(path) should give an error")
      } else {
        #expect(errors.isEmpty, "\(path): \(errors)")
      }
    }
  }

  @Test("catalog substitutions compile with the positions their argNum gives")
  func substitutions() throws {
    let substitution = try StringCatalog(contentsOfFile: Fixture.catalog("Inbox"))
    let rules = try #require(substitution.compile()["en"]?.stringsdict["inbox.summary"])
    // In the natural order: Xcode writes no positions then.
    #expect(rules["NSStringLocalizedFormatKey"] == "%@, you have %#@unread@ in %#@folders@")
    #expect(rules["unread"]?["one"] == "%2$lld unread message")
    #expect(rules["folders"]?["one"] == "one folder")
    #expect(rules["folders"]?["other"] == "%3$lld folders")
  }
}

struct SubstitutionOrderTests {
  /// Independent of the compiler: for every variable of every compiled stringsdict, the
  /// argument its `%#@name@` takes in the format key (its position, or its turn among the
  /// placeholders) must be the catalog's argNum. Python reads both files.
  static let oracle = #"""
    import json, plistlib, re, sys, os
    catalog = json.load(open(sys.argv[1]))
    table = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    checked = wrong = 0
    spec = re.compile(r"%(?:(\d+)\$)?(#@(\w+)@|[-+ #0']*[\d*]*(?:\.[\d*]+)?(?:hh|h|ll|l|q|L|z|t|j)?[@dDuUxXoOfeEgGcCsSpaAF])|%%")
    for key, entry in catalog["strings"].items():
        for language, localization in entry.get("localizations", {}).items():
            substitutions = localization.get("substitutions")
            if not substitutions:
                continue
            path = os.path.join(sys.argv[2], f"{language}.lproj", f"{table}.stringsdict")
            rules = plistlib.load(open(path, "rb"))[key]
            turn = 0
            for match in spec.finditer(rules["NSStringLocalizedFormatKey"]):
                if match.group(0) == "%%":
                    continue
                turn += 1
                position = int(match.group(1)) if match.group(1) else turn
                name = match.group(3)
                if name and "argNum" in substitutions.get(name, {}):
                    checked += 1
                    if position != substitutions[name]["argNum"]:
                        wrong += 1
                        print(f"{language} {key} {name}: takes argument {position}, argNum {substitutions[name]['argNum']}")
    print(f"checked {checked} wrong {wrong}")
    """#

  @Test("substitutions in another order than their arguments get positions; Python checks each")
  func reordered() throws {
    let catalog = try StringCatalog(contentsOfFile: Fixture.catalog("Forum"))
    let compiled = catalog.compile()
    #expect(
      compiled["en"]?.stringsdict["thread.stats"]?["NSStringLocalizedFormatKey"]
        == "%#@count_posts@ by %#@count_participants@")
    #expect(
      compiled["de"]?.stringsdict["thread.stats"]?["NSStringLocalizedFormatKey"]
        == "%2$#@count_participants@ schrieben %1$#@count_posts@")
    #expect(
      compiled["ja"]?.stringsdict["thread.stats"]?["NSStringLocalizedFormatKey"]
        == "%1$@さん: %3$#@count_participants@、%2$#@count_posts@")
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    var catalogs = [Fixture.catalog("Forum"), Fixture.catalog("Inbox")]
    for folder in ["icecubes-xcstrings", "xcstrings-tool-fixtures", "xcstrings-tool-package"] {
      catalogs += Corpus.files(in: folder).filter {
        $0.hasSuffix(".xcstrings") && !Paths.lastComponent($0).hasPrefix("!")
      }
    }
    let folder = try TemporaryFolder()
    var checked = 0
    defer { #expect(checked >= 6, "the oracle checked \(checked) variables") }
    for (index, path) in catalogs.enumerated() {
      let out = folder.file("\(index)")
      let run = try BundleKitTool.run(["strings", "compile", path, "--output-dir", out])
      #expect(run.status == 0, "\(path): \(run.stderr)")
      let check = try Tool.run(python, ["-c", Self.oracle, path, out])
      let text = String(decoding: check.stdout, as: UTF8.self)
      #expect(check.status == 0, "\(check.stderr)")
      #expect(text.hasSuffix("wrong 0\n"), "\(path): \(text)")
      checked += Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
  }
}

struct StringsdictValidationTests {
  @Test(
    "SwiftGen's error fixtures give the errors they are named for",
    .enabled(if: Corpus.has("swiftgen-strings"), Corpus.reason("swiftgen-strings")))
  func swiftGenErrors() throws {
    let expectations = [
      "LocPluralErrorBothTypeKeys.stringsdict":
        "has both NSStringVariableWidthRuleType and NSStringLocalizedFormatKey",
      "LocPluralErrorInvalidVariableValue.stringsdict": "plural rules need a number",
      "LocPluralErrorMissingVariable.stringsdict": "no variable 'hat_bewertung' is defined",
      "LocPluralErrorPlaceholders.stringsdict":
        "argument 2 is used as an object (%@) and as a 32-bit integer",
    ]
    for (name, message) in expectations {
      let file = try StringsdictFile(contentsOfFile: Corpus.path("swiftgen-strings/\(name)"))
      let errors = file.validate().filter { $0.severity == .error }
      #expect(errors.contains { $0.message.contains(message) }, "\(name): \(errors)")
      #expect(errors.allSatisfy { $0.line != nil })
    }
    for name in ["Localizable.stringsdict", "LocPluralNested.stringsdict"] {
      let file = try StringsdictFile(contentsOfFile: Corpus.path("swiftgen-strings/\(name)"))
      #expect(file.validate().filter { $0.severity == .error }.isEmpty, "\(name)")
    }
  }

  @Test("plural rules: 'other' required, CLDR categories only")
  func pluralRules() throws {
    let broken = pluralsEnglish.replacingOccurrences(
      of: "<key>other</key>", with: "<key>several</key>")
    let diagnostics = try StringsdictFile(bytes: Array(broken.utf8), path: "x.stringsdict")
      .validate()
    #expect(
      diagnostics.map(\.description).contains(
        "x.stringsdict:5: error: \"%d files\": variable 'files' has 'several', which is not a plural category (zero, one, two, few, many, other) [plural-forms]"
      ))
    #expect(
      diagnostics.contains {
        $0.message.contains("has no 'other' form, which every language needs")
      })
  }
}

struct LintTests {
  @Test(
    "across languages: missing and extra keys, placeholder mismatches, duplicates, empty values")
  func acrossLanguages() throws {
    let tables = try TableFolder([
      "en.lproj/Localizable.strings":
        "\"hello\" = \"Hello %@\";\n\"count\" = \"%d items\";\n\"bye\" = \"Bye\";\n",
      "fr.lproj/Localizable.strings":
        "\"hello\" = \"Bonjour %d\";\n\"count\" = \"%d articles\";\n\"extra\" = \"En plus\";\n\"count\" = \"\";\n\"extra\" = \"En plus\";\n",
    ])
    let diagnostics = StringsLinter().lint(try tables.tables()).map(\.description)
    let fr = tables.file("fr.lproj/Localizable.strings")
    #expect(
      diagnostics.contains(
        "\(fr):1:1: error: \"hello\" (fr): argument 1 is a 32-bit integer but an object (%@) in the development language [placeholder-mismatch]"
      ))
    // Two values for one key: CoreFoundation reads the last, and so does the compile, with
    // a warning naming it; the same value twice is a milder warning.
    #expect(
      diagnostics.contains(
        "\(fr):4:1: warning: key \"count\" is defined again with another value (first at line 2); the last one, \"\", is what the app reads: keep one [conflicting-duplicate]"
      ), "\(diagnostics)")
    #expect(
      diagnostics.contains(
        "\(fr):5:1: warning: duplicate key \"extra\" (first at line 3), with the same value [duplicate-key]"
      ))
    #expect(diagnostics.contains("\(fr):4:1: warning: empty value for \"count\" [empty-value]"))
    #expect(
      diagnostics.contains("\(fr):3:1: warning: \"extra\" is not in the en table [extra-key]"))
    #expect(
      diagnostics.contains { $0.hasPrefix("\(fr): warning: missing \"bye\", defined in en at") })
  }

  @Test("a table defined as both .strings and .xcstrings is an error")
  func sideBySide() throws {
    let tables = try TableFolder([
      "en.lproj/Localizable.strings": "a = b;",
      "Localizable.xcstrings": catalog,
    ])
    let errors = StringsLinter().lint(try tables.tables()).filter { $0.severity == .error }
    #expect(errors.count == 1)
    #expect(errors.first?.message.contains("also defined by") == true)
  }
}

struct CompileTests {
  @Test("compile keeps the lproj layout, writes binary plists Foundation loads through Bundle")
  func compileToBundleLayout() throws {
    let tables = try TableFolder([
      "Resources/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
      "Resources/fr.lproj/Localizable.strings": "\"hello\" = \"Bonjour\";\n",
      "Resources/en.lproj/Localizable.stringsdict": pluralsEnglish,
      "Resources/Catalog.xcstrings": catalog,
    ])
    let output = try TemporaryFolder()
    let written = try StringsCompiler().compile(try tables.tables(), into: output.path).paths
    let relative = written.map { String($0.dropFirst(output.path.count + 1)) }.sorted()
    #expect(
      relative == [
        "de.lproj/Catalog.strings", "de.lproj/Catalog.stringsdict",
        "en.lproj/Catalog.strings", "en.lproj/Catalog.stringsdict",
        "en.lproj/Localizable.strings", "en.lproj/Localizable.stringsdict",
        "fr.lproj/Catalog.strings", "fr.lproj/Catalog.stringsdict",
        "fr.lproj/Localizable.strings",
      ])
    for path in written {
      #expect(try FileIO.read(path).starts(with: Array("bplist00".utf8)))
    }
    let french = try #require(Bundle(path: output.file("fr.lproj")))
    #expect(french.localizedString(forKey: "hello", value: nil, table: nil) == "Bonjour")
    #expect(french.localizedString(forKey: "Welcome", value: nil, table: "Catalog") == "Bienvenue")
    let german = try #require(Bundle(path: output.file("de.lproj")))
    #expect(
      german.localizedString(forKey: "Only English", value: nil, table: "Catalog") == "Only English"
    )
    let plurals = try PropertyListSerialization.propertyList(
      from: Data(contentsOf: URL(fileURLWithPath: output.file("en.lproj/Localizable.stringsdict"))),
      format: nil)
    #expect(try FoundationBridge.value(plurals)["%d files"]?["files"]?["one"] == "%d file")
  }

  @Test("an error anywhere stops the run before anything is written")
  func allOrNothing() throws {
    let tables = try TableFolder([
      "en.lproj/Good.strings": "a = b;",
      "en.lproj/Bad.strings": "a = ",
    ])
    let output = try TemporaryFolder()
    #expect(throws: DiagnosticsError.self) {
      try StringsCompiler().compile(try tables.tables(), into: output.path)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
  }

  @Test("an output that cannot be written: one diagnostic naming the path that failed")
  func unwritableOutput() throws {
    let tables = try TableFolder(["en.lproj/Good.strings": "a = b;"])
    let output = try TemporaryFolder()
    try FileIO.writeAtomically(Array("not a folder".utf8), to: output.file("file"))
    do {
      _ = try StringsCompiler().compile(try tables.tables(), into: output.file("file"))
      Issue.record("compiling into a file should fail")
    } catch {
      #expect(
        "\(error)"
          == "\(output.file("file"))/en.lproj: error: cannot create the folder: Not a directory")
    }
  }
}

struct ConflictingDuplicateTests {
  @Test("a key twice with two values compiles as CoreFoundation reads it, the last value kept")
  func compiles() throws {
    // As a real app's merged tables have it.
    let tables = try TableFolder([
      "App/en.lproj/Localizable.strings":
        "/* Tab title */\n\"tab.home\" = \"Home\";\n\"tab.search\" = \"Search\";\n\n/* Tab title */\n\"tab.home\" = \"Start\";\n"
    ])
    let out = tables.file("out")
    let run = try BundleKitTool.run([
      "strings", "compile", tables.file("App"), "--output-dir", out, "--warnings",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "App/en.lproj/Localizable.strings:6:1: warning: key \"tab.home\" is defined again with another value (first at line 2); the last one, \"Start\", is what the app reads"
      ), "\(run.stderr)")
    let compiled = try PropertyListDocument(contentsOfFile: out + "/en.lproj/Localizable.strings")
    #expect(compiled.value["tab.home"] == "Start")
    if let plutil = Tool.path("plutil") {
      let reading = try Tool.run(
        plutil, ["-convert", "json", "-o", "-", tables.file("App/en.lproj/Localizable.strings")])
      let expected = try JSONSerialization.jsonObject(with: reading.stdout) as? [String: String]
      #expect(expected?["tab.home"] == "Start")
    }
    // Raised to an error, it stops the compile.
    let strict = try BundleKitTool.run([
      "strings", "compile", tables.file("App"), "--output-dir", tables.file("strict"),
      "--warnings-as-errors",
    ])
    #expect(strict.status == 1)
    #expect(!FileManager.default.fileExists(atPath: tables.file("strict/en.lproj")))
  }
}

struct LintFalsePositiveTests {
  @Test("text that only looks like a format: '% of', '100% sure', an app's own %0 and %1 tokens")
  func textLikePercent() throws {
    let tables = try TableFolder([
      // An Interface Builder table and an app that replaces %0/%1 itself.
      "en.lproj/Main.strings":
        "/* Class = \"UILabel\"; text = \"50% of screen\"; ObjectID = \"a1b-2c-3d4\"; */\n\"a1b-2c-3d4.text\" = \"50% of screen\";\n\"sure.title\" = \"100% sure\";\n\"track\" = \"Track %1 of %0 songs\";\n\"real\" = \"%d items\";\n",
      "fr.lproj/Main.strings":
        "\"a1b-2c-3d4.text\" = \"50 % de l’écran\";\n\"sure.title\" = \"Sûr à 100% sans doute\";\n\"track\" = \"Titre %1 sur %0 chansons\";\n\"real\" = \"%@ articles\";\n",
      // Keys whose values live in Info.plist; the empty key.
      "en.lproj/InfoPlist.strings": "\"CFBundleName\" = \"Shop\";\n",
      "fr.lproj/InfoPlist.strings":
        "\"CFBundleName\" = \"Boutique\";\n\"NSCameraUsageDescription\" = \"Pour scanner les codes\";\n",
      // Siri intents: Xcode generates the keys from the .intentdefinition.
      "Base.lproj/Intents.intentdefinition":
        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n",
      "en.lproj/Intents.strings": "\"gpCwrM\" = \"Order\";\n",
      "fr.lproj/Intents.strings":
        "\"gpCwrM\" = \"Commander\";\n\"tVvJ9c\" = \"Commander un café\";\n",
      "en.lproj/Localizable.strings": "\"\" = \"\";\n\"ok\" = \"OK\";\n",
      "fr.lproj/Localizable.strings": "\"\" = \"\";\n\"ok\" = \"OK\";\n",
    ])
    let diagnostics = StringsLinter().lint(try tables.tables()).map(\.description)
    // The one real problem is still found.
    #expect(diagnostics.count == 1, "\(diagnostics)")
    #expect(diagnostics.first?.contains("\"real\" (fr): argument 1 is an object") == true)
  }

  @Test("--not-format turns placeholder checks off, and many findings suggest it once")
  func notFormatOption() throws {
    var english = ""
    var german = ""
    for index in 0..<25 {
      english += "\"k\(index)\" = \"Item %\(index % 2) of %s\";\n"
      german += "\"k\(index)\" = \"Teil %d von %@\";\n"
    }
    let tables = try TableFolder([
      "App/en.lproj/Localizable.strings": english, "App/de.lproj/Localizable.strings": german,
    ])
    let run = try BundleKitTool.run(["strings", "lint", tables.file("App")])
    #expect(run.status == 1)
    #expect(run.stderr.components(separatedBy: "pass --not-format").count == 2, "\(run.stderr)")
    let quiet = try BundleKitTool.run(["strings", "lint", tables.file("App"), "--not-format"])
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stderr.hasSuffix("2 tables checked: 0 errors, 0 warnings\n"))
  }

  @Test("positional arguments inside the development language's substitutions are arguments")
  func positionalInSubstitutions() throws {
    func localization(_ format: String, _ one: String, _ other: String) -> String {
      """
      { "stringUnit" : { "state" : "translated", "value" : "\(format)" },
        "substitutions" : { "photos" : { "argNum" : 1, "formatSpecifier" : "lld",
          "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "\(one)" } },
            "other" : { "stringUnit" : { "state" : "translated", "value" : "\(other)" } } } } } } }
      """
    }
    let tables = try TableFolder([
      "Album.xcstrings": """
      { "sourceLanguage" : "en", "version" : "1.0", "strings" : { "album.count" : { "localizations" : {
        "en" : \(localization("%#@photos@", "%arg photo in %2$@", "%arg photos in %2$@")),
        "de" : \(localization("%2$@: %#@photos@", "%arg Foto", "%arg Fotos")) } } } }
      """
    ])
    let diagnostics = StringsLinter().lint(try tables.tables()).map(\.description)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
  }
}
