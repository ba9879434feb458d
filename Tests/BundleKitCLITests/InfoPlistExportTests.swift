import BundleKitFileSystem
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

/// Each target's Info.plist strings in the export, as Xcode makes them: the layout of
/// exelban/stats at a424dc8 (Xcode 11.6), FocusedWork (13.1), Mastoot (14.0) and tink (16.4),
/// whose committed exports hold an `InfoPlist.strings` per app, extension and framework.
struct InfoPlistExportTests {
  /// A project of five targets: an app whose product name is `$(TARGET_NAME:c99extidentifier)`,
  /// a widget, a framework with its own `InfoPlist.strings`, a test bundle, and an app whose
  /// Info.plist Xcode generates (INFOPLIST_KEY_ settings over its file).
  static let project = """
    // !$*UTF8*$!
    {
    	archiveVersion = 1;
    	objectVersion = 56;
    	objects = {
    		G0000001 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
    		T0000001 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; name = "My App"; productType = "com.apple.product-type.application"; };
    		L0000001 = {isa = XCConfigurationList; buildConfigurations = (C0000001, C0000002); };
    		C0000001 = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "App/Info.plist"; PRODUCT_NAME = "$(TARGET_NAME:c99extidentifier)"; }; name = Debug; };
    		C0000002 = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "App/Info.plist"; PRODUCT_NAME = "$(TARGET_NAME:c99extidentifier)"; }; name = Release; };
    		T0000002 = {isa = PBXNativeTarget; buildConfigurationList = L0000002; name = Widget; productType = "com.apple.product-type.app-extension"; };
    		L0000002 = {isa = XCConfigurationList; buildConfigurations = (C0000003); };
    		C0000003 = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "Widget/Info.plist"; PRODUCT_NAME = "$(TARGET_NAME)Extension"; }; name = Release; };
    		T0000003 = {isa = PBXNativeTarget; buildConfigurationList = L0000003; name = Kit; productType = "com.apple.product-type.framework"; };
    		L0000003 = {isa = XCConfigurationList; buildConfigurations = (C0000004); };
    		C0000004 = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "Kit/Info.plist"; }; name = Release; };
    		T0000004 = {isa = PBXNativeTarget; buildConfigurationList = L0000004; name = AppTests; productType = "com.apple.product-type.bundle.unit-test"; };
    		L0000004 = {isa = XCConfigurationList; buildConfigurations = (C0000005); };
    		C0000005 = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "AppTests/Info.plist"; }; name = Release; };
    		T0000005 = {isa = PBXNativeTarget; buildConfigurationList = L0000005; name = Modern; productType = "com.apple.product-type.application"; };
    		L0000005 = {isa = XCConfigurationList; buildConfigurations = (C0000006); };
    		C0000006 = {isa = XCBuildConfiguration; buildSettings = { GENERATE_INFOPLIST_FILE = YES; INFOPLIST_FILE = "Modern/Info.plist"; INFOPLIST_KEY_CFBundleDisplayName = "Modern Times"; INFOPLIST_KEY_NSCameraUsageDescription = "Scans $(PRODUCT_NAME) receipts"; }; name = Release; };
    		P0000001 = {isa = PBXProject; buildConfigurationList = P0000002; mainGroup = G0000001; targets = (T0000001, T0000002, T0000003, T0000004, T0000005); };
    		P0000002 = {isa = XCConfigurationList; buildConfigurations = (P0000003); };
    		P0000003 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
    	};
    	rootObject = P0000001;
    }

    """

