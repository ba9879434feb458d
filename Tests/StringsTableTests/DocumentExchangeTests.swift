import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

/// Storyboards, XIBs and intent definitions in an export and an import, as Xcode 14 exported
/// Loop's (the ecosystem check compares 3,024 storyboard and 252 intent units of Xcode's), and
/// strings Xcode extracted from code.
struct DocumentExchangeTests {
  /// A storyboard in the shapes Loop's hold: attributes, a text with line breaks as a
  /// `<string>` child, button states, a custom class, sections, a segmented control.
  static let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21507" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" initialViewController="Dds-49-o7G">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <tableViewController title="Transmitter Setup" id="Dds-49-o7G" customClass="SetupViewController" customModule="Kit" sceneMemberID="viewController">
                        <tableView key="view" id="tv1">
                            <sections>
                                <tableViewSection headerTitle="Transmitter ID" id="Qub-6B-0aB">
                                    <string key="footerTitle">Found on the back.
    Or in the "Settings" menu.</string>
                                    <cells>
                                        <label text="Credentials" id="5oU-vK-JHQ"/>
                                        <label text="" id="empty-label"/>
                                        <textField placeholder="Enter the 6-digit ID" id="nKX-TW-GhD"/>
                                    </cells>
                                </tableViewSection>
                            </sections>
                        </tableView>
                        <navigationItem key="navigationItem" title="Setup" id="8hF-Ij-B7m"/>
                    </tableViewController>
                    <button id="HEQ-Bp-kx7">
                        <state key="normal" title="Start"/>
                        <state key="disabled" title="Wait"/>
                    </button>
                    <segmentedControl id="TyZ-xm-mVN">
                        <segments>
                            <segment title="Reservoir"/>
                            <segment title="Battery"/>
                        </segments>
                    </segmentedControl>
                </objects>
            </scene>
        </scenes>
    </document>

    """

  func project() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    try XLIFFExchangeTests.write(
      [
        "App/Base.lproj/Main.storyboard": Self.storyboard,
        // A launch screen has nothing to translate: no <file>, as in Xcode's exports.
        "App/Base.lproj/LaunchScreen.storyboard": """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch"><scenes/></document>

        """,
        "App/fr.lproj/Main.strings": """
        /* Class = "UILabel"; text = "Credentials"; ObjectID = "5oU-vK-JHQ"; */
        "5oU-vK-JHQ.text" = "Identifiants";

