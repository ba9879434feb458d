import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit strings export` with `bundlekit-localize` beside it: each target's Swift code
/// in the export, as Xcode extracts it into the target's own tables.
@Suite struct ExportCodeTests {
  /// Writes `files` under `folder`.
  static func write(_ files: [String: String], in folder: TemporaryFolder) throws {
    for (path, text) in files {
      let url = URL(fileURLWithPath: folder.file(path))
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  static func xliff(_ folder: TemporaryFolder, _ language: String) throws -> String {
    try String(
      contentsOfFile: folder.file("L10n/\(language).xcloc/Localized Contents/\(language).xliff"),
      encoding: .utf8)
  }

  @Test(
    "a package target's code joins its .strings table, sorted as Xcode sorts (numbers as numbers); one with no table gets the catalog Xcode makes"
  )
  func packageTargets() throws {
    _ = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    _ = try #require(BundleKitTool.path, "bundlekit was not built here")
    let folder = try TemporaryFolder()
    try Self.write(
      [
        "Kit/Package.swift": "// swift-tools-version: 5.9\n",
        "Kit/Sources/Inbox/Resources/en.lproj/Localizable.strings":
          "/* Shown on the button */\n\"Archive\" = \"Archive\";\n\"Step 10\" = \"Step 10\";\n",
        "Kit/Sources/Inbox/Resources/de.lproj/Localizable.strings":
          "\"Archive\" = \"Archivieren\";\n\"Step 2\" = \"Schritt 2\";\n",
        "Kit/Sources/Inbox/InboxView.swift": """
        import SwiftUI
        struct InboxView: View {
          let count: Int
          var body: some View {
            Text("Step 2", bundle: .module)
            Text("Archive", bundle: .module, comment: "Archive button")
            Text("\\(count) unread", bundle: .module, comment: "Unread count")
          }
        }
        """,
        "Kit/Sources/Settings/SettingsView.swift": """
        import SwiftUI
        struct SettingsView: View {
          var body: some View {
            Text("Sign out", bundle: .module)
            Text("\\("a") and \\("b")", bundle: .module)
          }
        }
        """,
        "Kit/Sources/Settings/Resources/de.lproj/Other.strings": "\"x\" = \"y\";\n",
      ], in: folder)
    let export = try BundleKitTool.run(
      ["strings", "export", "Kit", "--xcloc", "L10n", "--language", "de"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    let german = try Self.xliff(folder, "de")
    // The table's keys and the code's, by key with numbers as numbers; the table's own
    // comment kept, the code's where the table has none, Xcode's words where neither has.
    #expect(
      german.contains(
        """
              <trans-unit id="%lld unread" xml:space="preserve">
                <source>%lld unread</source>
                <note>Unread count</note>
              </trans-unit>
              <trans-unit id="Archive" xml:space="preserve">
                <source>Archive</source>
                <target>Archivieren</target>
                <note>Shown on the button</note>
              </trans-unit>
              <trans-unit id="Step 2" xml:space="preserve">
                <source>Step 2</source>
                <target>Schritt 2</target>
                <note>No comment provided by engineer.</note>
              </trans-unit>
              <trans-unit id="Step 10" xml:space="preserve">
                <source>Step 10</source>
                <note/>
              </trans-unit>
            </body>
        """), "\(german)")
    // A target with code and no Localizable table: the catalog Xcode makes, beside its
    // sources, the numbered source unit of a key of two specifiers included.
    #expect(
      german.contains(
        #"<file original="Kit/Sources/Settings/Localizable.xcstrings" source-language="en" target-language="de" datatype="plaintext">"#
      ), "\(german)")
    #expect(german.contains("<trans-unit id=\"Sign out\" xml:space=\"preserve\">"))
    #expect(german.contains("<source>%1$@ and %2$@</source>"), "\(german)")
    let catalog = try String(
      contentsOfFile: folder.file(
        "L10n/de.xcloc/Source Contents/Kit/Sources/Settings/Localizable.xcstrings"),
      encoding: .utf8)
    #expect(catalog.contains("\"Sign out\" : {\n\n    }"), "\(catalog)")
    // Unedited, the export imports to nothing; the project is as it was.
    let again = try BundleKitTool.run(["strings", "import", "L10n/de.xcloc"], in: folder.path)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("nothing to import"), "\(again.stderr)")
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.file("Kit/Sources/Settings/Localizable.xcstrings")))
  }

  @Test(
    "an Xcode project: each target's code (its Compile Sources) joins its own table; a file in two targets gives its strings to both"
  )
  func projectTargets() throws {
    _ = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    _ = try #require(BundleKitTool.path, "bundlekit was not built here")
    let folder = try TemporaryFolder()
    let project = """
      // !$*UTF8*$!
      {
      	archiveVersion = 1;
      	objectVersion = 56;
      	objects = {
      		G0000001 = {isa = PBXGroup; children = (F0000001, F0000002, F0000003, V0000001, V0000002); sourceTree = "<group>"; };
      		F0000001 = {isa = PBXFileReference; path = Shared/Shared.swift; sourceTree = "<group>"; };
      		F0000002 = {isa = PBXFileReference; path = App/App.swift; sourceTree = "<group>"; };
      		F0000003 = {isa = PBXFileReference; path = Widget/Widget.swift; sourceTree = "<group>"; };
      		V0000001 = {isa = PBXVariantGroup; children = (R0000001); name = Localizable.strings; path = App; sourceTree = "<group>"; };
      		R0000001 = {isa = PBXFileReference; name = en; path = en.lproj/Localizable.strings; sourceTree = "<group>"; };
      		V0000002 = {isa = PBXVariantGroup; children = (R0000002); name = Localizable.strings; path = Widget; sourceTree = "<group>"; };
      		R0000002 = {isa = PBXFileReference; name = en; path = en.lproj/Localizable.strings; sourceTree = "<group>"; };
      		B0000001 = {isa = PBXBuildFile; fileRef = F0000001; };
      		B0000002 = {isa = PBXBuildFile; fileRef = F0000002; };
      		B0000003 = {isa = PBXBuildFile; fileRef = V0000001; };
      		B0000004 = {isa = PBXBuildFile; fileRef = F0000001; };
      		B0000005 = {isa = PBXBuildFile; fileRef = F0000003; };
      		B0000006 = {isa = PBXBuildFile; fileRef = V0000002; };
      		S0000001 = {isa = PBXSourcesBuildPhase; files = (B0000001, B0000002); };
      		H0000001 = {isa = PBXResourcesBuildPhase; files = (B0000003); };
      		S0000002 = {isa = PBXSourcesBuildPhase; files = (B0000004, B0000005); };
      		H0000002 = {isa = PBXResourcesBuildPhase; files = (B0000006); };
      		T0000001 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; buildPhases = (S0000001, H0000001); name = App; productType = "com.apple.product-type.application"; };
      		T0000002 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; buildPhases = (S0000002, H0000002); name = Widget; productType = "com.apple.product-type.app-extension"; };
      		L0000001 = {isa = XCConfigurationList; buildConfigurations = (C0000001); };
      		C0000001 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
      		P0000001 = {isa = PBXProject; buildConfigurationList = L0000001; mainGroup = G0000001; targets = (T0000001, T0000002); };
      	};
      	rootObject = P0000001;
      }

      """
    try Self.write(
      [
        "Shop.xcodeproj/project.pbxproj": project,
        "Shared/Shared.swift": "import SwiftUI\nlet done = Text(\"Done\")\n",
        "App/App.swift": "import SwiftUI\nlet cart = Text(\"Cart\")\n",
        "Widget/Widget.swift": "import SwiftUI\nlet today = Text(\"Today\")\n",
        "App/en.lproj/Localizable.strings": "\"Open\" = \"Open\";\n",
        "App/de.lproj/Localizable.strings": "\"Open\" = \"Öffnen\";\n",
        "Widget/en.lproj/Localizable.strings": "\"Open\" = \"Open\";\n",
      ], in: folder)
    let export = try BundleKitTool.run(
      ["strings", "export", ".", "--xcloc", "L10n", "--language", "de"], in: folder.path)
    #expect(export.status == 0, "\(export.stderr)")
    let german = try Self.xliff(folder, "de")
    func ids(_ original: String) -> [String] {
      guard let start = german.range(of: "<file original=\"\(original)\""),
        let end = german.range(of: "</file>", range: start.upperBound..<german.endIndex)
      else { return [] }
      return german[start.upperBound..<end.lowerBound].components(separatedBy: "<trans-unit id=\"")
        .dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }
    #expect(ids("App/en.lproj/Localizable.strings") == ["Cart", "Done", "Open"], "\(german)")
    #expect(ids("Widget/en.lproj/Localizable.strings") == ["Done", "Open", "Today"], "\(german)")
  }
}