  static func plist(_ entries: [String: String]) -> String {
    let body = entries.sorted { $0.key < $1.key }.map {
      "<key>\($0.key)</key><string>\($0.value)</string>"
    }.joined()
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>\(body)</dict></plist>

      """
  }

  static func folder() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let files = [
      "Shop.xcodeproj/project.pbxproj": project,
      "App/Info.plist": plist([
        "CFBundleName": "$(PRODUCT_NAME)", "CFBundleVersion": "1",
        "NSCameraUsageDescription": "Scans \"receipts\"",
        "NSPhotoLibraryAddUsageDescription": "", "UIMainStoryboardFile": "Main",
      ]),
      "App/en.lproj/Localizable.strings": "\"Open\" = \"Open\";\n",
      "App/de.lproj/Localizable.strings": "\"Open\" = \"Öffnen\";\n",
      "App/de.lproj/InfoPlist.strings": "\"CFBundleName\" = \"Mein App\";\n",
      "Widget/Info.plist": plist([
        "CFBundleDisplayName": "Today", "CFBundleName": "$(PRODUCT_NAME)",
        "NSHumanReadableCopyright": "© 2026 Shop",
      ]),
      "Kit/Info.plist": plist(["CFBundleName": "$(PRODUCT_NAME)"]),
      "Kit/en.lproj/InfoPlist.strings": "/* Kit's own */\n\"CFBundleName\" = \"Kit\";\n",
      "AppTests/Info.plist": plist(["CFBundleName": "$(PRODUCT_NAME)"]),
      "Modern/Info.plist": plist(["CFBundleDisplayName": "Old", "CFBundleName": "$(PRODUCT_NAME)"]),
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    return folder
  }

  @Test(
    "export: an InfoPlist.strings per app, extension and framework, as Xcode makes it; an unedited import changes nothing; a translation creates the table"
  )
  func infoPlistStrings() throws {
    let folder = try Self.folder()
    let export = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "de", "--language", "en"],
      in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    let german = try String(
      contentsOfFile: folder.file("L10n/de.xcloc/Localized Contents/de.xliff"), encoding: .utf8)
    let originals = german.components(separatedBy: "\n").filter { $0.contains("<file ") }
    // Sorted by path; the app's table is translated (datatype last), the others are not
    // (datatype first, as Xcode writes a table the language lacks); the framework's own
    // table is its own; no test bundle.
    #expect(
      originals == [
        #"  <file original="App/en.lproj/InfoPlist.strings" source-language="en" target-language="de" datatype="plaintext">"#,
        #"  <file original="App/en.lproj/Localizable.strings" source-language="en" target-language="de" datatype="plaintext">"#,
        #"  <file original="Kit/en.lproj/InfoPlist.strings" datatype="plaintext" source-language="en" target-language="de">"#,
        #"  <file original="Modern/en.lproj/InfoPlist.strings" datatype="plaintext" source-language="en" target-language="de">"#,
        #"  <file original="Widget/en.lproj/InfoPlist.strings" datatype="plaintext" source-language="en" target-language="de">"#,
      ], "\(german)")
    // Values as the app gets them; keys sorted; Xcode's names as notes; an empty usage
    // description kept; a key Xcode does not translate left out.
    #expect(
      german.contains(
        """
              <trans-unit id="CFBundleName" xml:space="preserve">
                <source>My_App</source>
                <target>Mein App</target>
                <note>Bundle name</note>
              </trans-unit>
              <trans-unit id="NSCameraUsageDescription" xml:space="preserve">
                <source>Scans "receipts"</source>
                <note>Privacy - Camera Usage Description</note>
              </trans-unit>
              <trans-unit id="NSPhotoLibraryAddUsageDescription" xml:space="preserve">
                <source/>
                <note>Privacy - Photo Library Additions Usage Description</note>
              </trans-unit>
            </body>
        """), "\(german)")
    #expect(!german.contains("UIMainStoryboardFile"))
    #expect(german.contains("<source>Modern Times</source>"))
    #expect(german.contains("<source>Scans Modern receipts</source>"))
    #expect(german.contains("<source>WidgetExtension</source>"))
    #expect(german.contains("<note>Copyright (human-readable)</note>"))
    #expect(german.contains("<note>Kit's own</note>"))
    // Source Contents holds the table Xcode made, in Xcode's form, and the project's own.
    let made = try String(
      contentsOfFile: folder.file(
        "L10n/de.xcloc/Source Contents/Widget/en.lproj/InfoPlist.strings"),
      encoding: .utf8)
    #expect(
      made
        == "/* Bundle display name */\n\"CFBundleDisplayName\" = \"Today\";\n/* Bundle name */\n\"CFBundleName\" = \"WidgetExtension\";\n/* Copyright (human-readable) */\n\"NSHumanReadableCopyright\" = \"© 2026 Shop\";\n"
    )
    let own = try FileIO.read(
      folder.file("L10n/de.xcloc/Source Contents/Kit/en.lproj/InfoPlist.strings"))
    #expect(own == (try FileIO.read(folder.file("Kit/en.lproj/InfoPlist.strings"))))
    // Read by CoreFoundation's rules (our reader, checked against plutil elsewhere).
    let table = try StringsFile(bytes: Array(made.utf8), path: "InfoPlist.strings")
    #expect(table.dictionary["CFBundleName"]?.stringValue == "WidgetExtension")

    // Unedited, either language's export imports with nothing written.
    for language in ["de", "en"] {
      let again = try BundleKitTool.run(
        ["strings", "import", "L10n/\(language).xcloc"], in: folder.path)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(again.stderr.contains("nothing to import"), "\(language): \(again.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("Widget/en.lproj")))

    // A translation of a table the project lacks creates it, and its .lproj, beside the
    // Info.plist.
    let xliff = folder.file("L10n/de.xcloc/Localized Contents/de.xliff")
    try FileIO.writeAtomically(
      Array(
        german.replacingOccurrences(
          of: "<source>Today</source>",
          with: "<source>Today</source>\n        <target>Heute</target>"
        ).utf8), to: xliff)
    let imported = try BundleKitTool.run(["strings", "import", "L10n/de.xcloc"], in: folder.path)
    #expect(imported.status == 0, "\(imported.stderr)")
    let created = try StringsFile(contentsOfFile: folder.file("Widget/de.lproj/InfoPlist.strings"))
    #expect(created.dictionary == ["CFBundleDisplayName": .string("Heute")])
    #expect(!FileManager.default.fileExists(atPath: folder.file("Widget/en.lproj")))
  }

  @Test(
    "Xcode's names for Info.plist keys: the ones in real exports, and usage descriptions by their words"
  )
  func keyNames() throws {
    let folder = try TemporaryFolder()
    let keys = [
      "NSAppleEventsUsageDescription": "Privacy - AppleEvents Sending Usage Description",
      "NSBluetoothAlwaysUsageDescription": "Privacy - Bluetooth Always Usage Description",
      "NSFaceIDUsageDescription": "Privacy - Face ID Usage Description",
      "NSHealthShareUsageDescription": "Privacy - Health Share Usage Description",
      "NSLocationWhenInUseUsageDescription": "Privacy - Location When In Use Usage Description",
      "NSSiriUsageDescription": "Privacy - Siri Usage Description",
      "NSHomeKitUsageDescription": "Privacy - HomeKit Usage Description",
      "CFBundleGetInfoString": "Get Info string",
    ]
    let files = [
      "P.xcodeproj/project.pbxproj": Self.project,
      "App/Info.plist": Self.plist(keys.mapValues { _ in "x" }),
      "App/en.lproj/Localizable.strings": "\"Open\" = \"Open\";\n",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let export = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "fr"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    let xliff = try String(
      contentsOfFile: folder.file("L10n/fr.xcloc/Localized Contents/fr.xliff"), encoding: .utf8)
    for (key, name) in keys {
      #expect(
        xliff.contains(
          "<trans-unit id=\"\(key)\" xml:space=\"preserve\">\n        <source>x</source>\n        <note>\(name)</note>"
        ), "\(key)")
    }
  }

  @Test(
    "an Info.plist that is a link out of the tree, or named by an absolute path outside it, is not read: a warning, nothing of it exported"
  )
  func outsideInfoPlist() throws {
    let outside = try TemporaryFolder()
    try FileIO.writeAtomically(
      Array(Self.plist(["CFBundleName": "SECRET-VALUE"]).utf8), to: outside.file("Info.plist"))
    let folder = try Self.folder()
    try FileManager.default.removeItem(atPath: folder.file("Widget/Info.plist"))
    // Kit's own table gone, a table made from the Info.plist outside would show.
    try FileManager.default.removeItem(atPath: folder.file("Kit/en.lproj/InfoPlist.strings"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("Widget/Info.plist"), withDestinationPath: outside.file("Info.plist"))
    try FileIO.writeAtomically(
      Array(
        Self.project.replacingOccurrences(
          of: "INFOPLIST_FILE = \"Kit/Info.plist\"",
          with: "INFOPLIST_FILE = \"\(outside.file("Info.plist"))\""
        ).utf8), to: folder.file("Shop.xcodeproj/project.pbxproj"))
    let export = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "de"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(!export.stderr.contains("SECRET-VALUE"))
    #expect(export.stderr.contains("Widget"), "\(export.stderr)")
    let xliff = try String(
      contentsOfFile: folder.file("L10n/de.xcloc/Localized Contents/de.xliff"), encoding: .utf8)
    #expect(!xliff.contains("SECRET-VALUE"))
    #expect(!xliff.contains("Widget/en.lproj/InfoPlist.strings"))
    #expect(!xliff.contains("Kit/en.lproj/InfoPlist.strings"))
    #expect(export.stderr.contains("Kit"), "\(export.stderr)")
    // The app's own table is still there.
    #expect(xliff.contains("<file original=\"App/en.lproj/InfoPlist.strings\""))
  }

  @Test(
    "with LOCALIZATION_PREFERS_STRING_CATALOGS, the table made is a String Catalog beside the Info.plist (FitTrackPro, Xcode 26.5); unedited it imports to nothing"
  )
  func infoPlistCatalog() throws {
    let folder = try Self.folder()
    try FileIO.writeAtomically(
      Array(
        Self.project.replacingOccurrences(
          of: "INFOPLIST_FILE = \"Widget/Info.plist\";",
          with:
            "INFOPLIST_FILE = \"Widget/Info.plist\"; GENERATE_INFOPLIST_FILE = YES; LOCALIZATION_PREFERS_STRING_CATALOGS = YES; INFOPLIST_KEY_NSHumanReadableCopyright = \"\";"
        ).utf8), to: folder.file("Shop.xcodeproj/project.pbxproj"))
    try FileIO.writeAtomically(
      Array(Self.plist(["CFBundleDisplayName": "Today"]).utf8), to: folder.file("Widget/Info.plist")
    )
    let export = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "en"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    // The header left out: its <tool> names this build.
    let english = try String(
      contentsOfFile: folder.file("L10n/en.xcloc/Localized Contents/en.xliff"), encoding: .utf8
    ).replacingOccurrences(
      of: #"\n    <header>\n      <tool [^\n]*/>\n    </header>"#, with: "",
      options: .regularExpression)
    #expect(
      english.contains(
        """
          <file original="Widget/InfoPlist.xcstrings" source-language="en" target-language="en" datatype="plaintext">
            <body>
              <trans-unit id="CFBundleDisplayName" xml:space="preserve">
                <source>Today</source>
                <target state="new">Today</target>
                <note>Bundle display name</note>
              </trans-unit>
              <trans-unit id="CFBundleName" xml:space="preserve">
                <source>WidgetExtension</source>
                <target state="new">WidgetExtension</target>
                <note>Bundle name</note>
              </trans-unit>
              <trans-unit id="NSHumanReadableCopyright" xml:space="preserve">
                <source/>
                <target state="new"/>
                <note>Copyright (human-readable)</note>
              </trans-unit>
            </body>
          </file>
        """), "\(english)")
    // Source Contents holds the catalog, read by Python's json.
    let keys = try ReportFormatTests.pythonScript(
      "import json, sys; d = json.load(open(sys.argv[1])); print(d['sourceLanguage'], sorted(d['strings']), d['strings']['CFBundleName']['extractionState'])",
      [folder.file("L10n/en.xcloc/Source Contents/Widget/InfoPlist.xcstrings")])
    #expect(
      keys
        == "en ['CFBundleDisplayName', 'CFBundleName', 'NSHumanReadableCopyright'] extracted_with_value\n"
    )
    let again = try BundleKitTool.run(["strings", "import", "L10n/en.xcloc"], in: folder.path)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("nothing to import"), "\(again.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("Widget/InfoPlist.xcstrings")))

    // Two languages' translations in one run create the catalog once, with both; a
    // language with none creates nothing.
    let exported = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "de", "--language", "fr"],
      in: folder.path)
    #expect(exported.status == 0, "\(exported.stderr)")
    for (language, text) in [("de", "Heute"), ("fr", "Aujourd’hui")] {
      let path = folder.file("L10n/\(language).xcloc/Localized Contents/\(language).xliff")
      let xliff = try String(contentsOfFile: path, encoding: .utf8)
      try FileIO.writeAtomically(
        Array(
          xliff.replacingOccurrences(
            of: "<source>Today</source>",
            with: "<source>Today</source>\n        <target state=\"translated\">\(text)</target>"
          ).utf8), to: path)
    }
    let both = try BundleKitTool.run(
      ["strings", "import", "L10n/de.xcloc", "L10n/fr.xcloc"], in: folder.path)
    #expect(both.status == 0, "\(both.stderr)")
    let catalog = try StringCatalog(contentsOfFile: folder.file("Widget/InfoPlist.xcstrings"))
    let display = try #require(catalog.strings["CFBundleDisplayName"])
    #expect(display.localizations["de"]?.stringUnit?.value == "Heute")
    #expect(display.localizations["fr"]?.stringUnit?.value == "Aujourd’hui")
  }

  @Test(
    "a target's own InfoPlist table, wherever the project keeps it, is exported with the Info.plist's keys it lacks, sorted (Loop, FitTrackPro)"
  )
  func ownTableMerged() throws {
    let folder = try TemporaryFolder()
    let project = """
      // !$*UTF8*$!
      {
      	archiveVersion = 1;
      	objectVersion = 56;
      	objects = {
      		G0000001 = {isa = PBXGroup; children = (G0000002, V0000001); sourceTree = "<group>"; };
      		G0000002 = {isa = PBXGroup; children = (); path = App; sourceTree = "<group>"; };
      		V0000001 = {isa = PBXVariantGroup; children = (R0000001, R0000002); name = InfoPlist.strings; path = Resources; sourceTree = "<group>"; };
      		R0000001 = {isa = PBXFileReference; name = en; path = en.lproj/InfoPlist.strings; sourceTree = "<group>"; };
      		R0000002 = {isa = PBXFileReference; name = de; path = de.lproj/InfoPlist.strings; sourceTree = "<group>"; };
      		B0000001 = {isa = PBXBuildFile; fileRef = V0000001; };
      		H0000001 = {isa = PBXResourcesBuildPhase; files = (B0000001); };
      		T0000001 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; buildPhases = (H0000001); name = App; productType = "com.apple.product-type.application"; };
      		L0000001 = {isa = XCConfigurationList; buildConfigurations = (C0000001); };
      		C0000001 = {isa = XCBuildConfiguration; buildSettings = { GENERATE_INFOPLIST_FILE = YES; INFOPLIST_FILE = "App/Info.plist"; INFOPLIST_KEY_NSHealthShareUsageDescription = "Reads workouts"; }; name = Release; };
      		P0000001 = {isa = PBXProject; buildConfigurationList = P0000002; mainGroup = G0000001; targets = (T0000001); };
      		P0000002 = {isa = XCConfigurationList; buildConfigurations = (P0000003); };
      		P0000003 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
      	};
      	rootObject = P0000001;
      }