        """,
        "App/Base.lproj/Localizable.strings": "/* Greeting */\n\"hello\" = \"Hello\";\n",
        "App/fr.lproj/Localizable.strings": "\"hello\" = \"Bonjour\";\n",
        // Sorted without case: `app/` between `App/` files would come after them by bytes.
        "lower/Base.lproj/Lower.strings": "\"low\" = \"Low\";\n",
      ], in: folder)
    return folder
  }

  func export(_ folder: TemporaryFolder, _ language: String) throws -> String {
    var warnings: [Diagnostic] = []
    let outputs = try LocalizationExchange.export(
      [folder.path], to: folder.file("out"), languages: [language],
      developmentLanguage: "en", toolVersion: "test", warnings: &warnings)
    #expect(warnings.isEmpty, "\(warnings)")
    // The storyboards are copied to Source Contents with the tables.
    #expect(
      outputs.contains { $0.path.hasSuffix("Source Contents/App/Base.lproj/Main.storyboard") })
    let xliff = try #require(outputs.first { $0.path.hasSuffix("/\(language).xliff") })
    let text = String(decoding: xliff.bytes, as: UTF8.self)
    try FileIO.writeAtomically(xliff.bytes, to: folder.file("\(language).xliff"))
    return text
  }

  @Test(
    "a storyboard's strings export as Xcode's: ids, notes as ibtool writes them, order, translations from <lang>.lproj/<name>.strings"
  )
  func storyboardExport() throws {
    let folder = try project()
    let french = try export(folder, "fr")
    let rows = try XLIFFExchangeTests.python(XLIFFExchangeTests.units, [folder.file("fr.xliff")])
    var originals: [String] = []
    for row in rows.split(separator: "\n") {
      let original = String(row.split(separator: "'")[1])
      if originals.last != original { originals.append(original) }
    }
    // Files by path without case; the launch screen has none.
    #expect(
      originals == [
        "App/Base.lproj/Localizable.strings", "App/Base.lproj/Main.storyboard",
        "lower/Base.lproj/Lower.strings",
      ])
    let expected = [
      ("5oU-vK-JHQ.text", "Credentials", "Identifiants", "UILabel", "text"),
      ("8hF-Ij-B7m.title", "Setup", nil, "UINavigationItem", "title"),
      ("Dds-49-o7G.title", "Transmitter Setup", nil, "UITableViewController", "title"),
      ("HEQ-Bp-kx7.disabledTitle", "Wait", nil, "UIButton", "disabledTitle"),
      ("HEQ-Bp-kx7.normalTitle", "Start", nil, "UIButton", "normalTitle"),
      (
        "Qub-6B-0aB.footerTitle", "Found on the back.\nOr in the \"Settings\" menu.", nil,
        "UITableViewSection", "footerTitle"
      ),
      ("Qub-6B-0aB.headerTitle", "Transmitter ID", nil, "UITableViewSection", "headerTitle"),
      (
        "TyZ-xm-mVN.segmentTitles[0]", "Reservoir", nil, "UISegmentedControl",
        "TyZ-xm-mVN.segmentTitles[0]"
      ),
      (
        "TyZ-xm-mVN.segmentTitles[1]", "Battery", nil, "UISegmentedControl",
        "TyZ-xm-mVN.segmentTitles[1]"
      ),
      ("nKX-TW-GhD.placeholder", "Enter the 6-digit ID", nil, "UITextField", "placeholder"),
    ]
    let storyboardRows = rows.split(separator: "\n").filter { $0.contains("Main.storyboard") }
    #expect(storyboardRows.count == expected.count, "\(storyboardRows)")
    for ((id, source, target, _, _), row) in zip(expected, storyboardRows) {
      let python =
        "('App/Base.lproj/Main.storyboard', 'fr', \(Self.repr(id)), \(Self.repr(source)), \(target.map(Self.repr) ?? "None"))"
      #expect(String(row) == python)
    }
    // Each note as ibtool's comment: the class IB names (not the custom class), quoted as a
    // .strings file quotes.
    for (id, source, _, className, property) in expected {
      let objectID = String(id.prefix { $0 != "." })
      let quoted = source.replacingOccurrences(of: "\"", with: "\\\"")
        .replacingOccurrences(of: "\n", with: "\\n")
      let note =
        "Class = \"\(className)\"; \(property) = \"\(quoted)\"; ObjectID = \"\(objectID)\";"
      #expect(french.contains("<note>\(note)</note>"), "\(id)")
    }
    // The development language: every target is its source.
    let english = try export(folder, "en")
    #expect(
      english.contains(
        """
              <trans-unit id="HEQ-Bp-kx7.normalTitle" xml:space="preserve">
                <source>Start</source>
                <target>Start</target>
        """))
    // A Base.lproj table's development language too, as Xcode writes it.
    #expect(english.contains("<source>Hello</source>\n        <target>Hello</target>"))
  }

  /// A Python string literal of `text`, as `repr` prints it.
  static func repr(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\n", with: "\\n")
    return text.contains("'") && !text.contains("\"")
      ? "\"\(escaped)\"" : "'\(escaped.replacingOccurrences(of: "'", with: "\\'"))'"
  }

  @Test(
    "an import writes a storyboard's translations to <lang>.lproj/<name>.strings as ibtool lays them out; unedited exports change nothing"
  )
  func storyboardImport() throws {
    let folder = try project()
    for language in ["fr", "en"] {
      _ = try export(folder, language)
      let plan = try LocalizationExchange.planImport(
        [folder.file("\(language).xliff")], into: folder.path)
      #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
      #expect(plan.writes.isEmpty, "\(language): \(plan.writes.map(\.path))")
    }
    // A translator fills every unit: Python's ElementTree rewrites the file.
    _ = try XLIFFExchangeTests.python(
      XLIFFExchangeTests.translate, [folder.file("fr.xliff"), "FR "])
    let plan = try LocalizationExchange.planImport([folder.file("fr.xliff")], into: folder.path)
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
    let table = try #require(plan.writes.first { $0.path.hasSuffix("fr.lproj/Main.strings") })
    let text = String(decoding: table.bytes, as: UTF8.self)
    #expect(
      text.hasPrefix(
        """
        /* Class = "UITableViewController"; title = "Transmitter Setup"; ObjectID = "Dds-49-o7G"; */
        "Dds-49-o7G.title" = "FR Transmitter Setup";
        """), "\(text)")
    #expect(
      text.contains(
        "\"Qub-6B-0aB.footerTitle\" = \"FR Found on the back.\\nOr in the \\\"Settings\\\" menu.\";"
      ))
    // Foundation reads what was written, every unit there.
    let read = try PropertyListSerialization.propertyList(from: Data(table.bytes), format: nil)
    #expect((read as? [String: String])?.count == 10)
    #expect((read as? [String: String])?["5oU-vK-JHQ.text"] == "FR Credentials")
  }

  @Test(
    "strings Xcode extracted from code import into the language's table with one warning; the development language's table is left alone"
  )
  func unitsFromCode() throws {
    let folder = try project()
    func document(_ language: String, _ target: String) -> String {
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
        <file original="App/Base.lproj/Localizable.strings" source-language="en" target-language="\(language)" datatype="plaintext">
          <body>
            <trans-unit id="hello" xml:space="preserve"><source>Hello</source><target>\(target == "Hello" ? "Hello" : "Bonjour")</target></trans-unit>
            <trans-unit id="Cancel" xml:space="preserve"><source>Cancel</source><target>\(target)</target><note>The cancel button</note></trans-unit>
          </body>
        </file>
      </xliff>

      """
    }
    try FileIO.writeAtomically(Array(document("fr", "Annuler").utf8), to: folder.file("fr.xliff"))
    var plan = try LocalizationExchange.planImport([folder.file("fr.xliff")], into: folder.path)
    #expect(plan.diagnostics.map(\.severity) == [.warning], "\(plan.diagnostics)")
    #expect(plan.diagnostics.first?.message.contains("1 unit is not in") == true)
    let table = try #require(plan.writes.first)
    #expect(table.path.hasSuffix("App/fr.lproj/Localizable.strings"))
    #expect(
      String(decoding: table.bytes, as: UTF8.self)
        == "/* Greeting */\n\"hello\" = \"Bonjour\";\n\n/* The cancel button */\n\"Cancel\" = \"Annuler\";\n"
    )
    // The development language: the Base table gets no key from code.
    try FileIO.writeAtomically(Array(document("en", "Hello").utf8), to: folder.file("en.xliff"))
    plan = try LocalizationExchange.planImport([folder.file("en.xliff")], into: folder.path)
    #expect(plan.diagnostics.map(\.severity) == [.warning], "\(plan.diagnostics)")
    #expect(plan.writes.isEmpty, "\(plan.writes.map(\.path))")
  }

  /// An intent definition in the shape Xcode writes (Loop's): texts with sibling `…ID` keys.
  static let intents = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    	<key>INEnums</key>
    	<array/>
    	<key>INIntents</key>
    	<array>
    		<dict>
    			<key>INIntentDescription</key>
    			<string>Add a carb entry</string>
    			<key>INIntentDescriptionID</key>
    			<string>yc02Yq</string>
    			<key>INIntentParameters</key>
    			<array>
    				<dict>
    					<key>INIntentParameterDisplayName</key>
    					<string>Override Name</string>
    					<key>INIntentParameterDisplayNameID</key>
    					<string>lYMuWV</string>
    					<key>INIntentParameterMetadata</key>
    					<dict>
    						<key>INIntentParameterMetadataDefaultValueID</key>
    						<string>sfi0XQ</string>
    					</dict>
    				</dict>
    			</array>
    			<key>INIntentResponse</key>
    			<dict>
    				<key>INIntentResponseCodes</key>
    				<array>
    					<dict>
    						<key>INIntentResponseCodeFormatString</key>
    						<string>I've set the "${name}" preset</string>
    						<key>INIntentResponseCodeFormatStringID</key>
    						<string>9KhaIS</string>
    					</dict>
    				</array>
    			</dict>
    			<key>INIntentTitle</key>
    			<string>Add Carb Entry</string>
    			<key>INIntentTitleID</key>
    			<string>80eo5o</string>
    		</dict>
    	</array>
    </dict>
    </plist>

    """

  @Test(
    "an intent definition's texts export by their ids as Python's plistlib pairs them, and import to <lang>.lproj/Intents.strings"
  )
  func intentDefinition() throws {
    let folder = try TemporaryFolder()
    try XLIFFExchangeTests.write(
      ["Common/Base.lproj/Intents.intentdefinition": Self.intents], in: folder)
    // Python pairs each string with its sibling `…ID` string, independently of our reader.
    let pairs = try XLIFFExchangeTests.python(
      """
      import plistlib, sys
      found = []
      def walk(v):
          if isinstance(v, dict):
              for k, x in v.items():
                  if k.endswith('ID') and isinstance(x, str) and isinstance(v.get(k[:-2]), str):
                      found.append((x, v[k[:-2]]))
                  walk(x)
          elif isinstance(v, list):
              for x in v: walk(x)
      walk(plistlib.load(open(sys.argv[1], 'rb')))
      for pair in sorted(found): print(repr(pair))
      """, [folder.file("Common/Base.lproj/Intents.intentdefinition")])
    var warnings: [Diagnostic] = []
    let outputs = try LocalizationExchange.export(
      [folder.path], to: folder.file("out"), languages: ["de"], developmentLanguage: "en",
      toolVersion: "test", warnings: &warnings)
    let xliff = try #require(outputs.first { $0.path.hasSuffix("/de.xliff") })
    try FileIO.writeAtomically(xliff.bytes, to: folder.file("de.xliff"))
    let rows = try XLIFFExchangeTests.python(XLIFFExchangeTests.units, [folder.file("de.xliff")])
    let ours = rows.split(separator: "\n").map { row -> String in
      // ('original', 'de', 'id', 'source', None) -> ('id', 'source')
      let fields = row.dropFirst().dropLast().components(separatedBy: ", ")
      return "(" + fields[2] + ", " + fields[3...].dropLast().joined(separator: ", ") + ")"
    }
    #expect(ours.sorted() == pairs.split(separator: "\n").map(String.init), "\(rows)")
    #expect(ours.count == 4)
    // Xcode's order (digits by value: 9KhaIS before 80eo5o) and an empty note.
    #expect(
      String(decoding: xliff.bytes, as: UTF8.self).contains(
        """
              <trans-unit id="9KhaIS" xml:space="preserve">
                <source>I've set the "${name}" preset</source>
                <note/>
              </trans-unit>
              <trans-unit id="80eo5o" xml:space="preserve">
        """))
    _ = try XLIFFExchangeTests.python(
      XLIFFExchangeTests.translate, [folder.file("de.xliff"), "DE "])
    let plan = try LocalizationExchange.planImport([folder.file("de.xliff")], into: folder.path)
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
    let table = try #require(plan.writes.first)
    #expect(table.path.hasSuffix("Common/de.lproj/Intents.strings"))
    let read = try PropertyListSerialization.propertyList(from: Data(table.bytes), format: nil)
    #expect((read as? [String: String])?["9KhaIS"] == "DE I've set the \"${name}\" preset")
    #expect((read as? [String: String])?.count == 4)
  }

  @Test(
    "a storyboard or table that is a link leading out of the tree is refused by name, its text never exported; a link inside is read"
  )
  func linksOut() throws {
    let folder = try TemporaryFolder()
    try XLIFFExchangeTests.write(
      [
        "outside/Secret.storyboard": Self.storyboard,
        "outside/Secret.strings": "\"secret\" = \"Secret table\";\n",
        "App/Base.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
      ], in: folder)
    func export() throws -> String {
      var warnings: [Diagnostic] = []
      let outputs = try LocalizationExchange.export(
        [folder.file("App")], to: folder.file("out"), languages: ["fr"],
        developmentLanguage: "en", toolVersion: "test", warnings: &warnings)
      let xliff = try #require(outputs.first { $0.path.hasSuffix("/fr.xliff") })
      return String(decoding: xliff.bytes, as: UTF8.self)
    }
    for (link, target) in [
      ("App/Base.lproj/Main.storyboard", "outside/Secret.storyboard"),
      ("App/Base.lproj/Other.strings", "outside/Secret.strings"),
    ] {
      try FileManager.default.createSymbolicLink(
        atPath: folder.file(link), withDestinationPath: folder.file(target))
      #expect {
        _ = try export()
      } throws: { error in
        "\(error)".contains("\(folder.file(link)): error: is a link that leads out of")
      }
      try FileManager.default.removeItem(atPath: folder.file(link))
    }
    // Inside the tree, a link is a table like another.
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("App/Base.lproj/Other.strings"),
      withDestinationPath: "Localizable.strings")
    #expect(try export().contains("<file original=\"Base.lproj/Other.strings\""))
  }
}
