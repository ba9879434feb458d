import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

/// XLIFF export and import as Xcode does them, checked with Python's XML parser (an
/// independent reader and writer) and Foundation, on the corpus's catalogs and on the real
/// exports Xcode 26.1.1 and 15.2 wrote.
struct XLIFFExchangeTests {
  /// Runs Python: `script` with `arguments`; its standard output.
  static func python(_ script: String, _ arguments: [String]) throws -> String {
    let python = try #require(Tool.path("python3"))
    let result = try Tool.run(python, ["-c", script] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return String(decoding: result.stdout, as: UTF8.self)
  }

  /// Fills every unit's target with `prefix` + source, as a translator's tool writes them
  /// (ElementTree: its own serialisation, namespaces and escapes).
  static let translate = """
    import sys, xml.etree.ElementTree as ET
    N = 'urn:oasis:names:tc:xliff:document:1.2'
    ET.register_namespace('', N)
    tree = ET.parse(sys.argv[1])
    count = 0
    for unit in tree.iter('{%s}trans-unit' % N):
        for old in unit.findall('{%s}target' % N):
            unit.remove(old)
        target = ET.SubElement(unit, '{%s}target' % N)
        target.text = sys.argv[2] + (unit.find('{%s}source' % N).text or '')
        target.set('state', 'translated')
        count += 1
    tree.write(sys.argv[1], xml_declaration=True, encoding='UTF-8')
    print(count)
    """

  /// The units of an XLIFF as Python reads them: `id<TAB>source<TAB>target`, per line.
  static let units = """
    import sys, xml.etree.ElementTree as ET
    N = '{urn:oasis:names:tc:xliff:document:1.2}'
    for f in ET.parse(sys.argv[1]).getroot().iter(N + 'file'):
        for u in f.iter(N + 'trans-unit'):
            t = u.find(N + 'target')
            print(repr((f.get('original'), f.get('target-language'), u.get('id'), u.find(N + 'source').text, None if t is None else t.text)))
    """

  static func write(_ files: [String: String], in folder: TemporaryFolder) throws {
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
  }

  static func snapshot(_ root: String) -> [String: Data] {
    var result: [String: Data] = [:]
    DirectoryWalker.walk(root) { entry in
      if !entry.isFolder {
        result[entry.relativePath] = FileManager.default.contents(
          atPath: Paths.join(root, entry.relativePath))
      }
      return .descend
    }
    return result
  }

  @Test(
    "corpus catalogs: export, translate with Python, import, lint; an unedited export changes no byte",
    .enabled(if: Corpus.has("xcstrings-tool-fixtures"), Corpus.reason("xcstrings-tool-fixtures")))
  func roundTrip() throws {
    let folder = try TemporaryFolder()
    let app = folder.file("App")
    try FileIO.createFolder(app)
    for source in Corpus.files(in: "xcstrings-tool-fixtures")
      + Corpus.files(in: "icecubes-xcstrings")
    where source.hasSuffix(".xcstrings") && !Paths.lastComponent(source).hasPrefix("!") {
      let name =
        source.contains("icecubes") ? "IceCubes.xcstrings" : Paths.lastComponent(source)
      try FileManager.default.copyItem(atPath: source, toPath: Paths.join(app, name))
    }
    let before = Self.snapshot(app)
    // IceCubes ships one error of its own (a Catalan %p): lint must find no new one.
    let lintBefore = Set(
      StringsLinter().lint(try TableDiscovery.tables(in: [app])).filter { $0.severity == .error }
        .map(\.message))
    let out = folder.file("out")
    var warnings: [Diagnostic] = []
    let exported = try LocalizationExchange.export(
      [app], to: out, languages: ["de", "ru"], developmentLanguage: "en", toolVersion: "test",
      warnings: &warnings)
    #expect(warnings.isEmpty, "\(warnings)")
    for output in exported { try FileIO.createFolders(for: output.path) }
    try FileIO.writeAtomically(exported)
    let xliff = out + "/ru.xcloc/Localized Contents/ru.xliff"

    // Unedited: nothing to write.
    var plan = try LocalizationExchange.planImport([out + "/ru.xcloc"], into: app)
    #expect(
      plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics.prefix(3))")
    #expect(plan.writes.isEmpty)

    // IceCubes' German is real: exported as targets, it imports to itself.
    let units = try Self.python(Self.units, [out + "/de.xcloc/Localized Contents/de.xliff"])
    #expect(units.contains("'IceCubes.xcstrings', 'de',") || units.contains("IceCubes.xcstrings"))
    plan = try LocalizationExchange.planImport([out + "/de.xcloc"], into: app)
    #expect(plan.writes.isEmpty, "\(plan.changes.prefix(3))")

    // Russian from a translator's tool: every unit lands, plurals in Russian's categories.
    let count =
      Int(
        try Self.python(Self.translate, [xliff, "RU "]).trimmingCharacters(
          in: .whitespacesAndNewlines)) ?? 0
    #expect(count > 700)
    plan = try LocalizationExchange.planImport([xliff], into: app)
    #expect(
      plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics.prefix(3))")
    #expect(plan.changes.reduce(0) { $0 + $1.units } == count)
    try FileIO.writeAtomically(plan.writes)
    let localizable = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: app + "/Localizable.xcstrings")))
        as? [String: Any])
    let strings = try #require(localizable["strings"] as? [String: Any])
    let plural = try #require(
      ((strings["myPlural"] as? [String: Any])?["localizations"] as? [String: Any])?["ru"]
        as? [String: Any])
    let cases = try #require((plural["variations"] as? [String: Any])?["plural"] as? [String: Any])
    #expect(Set(cases.keys) == ["one", "few", "many", "other"])
    #expect(
      (cases["few"] as? [String: Any])?["stringUnit"] as? [String: String]
        == ["state": "translated", "value": "RU I have %lld plurals"])
    // A substitution's %2$lld goes back to %arg.
    let substitution = try String(contentsOfFile: app + "/Substitution.xcstrings", encoding: .utf8)
    #expect(substitution.contains("\"value\" : \"RU are %arg strings\""))
    let lint = StringsLinter().lint(try TableDiscovery.tables(in: [app]))
      .filter { $0.severity == .error && !lintBefore.contains($0.message) }
    #expect(lint.isEmpty, "\(lint.prefix(3))")

    // Export again, import again: not a byte changes.
    let after = Self.snapshot(app)
    #expect(after != before)
    let again = try LocalizationExchange.export(
      [app], to: folder.file("out2"), languages: ["ru"], developmentLanguage: "en",
      toolVersion: "test", warnings: &warnings)
    for output in again { try FileIO.createFolders(for: output.path) }
    try FileIO.writeAtomically(again)
    plan = try LocalizationExchange.planImport([folder.file("out2/ru.xcloc")], into: app)
    #expect(plan.writes.isEmpty)
    #expect(Self.snapshot(app) == after)
    // The second export carries what was imported.
    let reexported = try Self.python(
      Self.units, [folder.file("out2/ru.xcloc/Localized Contents/ru.xliff")])
    #expect(
      reexported.contains(
        "'myPlural|==|plural.few', 'I have %lld plurals', 'RU I have %lld plurals')"))
  }

  /// Tables shaped like the ones the corpus's two real exports were made from.
  static let xcodeProject: [String: String] = [
    "catalog1.xcstrings": """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "Hello, world!" : {
          "comment" : "a plain string"
        },
        "interpolation_key" : {
          "comment" : "mind the pluralization",
          "localizations" : {
            "en" : {
              "variations" : {
                "plural" : {
                  "one" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "There is %lld thing."
                    }
                  },
                  "other" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "There are %lld things."
                    }
                  }
                }
              }
            }
          }
        }
      },
      "version" : "1.0"
    }
    """,
    "catalog2.xcstrings": """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "string_variant_per_device" : {
          "localizations" : {
            "en" : {
              "variations" : {
                "device" : {
                  "ipad" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "This is the iPad variant"
                    }
                  },
                  "iphone" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "This is the iPhone variant."
                    }
                  },
                  "other" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "This is the string variant for other devices"
                    }
                  }
                }
              }
            }
          }
        }
      },
      "version" : "1.0"
    }
    """,
    "xcode1/en.lproj/Localizable.strings": """
    /* Message to confirm deletion of a key file. */
    "[KeyFile/Delete/Confirm/text] Delete key file?\\n Make sure you have a backup." = "Delete key file?\\n Make sure you have a backup.";

    "FirefoxHomepage.Common.PagesCount.v112" = "Pages: %d";

    /* The description text in the Download progress toast for showing the downloaded file size (1$) out of the total expected file size (2$). */
    "Downloads.Toast.Progress.DescriptionText" = "%1$@/%2$@";

    """,
    "xcode1/en.lproj/Localizable.stringsdict": plurals(
      [
        (
          "[Generic/Count/EntriesSelected]", "GenericCountEntriesSelected", "%d entry selected",
          "%d entries selected"
        ),
        ("[Generic/Count/Threads]", "GenericCountThreads", "%d thread", "%d threads"),
      ]),
    "xcode2/en.lproj/Localizable.stringsdict": plurals(
      [
        (
          "followed_by_three_and_others", "OTHERS", "Followed by %2$@, %3$@, %4$@ &amp; %1$d other",
          "Followed by %2$@, %3$@, %4$@ &amp; %1$d others"
        )
      ]),
  ]

  static func plurals(_ entries: [(String, String, String, String)]) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>

      """
    for (key, variable, one, other) in entries {
      text += """
        <key>\(key)</key>
        <dict>
        <key>NSStringLocalizedFormatKey</key><string>%#@\(variable)@</string>
        <key>\(variable)</key>
        <dict>
        <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key><string>d</string>
        <key>one</key><string>\(one)</string>
        <key>other</key><string>\(other)</string>
        </dict>
        </dict>

        """
    }
    return text + "</dict>\n</plist>\n"
  }

  @Test(
    "the real exports of Xcode 26.1.1 (catalogs) and 15.2 (.strings, .stringsdict) import, every unit where it belongs",
    .enabled(if: Corpus.has("moz-l10n-xliff"), Corpus.reason("moz-l10n-xliff")))
  func realExports() throws {
    let folder = try TemporaryFolder()
    try Self.write(Self.xcodeProject, in: folder)
    let before = Self.snapshot(folder.path)

    // Xcode 26: a catalog export without translations imports to nothing.
    let catalogs = folder.file("xcstrings.xliff")
    try FileManager.default.copyItem(
      atPath: Corpus.path("moz-l10n-xliff/xcstrings.xliff"), toPath: catalogs)
    var plan = try LocalizationExchange.planImport([catalogs], into: folder.path)
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
    #expect(plan.writes.isEmpty)
    // Translated by a tool (Python), each unit lands in its key, variation and language.
    #expect(try Self.python(Self.translate, [catalogs, "FI "]) == "6\n")
    plan = try LocalizationExchange.planImport([catalogs], into: folder.path)
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
    try FileIO.writeAtomically(plan.writes)
    let check = """
      import json, sys
      for name in ("catalog1", "catalog2"):
          strings = json.load(open(sys.argv[1] + "/" + name + ".xcstrings"))["strings"]
          for key, entry in sorted(strings.items()):
              fi = entry["localizations"]["fi"]
              if "variations" in fi:
                  for kind, cases in fi["variations"].items():
                      for case, value in sorted(cases.items()):
                          print(key, kind, case, value["stringUnit"]["value"], value["stringUnit"]["state"])
              else:
                  print(key, fi["stringUnit"]["value"], fi["stringUnit"]["state"])
      """
    #expect(
      try Self.python(check, [folder.path]) == """
        Hello, world! FI Hello, world! translated
        interpolation_key plural one FI There is %lld thing. translated
        interpolation_key plural other FI There are %lld things. translated
        string_variant_per_device device ipad FI This is the iPad variant translated
        string_variant_per_device device iphone FI This is the iPhone variant. translated
        string_variant_per_device device other FI This is the string variant for other devices translated

        """)

    // Xcode 15.2: Italian .strings and .stringsdict, written where Xcode writes them.
    plan = try LocalizationExchange.planImport(
      [Corpus.path("moz-l10n-xliff/xcode.xliff")], into: folder.path)
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
    #expect(
      plan.writes.map(\.path) == [
        folder.file("xcode1/it.lproj/Localizable.strings"),
        folder.file("xcode1/it.lproj/Localizable.stringsdict"),
      ])
    for write in plan.writes { try FileIO.createFolders(for: write.path) }
    try FileIO.writeAtomically(plan.writes)
    let strings = try #require(
      try PropertyListSerialization.propertyList(
        from: Data(
          contentsOf: URL(fileURLWithPath: folder.file("xcode1/it.lproj/Localizable.strings"))),
        format: nil) as? [String: String])
    #expect(
      strings
        == [
          "[KeyFile/Delete/Confirm/text] Delete key file?\n Make sure you have a backup":
            "Eliminare il file chiave?\nAssicurati di avere una copia.",
          "FirefoxHomepage.Common.PagesCount.v112": "Pagine: %d",
          "Downloads.Toast.Progress.DescriptionText": "%1$@/%2$@",
        ].reduce(into: [:]) { result, pair in
          // The id holds the key's line break as Xcode wrote it (&#10;).
          result[pair.key.hasSuffix("backup") ? pair.key + "." : pair.key] = pair.value
        })
    let plurals = try #require(
      try PropertyListSerialization.propertyList(
        from: Data(
          contentsOf: URL(fileURLWithPath: folder.file("xcode1/it.lproj/Localizable.stringsdict"))),
        format: nil) as? [String: [String: Any]])
    let threads = try #require(
      plurals["[Generic/Count/Threads]"]?["GenericCountThreads"] as? [String: String])
    #expect(threads["one"] == "%d thread" && threads["other"] == "%d thread")
    #expect(
      plurals["[Generic/Count/Threads]"]?["NSStringLocalizedFormatKey"] as? String
        == "%#@GenericCountThreads@")
    let entries = try #require(
      plurals["[Generic/Count/EntriesSelected]"]?["GenericCountEntriesSelected"]
        as? [String: String])
    #expect(entries["one"] == "%d voce selezionata" && entries["other"] == "%d voci selezionate")
    #expect(entries["NSStringFormatValueTypeKey"] == "d")
    // xcode2 targets English, its own language, with the text it has: untouched.
    let after = Self.snapshot(folder.path)
    #expect(
      after["xcode2/en.lproj/Localizable.stringsdict"]
        == before["xcode2/en.lproj/Localizable.stringsdict"])
    // Imported again: nothing changes.
    plan = try LocalizationExchange.planImport(
      [Corpus.path("moz-l10n-xliff/xcode.xliff")], into: folder.path)
    #expect(plan.writes.isEmpty)
  }

  @Test("each bad input is refused with its line, and nothing is planned")
  func refusals() throws {
    let folder = try TemporaryFolder()
    try Self.write(Self.xcodeProject, in: folder)
    let outside = try TemporaryFolder()
    try Self.write(["Evil.xcstrings": Self.xcodeProject["catalog1.xcstrings"] ?? ""], in: outside)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("link"), withDestinationPath: outside.path)

    func unit(_ id: String, _ source: String, _ target: String) -> String {
      "      <trans-unit id=\"\(id)\" xml:space=\"preserve\">\n        <source>\(source)</source>\n        <target>\(target)</target>\n      </trans-unit>\n"
    }
    func document(original: String = "catalog1.xcstrings", target: String? = "fr", _ units: String)
      -> String
    {
      let language = target.map { " target-language=\"\($0)\"" } ?? ""
      return """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="\(original)" source-language="en"\(language) datatype="plaintext">
            <body>
        \(units)    </body>
          </file>
        </xliff>

        """
    }
    let cases: [(String, String)] = [
      (
        document(target: nil, unit("Hello, world!", "Hello, world!", "Bonjour")),
        "3:3: error: <file original=\"catalog1.xcstrings\"> has no target-language"
      ),
      (
        document(unit("Hello, world!", "Hello, world!", "Bonjour") + unit("Nope", "Nope", "Non")),
        "9:7: error: \(folder.file("catalog1.xcstrings")) has no key \"Nope\""
      ),
      (
        document(
          unit("interpolation_key|==|plural.other", "There are %lld things.", "Il y a %@ choses.")),
        "5:7: error: \"interpolation_key|==|plural.other\": the translation argument 1 is an object (%@) but a 64-bit integer in the development language"
      ),
      (
        document(unit("interpolation_key|==|plural.few", "There are %lld things.", "%lld choses")),
        "5:7: error: 'few' is not a plural category of 'fr' (it has zero, one, many, other)"
      ),
      (
        document(unit("Hello, world!|==|weird.x", "Hello", "Bonjour")),
        "5:7: error: \"Hello, world!|==|weird.x\" is not an id Xcode writes for a String Catalog"
      ),
      (
        document(
          original: "../catalog1.xcstrings", unit("Hello, world!", "Hello, world!", "Bonjour")),
        "3:3: error: original \"../catalog1.xcstrings\" must be a relative path inside the project, without '..'"
      ),
      (
        document(
          original: "link/Evil.xcstrings", unit("Hello, world!", "Hello, world!", "Bonjour")),
        "3:3: error: original \"link/Evil.xcstrings\" leads out of \(folder.path) through a link"
      ),
      (
        "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">\n  <file original=\"a\">\n</xliff>\n",
        "4:"
      ),
      (
        "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<xliff version=\"1.2\"><file original=\"catalog1.xcstrings\" source-language=\"en\" target-language=\"fr\"><body><trans-unit id=\"Hello, world!\"><source>&xxe;</source></trans-unit></body></file></xliff>\n",
        "error: Entity 'xxe' not defined"
      ),
    ]
    let before = Self.snapshot(folder.path)
    for (index, (text, expected)) in cases.enumerated() {
      let path = folder.file("bad\(index).xliff")
      try FileIO.writeAtomically(Array(text.utf8), to: path)
      var messages: [String] = []
      do {
        let plan = try LocalizationExchange.planImport([path], into: folder.path)
        #expect(plan.writes.isEmpty, "case \(index) planned writes")
        messages = (plan.diagnostics.filter { $0.severity == .error } + plan.refused)
          .map(\.description)
      } catch let error as DiagnosticsError {
        messages = error.diagnostics.map(\.description)
      }
      #expect(messages.count == 1, "case \(index): \(messages)")
      #expect(
        messages.first.map { $0.hasPrefix(path + ":") && $0.contains(expected) } == true,
        "case \(index): \(messages)")
      try FileManager.default.removeItem(atPath: path)
    }
    #expect(
      Self.snapshot(folder.path).filter { !$0.key.hasPrefix("link") }
        == before.filter { !$0.key.hasPrefix("link") })
  }

  @Test(
    "a placeholder bug refuses its unit, not the language; --strict refuses all; the table's own translation is not checked"
  )
  func unitRefusals() throws {
    let folder = try TemporaryFolder()
    var project = Self.xcodeProject
    // The catalog's own French for "Hello, world!" as real projects ship it: "100 % f" reads
    // as a %f to a format parser, and the source passes no argument.
    project["catalog1.xcstrings"] = project["catalog1.xcstrings"]?.replacingOccurrences(
      of: "\"comment\" : \"a plain string\"",
      with: """
        "comment" : "a plain string",
              "localizations" : {
                "fr" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Bonjour à 100 % f"
                  }
                }
              }
        """)
    try Self.write(project, in: folder)
    func document(_ hello: String, _ things: String) -> String {
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
        <file original="catalog1.xcstrings" source-language="en" target-language="fr" datatype="plaintext">
          <body>
            <trans-unit id="Hello, world!" xml:space="preserve">
              <source>Hello, world!</source>
              <target state="translated">\(hello)</target>
            </trans-unit>
            <trans-unit id="interpolation_key|==|plural.one" xml:space="preserve">
              <source>There is %lld thing.</source>
              <target state="translated">Il y a %lld chose.</target>
            </trans-unit>
            <trans-unit id="interpolation_key|==|plural.other" xml:space="preserve">
              <source>There are %lld things.</source>
              <target state="translated">\(things)</target>
            </trans-unit>
          </body>
        </file>
      </xliff>

      """
    }
    let xliff = folder.file("fr.xliff")
    // Unchanged "Hello" (not checked), a good "one", a bad "other".
    try FileIO.writeAtomically(
      Array(document("Bonjour à 100 % f", "Il y a %@ choses.").utf8), to: xliff)
    var plan = try LocalizationExchange.planImport([xliff], into: folder.path)
    #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
    #expect(
      plan.refused.map(\.description) == [
        "\(xliff):13:7: error: \"interpolation_key|==|plural.other\": the translation argument 1 is an object (%@) but a 64-bit integer in the development language"
      ])
    #expect(plan.changes.map(\.units) == [1])
    let written = try #require(plan.writes.first?.bytes)
    let strings =
      try #require(
        try JSONSerialization.jsonObject(with: Data(written)) as? [String: Any])["strings"]
      as? [String: Any]
    let french = String(describing: strings?["interpolation_key"] ?? "")
    #expect(french.contains("Il y a %lld chose."))
    #expect(!french.contains("choses"))
    let hello = String(describing: strings?["Hello, world!"] ?? "")
    #expect(hello.contains("Bonjour à 100 % f"))

    plan = try LocalizationExchange.planImport([xliff], into: folder.path, strict: true)
    #expect(plan.refused.isEmpty)
    #expect(plan.writes.isEmpty)
    #expect(plan.diagnostics.filter { $0.severity == .error }.count == 1)

    // A `%` before a space and a word, newly written, is text as lint reads it: Xcode's own
    // German export of Ketchup has "50 % der" for "50% of" and Xcode imports it.
    try FileIO.writeAtomically(
      Array(document("Salut à 100 % f", "Il y a %lld choses.").utf8), to: xliff)
    plan = try LocalizationExchange.planImport([xliff], into: folder.path)
    #expect(plan.refused.isEmpty, "\(plan.refused)")
    #expect(plan.changes.map(\.units) == [3])
    // A source with no placeholder is not a format: a placeholder its translation adds
    // ("50 %ige Chance" in Ketchup's German) is a warning with its line, not a refusal.
    try FileIO.writeAtomically(
      Array(document("Salut %@", "Il y a %lld choses.").utf8), to: xliff)
    plan = try LocalizationExchange.planImport([xliff], into: folder.path)
    #expect(plan.refused.isEmpty, "\(plan.refused)")
    #expect(
      plan.diagnostics.map(\.description) == [
        "\(xliff):5:7: warning: \"Hello, world!\": the translation uses argument 1 (%@), which the development language does not pass"
      ])
  }

  @Test(
    "round trips as projects hold them: a translation's substitution without argNum, a form the language lacks, a .lproj without tables"
  )
  func projectShapes() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolder(folder.file("App/cs.lproj"))
    try FileIO.writeAtomically([0x89, 0x50], to: folder.file("App/cs.lproj/logo.png"))
    let catalog = """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "%lld posts from %lld people" : {
            "localizations" : {
              "en" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%#@posts@ from %#@people@"
                },
                "substitutions" : {
                  "people" : {
                    "argNum" : 2,
                    "formatSpecifier" : "lld",
                    "variations" : {
                      "plural" : {
                        "one" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "%arg person"
                          }
                        },
                        "other" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "%arg people"
                          }
                        }
                      }
                    }
                  },
                  "posts" : {
                    "argNum" : 1,
                    "formatSpecifier" : "lld",
                    "variations" : {
                      "plural" : {
                        "one" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "%arg post"
                          }
                        },
                        "other" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "%arg posts"
                          }
                        }
                      }
                    }
                  }
                }
              },
              "ja" : {
                "variations" : {
                  "plural" : {
                    "one" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "%lld 件"
                      }
                    },
                    "other" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "%lld 件"
                      }
                    }
                  }
                }
              },
              "pl" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%#@posts@ %#@people@"
                },
                "substitutions" : {
                  "people" : {
                    "formatSpecifier" : "lld",
                    "variations" : {
                      "plural" : {
                        "one" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "od %arg osoby"
                          }
                        },
                        "other" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "od %arg osób"
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "version" : "1.0"
      }
      """
    try FileIO.writeAtomically(Array(catalog.utf8), to: folder.file("App/Localizable.xcstrings"))
    var warnings: [Diagnostic] = []
    let outputs = try LocalizationExchange.export(
      [folder.file("App")], to: folder.file("out"), languages: [], developmentLanguage: "en",
      toolVersion: "test", warnings: &warnings)
    // cs has a folder but no table: no .xcloc for it.
    let bundles = Set(
      outputs.compactMap { $0.path.split(separator: "/").first { $0.hasSuffix(".xcloc") } })
    #expect(bundles == ["ja.xcloc", "pl.xcloc"], "\(bundles)")
    for output in outputs { try FileIO.createFolders(for: output.path) }
    try FileIO.writeAtomically(outputs)
    let plan = try LocalizationExchange.planImport(
      ["ja", "pl"].map { folder.file("out/\($0).xcloc") }, into: folder.file("App"))
    #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
    #expect(plan.refused.isEmpty, "\(plan.refused)")
    #expect(plan.writes.isEmpty, "\(plan.changes)")
  }

  @Test("a control character XML cannot carry is left out with a warning; the export reads back")
  func controlCharacters() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolder(folder.file("App/en.lproj"))
    try FileIO.createFolder(folder.file("App/vi.lproj"))
    try FileIO.writeAtomically(
      Array(
        "\"find\" = \"Find\";\n\"bell\" = \"Ring \u{7}\";\n/* tab\u{1} */\n\"ok\" = \"OK\";\n".utf8),
      to: folder.file("App/en.lproj/Main.strings"))
    try FileIO.writeAtomically(
      Array("\"find\" = \"T\u{18}ìm\";\n\"ok\" = \"Được\";\n".utf8),
      to: folder.file("App/vi.lproj/Main.strings"))
    var warnings: [Diagnostic] = []
    let outputs = try LocalizationExchange.export(
      [folder.file("App")], to: folder.file("out"), languages: ["vi"], developmentLanguage: "en",
      toolVersion: "test", warnings: &warnings)
    #expect(
      warnings.map(\.message) == [
        "\"bell\": the text holds U+0007, which XML cannot carry: left out of the vi export",
        "\"find\": the vi translation holds U+0018, which XML cannot carry: exported without it (an import of the export keeps it)",
        "\"ok\": the comment holds U+0001, which XML cannot carry: exported without it",
      ])
    for output in outputs { try FileIO.createFolders(for: output.path) }
    try FileIO.writeAtomically(outputs)
    let xliff = folder.file("out/vi.xcloc/Localized Contents/vi.xliff")
    // Python's XML parser reads it, and so does the import: nothing to change.
    let python = try #require(Tool.path("python3"))
    let read = try Tool.run(
      python,
      [
        "-c",
        "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(len(d.getElementsByTagName('trans-unit')))",
        xliff,
      ])
    #expect(String(decoding: read.stdout, as: UTF8.self) == "2\n", "\(read.stderr)")
    let plan = try LocalizationExchange.planImport([xliff], into: folder.file("App"))
    #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
    #expect(plan.writes.isEmpty)
    #expect(plan.refused.isEmpty)
  }

  @Test(
    "export as Xcode 13 to 26 write it: <note/> without a comment, empty elements, the source language's own export with its states, .strings and .stringsdict units in Xcode's order, a comment after the entry, datatype first on a table not yet translated, Base.lproj tables, comments as written, no table read from an .xcloc"
  )
  func xcodeLayout() throws {
    let folder = try TemporaryFolder()
    // Shapes of real exports (an Xcode 26.5 catalog app with German as its development
    // language, an Xcode 16.4 package of .strings tables).
    try Self.write(
      [
        "App/Widget/Localizable.xcstrings": """
        {"sourceLanguage":"de","version":"1.0","strings":{
          "Hello %@":{},
          "Kalorien":{"comment":"A unit"},
          "Copyright":{"localizations":{"de":{"stringUnit":{"state":"new","value":""}}}},
          "Verteidigung":{"localizations":{"de":{"stringUnit":{"state":"translated","value":"Abwehr"}}}}
        }}
        """,
        "App/UI/en.lproj/UI.strings": """
        /* Shown last */
        "Budget.Created" = "Created";
        "Budget.CreateWithKeyword" = "Create"; // On the button
        "Period.Last12Months" = "Last 12 months";
        "Period.Last6Months" = "Last 6 months";

        /* Reset button title
           Title of button to begin reset */
        "Reset" = "Reset";
        """,
        "App/UI/de.lproj/UI.strings": "\"Reset\" = \"Zurücksetzen\";\n",
        "App/Kit/Base.lproj/Kit.strings": "\"Loggly\" = \"Loggly\";\n\"Keywords\" = \"\";\n",
        "App/Kit/de.lproj/Kit.strings": "\"Loggly\" = \"Loggly DE\";\n",
        // No German yet (Xcode 13 to 15's exports of FocusedWork, Quran Majeed, Pack my Bag).
        "App/Info/en.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Scan\";\n",
        "App/UI/en.lproj/UI.stringsdict": """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>days</key><dict>
          <key>NSStringLocalizedFormatKey</key><string>%#@count@</string>
          <key>count</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>lld</string>
            <key>zero</key><string>No days</string>
            <key>one</key><string>%lld day</string>
            <key>other</key><string>%lld days</string>
          </dict>
        </dict></dict></plist>
        """,
        // A committed export below the project: its copies are not the project's tables.
        "App/de.xcloc/Source Contents/Stale/en.lproj/Stale.strings": "\"old\" = \"old\";\n",
      ], in: folder)
    func export(_ language: String, development: String) throws -> String {
      var warnings: [Diagnostic] = []
      let outputs = try LocalizationExchange.export(
        [folder.file("App")], to: folder.file("out"), languages: [language],
        developmentLanguage: development, toolVersion: "test", warnings: &warnings)
      #expect(warnings.isEmpty)
      #expect(!outputs.contains { $0.path.contains("Stale") })
      let xliff = try #require(outputs.first { $0.path.hasSuffix("/\(language).xliff") })
      return String(decoding: xliff.bytes, as: UTF8.self)
    }
    func file(_ xliff: String, _ original: String) -> String {
      guard let start = xliff.range(of: "  <file original=\"\(original)\"") else { return "" }
      let rest = xliff[start.lowerBound...]
      guard let end = rest.range(of: "  </file>\n") else { return "" }
      return String(rest[..<end.upperBound])
        .replacingOccurrences(
          of:
            "      <tool tool-id=\"org.bundlekit\" tool-name=\"BundleKit\" tool-version=\"test\"/>\n",
          with: "")
    }
    let german = try export("de", development: "en")
    #expect(
      file(german, "Widget/Localizable.xcstrings") == """
          <file original="Widget/Localizable.xcstrings" source-language="de" target-language="de" datatype="plaintext">
            <header>
            </header>
            <body>
              <trans-unit id="Copyright" xml:space="preserve">
                <source/>
                <target state="new"/>
                <note/>
              </trans-unit>
              <trans-unit id="Hello %@" xml:space="preserve">
                <source>Hello %@</source>
                <target state="new">Hello %@</target>
                <note/>
              </trans-unit>
              <trans-unit id="Kalorien" xml:space="preserve">
                <source>Kalorien</source>
                <target state="new">Kalorien</target>
                <note>A unit</note>
              </trans-unit>
              <trans-unit id="Verteidigung" xml:space="preserve">
                <source>Abwehr</source>
                <target state="translated">Abwehr</target>
                <note/>
              </trans-unit>
            </body>
          </file>

        """)
    #expect(
      file(german, "UI/en.lproj/UI.strings") == """
          <file original="UI/en.lproj/UI.strings" source-language="en" target-language="de" datatype="plaintext">
            <header>
            </header>
            <body>
              <trans-unit id="Budget.CreateWithKeyword" xml:space="preserve">
                <source>Create</source>
                <note>On the button</note>
              </trans-unit>
              <trans-unit id="Budget.Created" xml:space="preserve">
                <source>Created</source>
                <note>Shown last</note>
              </trans-unit>
              <trans-unit id="Period.Last6Months" xml:space="preserve">
                <source>Last 6 months</source>
                <note/>
              </trans-unit>
              <trans-unit id="Period.Last12Months" xml:space="preserve">
                <source>Last 12 months</source>
                <note/>
              </trans-unit>
              <trans-unit id="Reset" xml:space="preserve">
                <source>Reset</source>
                <target>Zurücksetzen</target>
                <note>Reset button title
           Title of button to begin reset</note>
              </trans-unit>
            </body>
          </file>

        """)
    #expect(file(german, "Kit/Base.lproj/Kit.strings").contains("<target>Loggly DE</target>"))
    // A table with no German yet: `datatype` first, as Xcode writes it.
    #expect(
      file(german, "Info/en.lproj/InfoPlist.strings").hasPrefix(
        "  <file original=\"Info/en.lproj/InfoPlist.strings\" datatype=\"plaintext\" source-language=\"en\" target-language=\"de\">\n"
      ))
    // .stringsdict units by id, as Xcode orders them.
    let dictIDs = file(german, "UI/en.lproj/UI.stringsdict").split(separator: "\n")
      .filter { $0.contains("<trans-unit id=") }
      .map { $0.split(separator: "\"")[1] }
    #expect(
      dictIDs == [
        "/days:dict/NSStringLocalizedFormatKey:dict/:string",
        "/days:dict/count:dict/one:dict/:string",
        "/days:dict/count:dict/other:dict/:string", "/days:dict/count:dict/zero:dict/:string",
      ], "\(dictIDs)")
    // The development language's own export: each .strings target is its source, no state.
    let english = try export("en", development: "en")
    #expect(
      file(english, "Info/en.lproj/InfoPlist.strings").hasPrefix(
        "  <file original=\"Info/en.lproj/InfoPlist.strings\" source-language=\"en\" target-language=\"en\" datatype=\"plaintext\">\n"
      ))
    #expect(
      file(english, "UI/en.lproj/UI.strings").contains(
        """
                <source>Create</source>
                <target>Create</target>
                <note>On the button</note>
        """))
    // Read back, an unedited export changes nothing.
    try FileIO.writeAtomically(Array(german.utf8), to: folder.file("de.xliff"))
    let plan = try LocalizationExchange.planImport(
      [folder.file("de.xliff")], into: folder.file("App"))
    #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
    #expect(plan.writes.isEmpty, "\(plan.writes.map(\.path))")
    // The empty translation of an empty source is a translation (FocusedWork's
    // `"STORE_KEYWORDS" = "";`, exported by Xcode as `<target/>`).
    let keywords = "      <trans-unit id=\"Keywords\" xml:space=\"preserve\">\n        <source/>\n"
    #expect(german.contains(keywords))
    try FileIO.writeAtomically(
      Array(
        german.replacingOccurrences(of: keywords, with: keywords + "        <target/>\n").utf8),
      to: folder.file("de.xliff"))
    let empty = try LocalizationExchange.planImport(
      [folder.file("de.xliff")], into: folder.file("App"))
    #expect(empty.writes.map(\.path) == [folder.file("App/Kit/de.lproj/Kit.strings")])
    let written = try StringsFile(
      bytes: try #require(empty.writes.first?.bytes), path: "Kit.strings")
    #expect(written.dictionary == ["Loggly": "Loggly DE", "Keywords": ""])
  }

  @Test(
    "import creates the tables Xcode creates: an Info.plist's strings, a catalog with plural forms; never outside the project"
  )
  func createdTables() throws {
    let folder = try TemporaryFolder()
    try Self.write(
      ["App/Sources/en.lproj/Main.strings": "\"hello\" = \"Hello\";\n"], in: folder)
    // Xcode's own German export of tables the project does not have (tink's synthesized
    // InfoPlist.strings, a catalog Xcode 15 extracts code into).
    let xliff = folder.file("de.xliff")
    try FileIO.writeAtomically(
      Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="Sources/en.lproj/InfoPlist.strings" datatype="plaintext" source-language="en" target-language="de">
            <body>
              <trans-unit id="CFBundleName" xml:space="preserve">
                <source>Kit</source>
                <target>Kit DE</target>
                <note>Bundle name</note>
              </trans-unit>
            </body>
          </file>
          <file original="Sources/InfoPlist.xcstrings" source-language="en" target-language="de" datatype="plaintext">
            <body>
              <trans-unit id="NSCameraUsageDescription" xml:space="preserve">
                <source>Scans receipts</source>
                <target state="translated">Scannt Belege</target>
                <note>Privacy - Camera Usage Description</note>
              </trans-unit>
              <trans-unit id="%lld items|==|plural.one" xml:space="preserve">
                <source>One item</source>
                <target state="translated">Ein Eintrag</target>
                <note/>
              </trans-unit>
              <trans-unit id="%lld items|==|plural.other" xml:space="preserve">
                <source>%lld items</source>
                <target state="translated">%lld Einträge</target>
                <note/>
              </trans-unit>
            </body>
          </file>
        </xliff>

        """.utf8), to: xliff)
    let plan = try LocalizationExchange.planImport([xliff], into: folder.file("App"))
    #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
    #expect(
      plan.diagnostics.map(\.message) == [
        "\(folder.file("App/Sources/en.lproj/InfoPlist.strings")) does not exist: created with 1 of its 1 unit, as Xcode creates it on import (an Info.plist's strings, or strings from code)",
        "\(folder.file("App/Sources/InfoPlist.xcstrings")) does not exist: created with its 2 keys, as Xcode creates it on import",
      ])
    #expect(
      plan.writes.map(\.path) == [
        folder.file("App/Sources/InfoPlist.xcstrings"),
        folder.file("App/Sources/de.lproj/InfoPlist.strings"),
      ])
    // Each table once, with the translations it takes.
    #expect(
      plan.changes.map { "\($0.path): \($0.units)" } == [
        "\(folder.file("App/Sources/de.lproj/InfoPlist.strings")): 1",
        "\(folder.file("App/Sources/InfoPlist.xcstrings")): 3",
      ])
    // Read by Python's plistlib-free JSON and by our own readers: the catalog holds both
    // languages, the plural forms in the source's and the translation's shape.
    let catalog = try StringCatalog(
      bytes: try #require(plan.writes.first?.bytes), path: "InfoPlist.xcstrings")
    #expect(catalog.sourceLanguage == "en")
    #expect(
      catalog.strings["NSCameraUsageDescription"]?.comment == "Privacy - Camera Usage Description")
    #expect(
      catalog.strings["NSCameraUsageDescription"]?.localizations["de"]?.stringUnit?.value
        == "Scannt Belege")
    // The source text is not the key: the source language holds it, as in Ketchup's
    // InfoPlist.xcstrings.
    let english = catalog.strings["NSCameraUsageDescription"]?.localizations["en"]?.stringUnit
    #expect(english?.value == "Scans receipts")
    #expect(english?.state == "new")
    let plural = try #require(catalog.strings["%lld items"])
    #expect(plural.localizations["en"]?.variations?.cases["one"]?.stringUnit?.value == "One item")
    #expect(
      plural.localizations["de"]?.variations?.cases["other"]?.stringUnit?.value
        == "%lld Einträge")
    let json = try Self.python(
      "import json, sys; d = json.load(open(sys.argv[1])); print(sorted(d['strings']))",
      [
        try {
          let path = folder.file("created.xcstrings")
          try FileIO.writeAtomically(try #require(plan.writes.first?.bytes), to: path)
          return path
        }()
      ])
    #expect(json == "['%lld items', 'NSCameraUsageDescription']\n")
    let table = try StringsFile(
      bytes: try #require(plan.writes.last?.bytes), path: "InfoPlist.strings")
    #expect(table.dictionary == ["CFBundleName": "Kit DE"])
    #expect(table.entries.first?.comment == "Bundle name")

    /// An XLIFF of one `<file>` (on line 3) holding one unit, written to `path`.
    func writeOneUnit(original: String, language: String, unit: String, to path: String) throws {
      try FileIO.writeAtomically(
        Array(
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
            <file original="\(original)" source-language="en" target-language="\(language)" datatype="plaintext">
              <body>
                \(unit)
              </body>
            </file>
          </xliff>

          """.utf8), to: path)
    }

    // The development language's own file, unedited, is what the code says: it creates
    // nothing (an unedited export imports to no change).
    let ownFile = folder.file("en.xliff")
    try writeOneUnit(
      original: "Sources/Code.xcstrings", language: "en",
      unit:
        #"<trans-unit id="Done"><source>Done</source><target state="new">Done</target></trans-unit>"#,
      to: ownFile)
    let own = try LocalizationExchange.planImport([ownFile], into: folder.file("App"))
    #expect(own.writes.isEmpty, "\(own.writes.map(\.path))")
    // Edited, it creates the catalog, holding the edited text.
    try writeOneUnit(
      original: "Sources/Code.xcstrings", language: "en",
      unit:
        #"<trans-unit id="Done"><source>Done</source><target state="translated">All done</target></trans-unit>"#,
      to: ownFile)
    let edited = try LocalizationExchange.planImport([ownFile], into: folder.file("App"))
    #expect(edited.writes.map(\.path) == [folder.file("App/Sources/Code.xcstrings")])
    let code = try StringCatalog(
      bytes: try #require(edited.writes.first?.bytes), path: "Code.xcstrings")
    #expect(code.strings.keys.sorted() == ["Done"])
    #expect(code.strings["Done"]?.localizations["en"]?.stringUnit?.value == "All done")

    // A folder the project does not have, or a link out of it, is not created through.
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("App/Out"), withDestinationPath: folder.path)
    for original in ["Missing/en.lproj/InfoPlist.strings", "Out/InfoPlist.xcstrings"] {
      try writeOneUnit(
        original: original, language: "de",
        unit:
          "<trans-unit id=\"CFBundleName\"><source>Kit</source><target>Kit DE</target></trans-unit>",
        to: xliff)
      let refused = try LocalizationExchange.planImport([xliff], into: folder.file("App"))
      #expect(refused.writes.isEmpty, "\(original)")
      #expect(
        refused.diagnostics.contains { $0.severity == .error && $0.line == 3 },
        "\(refused.diagnostics)")
    }
  }

  @Test("export writes Xcode's ids for .strings and .stringsdict, and the forms of the language")
  func stringsExport() throws {
    let folder = try TemporaryFolder()
    try Self.write(Self.xcodeProject.filter { $0.key.hasPrefix("xcode1") }, in: folder)
    var warnings: [Diagnostic] = []
    let outputs = try LocalizationExchange.export(
      [folder.file("xcode1")], to: folder.file("out"), languages: ["pl"], developmentLanguage: "en",
      toolVersion: "test", warnings: &warnings)
    let xliff = try #require(outputs.first { $0.path.hasSuffix("pl.xliff") })
    try FileIO.writeAtomically(xliff.bytes, to: folder.file("pl.xliff"))
    let units = try Self.python(Self.units, [folder.file("pl.xliff")])
    #expect(
      units.contains(
        "('en.lproj/Localizable.stringsdict', 'pl', '/[Generic/Count/Threads]:dict/GenericCountThreads:dict/few:dict/:string', '%d threads', None)"
      ), "\(units)")
    #expect(
      units.contains(
        "('en.lproj/Localizable.stringsdict', 'pl', '/[Generic/Count/Threads]:dict/NSStringLocalizedFormatKey:dict/:string', '%#@GenericCountThreads@', None)"
      ))
    #expect(
      units.contains(
        "('en.lproj/Localizable.strings', 'pl', '[KeyFile/Delete/Confirm/text] Delete key file?\\n Make sure you have a backup.', 'Delete key file?\\n Make sure you have a backup.', None)"
      ))
    #expect(units.split(separator: "\n").count == 3 + 2 * 5)
  }

  @Test(
    "mutated XLIFF (flipped bytes, cuts, repeats) never crashes the import: a plan or located errors",
    .enabled(if: Corpus.has("moz-l10n-xliff"), Corpus.reason("moz-l10n-xliff")))
  func mutations() throws {
    let folder = try TemporaryFolder()
    try Self.write(Self.xcodeProject, in: folder)
    let seed = SeededGenerator.seed("xliff mutations")
    var random = SeededGenerator(seed: seed)
    let originals = try ["xcode.xliff", "xcstrings.xliff"].map {
      try FileIO.read(Corpus.path("moz-l10n-xliff/" + $0))
    }
    let path = folder.file("mutated.xliff")
    var refused = 0
    var planned = 0
    for round in 0..<400 {
      let bytes = random.mutate(originals[round % originals.count])
      try FileIO.writeAtomically(bytes, to: path)
      do {
        let plan = try LocalizationExchange.planImport([path], into: folder.path)
        if plan.diagnostics.contains(where: { $0.severity == .error }) {
          #expect(plan.writes.isEmpty, "round \(round) (seed \(seed))")
          refused += 1
        } else {
          planned += 1
        }
        for diagnostic in plan.diagnostics { #expect(diagnostic.line != nil, "\(diagnostic)") }
      } catch let error as DiagnosticsError {
        refused += 1
        for diagnostic in error.diagnostics {
          #expect(
            diagnostic.path == path && diagnostic.line != nil, "round \(round): \(diagnostic)")
        }
      }
    }
    print(
      "xliff mutations (seed \(seed)): \(refused) refused with located errors, \(planned) planned")
    #expect(refused + planned == 400)
  }

  @Test(
    "XLIFF round trips with markup next to combining marks and prepended characters: our reader and Python's agree"
  )
  func escapingPerScalar() throws {
    let seed = SeededGenerator.seed("xliff-escaping")
    print("seed \(seed)")
    var random = SeededGenerator(seed: seed)
    // Markup bytes, and scalars that join the character before or after them.
    let pieces = [
      "&", "<", ">", "\u{301}", "\u{600}", "\u{200D}", "\u{308}", "e", "\u{1F469}", "\"", "'",
      "&amp;", "]]>", " ", "\u{0E33}", "\u{094D}",
    ]
    var units: [XLIFFDocument.Unit] = []
    for index in 0..<150 {
      let text = { (count: Int) -> String in
        (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
      }
      units.append(
        XLIFFDocument.Unit(
          id: "k\(index)" + text(3), source: "a" + text(6), target: text(6) + "z",
          state: "translated",
          note: text(4) + "n"))
    }
    units.insert(
      XLIFFDocument.Unit(
        id: "fixed", source: "&\u{301}", target: "\u{600}<", state: "translated", note: "&\u{301}<"),
      at: 0)
    let document = XLIFFDocument(files: [
      XLIFFDocument.File(
        original: "App/Localizable.xcstrings", sourceLanguage: "en", targetLanguage: "de",
        units: units)
    ])
    let folder = try TemporaryFolder()
    let path = folder.file("round.xliff")
    try FileIO.writeAtomically(document.xml(toolVersion: "test"), to: path)
    // Ours.
    let read = try XLIFFDocument.read(try FileIO.read(path), path: path)
    #expect(read.files.first?.units.map(\.source) == units.map(\.source))
    #expect(read.files.first?.units.map(\.target) == units.map(\.target))
    #expect(read.files.first?.units.map(\.id) == units.map(\.id))
    // Python's: the same texts.
    let script = """
      import sys, json, xml.etree.ElementTree as ET
      N = '{urn:oasis:names:tc:xliff:document:1.2}'
      units = []
      for u in ET.parse(sys.argv[1]).getroot().iter(N + 'trans-unit'):
          units.append([u.get('id'), u.find(N + 'source').text, u.find(N + 'target').text, u.find(N + 'note').text])
      print(json.dumps(units))
      """
    let output = try Self.python(script, [path])
    let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]]
    #expect(parsed == units.map { [$0.id, $0.source, $0.target ?? "", $0.note ?? ""] })
  }

}