      """
    let files = [
      "Shop.xcodeproj/project.pbxproj": project,
      "App/Info.plist": Self.plist(["CFBundleDisplayName": "Shop"]),
      "Resources/en.lproj/InfoPlist.strings":
        "\"NSHealthShareUsageDescription\" = \"Reads your workouts\";\n\"NSCameraUsageDescription\" = \"Scans\";\n",
      "Resources/de.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Laden\";\n",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let export = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "de"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    let xliff = try String(
      contentsOfFile: folder.file("L10n/de.xcloc/Localized Contents/de.xliff"), encoding: .utf8)
    #expect(!xliff.contains("App/en.lproj"), "\(xliff)")
    // The table's value wins over the setting; the table's keys keep their (empty) note
    // unless the Info.plist has them; all sorted.
    #expect(
      xliff.contains(
        """
            <body>
              <trans-unit id="CFBundleDisplayName" xml:space="preserve">
                <source>Shop</source>
                <target>Laden</target>
                <note>Bundle display name</note>
              </trans-unit>
              <trans-unit id="CFBundleName" xml:space="preserve">
                <source>App</source>
                <note>Bundle name</note>
              </trans-unit>
              <trans-unit id="NSCameraUsageDescription" xml:space="preserve">
                <source>Scans</source>
                <note/>
              </trans-unit>
              <trans-unit id="NSHealthShareUsageDescription" xml:space="preserve">
                <source>Reads your workouts</source>
                <note>Privacy - Health Share Usage Description</note>
              </trans-unit>
            </body>
        """), "\(xliff)")
    // Source Contents keeps the table as it is.
    #expect(
      try FileIO.read(
        folder.file("L10n/de.xcloc/Source Contents/Resources/en.lproj/InfoPlist.strings"))
        == (try FileIO.read(folder.file("Resources/en.lproj/InfoPlist.strings"))))
    let again = try BundleKitTool.run(["strings", "import", "L10n/de.xcloc"], in: folder.path)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("nothing to import"), "\(again.stderr)")
  }
}
