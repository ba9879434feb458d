import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

/// `.strings` tables written as property lists, which CoreFoundation reads and Xcode
/// builds: XML as translation platforms export them, binary as a compiled table.
struct PropertyListStringsTests {
  /// A German table as a translation platform exports it (XML, two-space indents, one
  /// placeholder that disagrees with English).
  static let exported = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>onboarding.title</key>
      <string>Willkommen &amp; los geht’s</string>
      <key>onboarding.greeting</key>
      <string>Hallo, %d!</string>
      <key>settings.empty</key>
      <dict/>
    </dict>
    </plist>

    """

  @Test("an XML .strings table is read in file order, each key at its <key> line")
  func reads() throws {
    let file = try StringsFile(bytes: Array(Self.exported.utf8), path: "de.lproj/X.strings")
    #expect(file.propertyListFormat == .xml1)
    #expect(
      file.entries.map(\.key) == ["onboarding.title", "onboarding.greeting", "settings.empty"])
    #expect(file.entries.map(\.line) == [5, 7, 9])
    #expect(file.entries.map(\.column) == [3, 3, 3])
    #expect(file.dictionary["onboarding.title"] == "Willkommen & los geht’s")
    // Binary, as compiled: read too.
    let binary = try PropertyListValue.dictionary(file.dictionary).encoded(as: .binary1)
    let compiled = try StringsFile(bytes: binary, path: "X.strings")
    #expect(compiled.propertyListFormat == .binary1)
    #expect(compiled.dictionary == file.dictionary)
    // Not a dictionary: an error naming the file.
    #expect(throws: PropertyListError.self) {
      try StringsFile(
        bytes: Array("<?xml version=\"1.0\"?><plist><array/></plist>".utf8), path: "A.strings")
    }
  }

  @Test("lint, compile and scan take XML tables; compile equals plutil's reading")
  func commands() throws {
    let folder = try TableFolder([
      "App/en.lproj/Localizable.strings":
        "\"onboarding.title\" = \"Welcome & let’s go\";\n\"onboarding.greeting\" = \"Hello, %@!\";\n",
      "App/de.lproj/Localizable.strings": Self.exported.replacingOccurrences(
        of: "  <key>settings.empty</key>\n  <dict/>\n", with: ""),
    ])
    let lint = try BundleKitTool.run(["strings", "lint", folder.file("App")])
    #expect(lint.status == 1)
    #expect(
      lint.stderr.contains(
        "App/de.lproj/Localizable.strings:7:3: error: \"onboarding.greeting\" (de): argument 1 is a 32-bit integer"
      ), "\(lint.stderr)")
    let fixed = Self.exported.replacingOccurrences(of: "%d", with: "%@")
      .replacingOccurrences(of: "  <key>settings.empty</key>\n  <dict/>\n", with: "")
    try FileIO.writeAtomically(
      Array(fixed.utf8), to: folder.file("App/de.lproj/Localizable.strings"))
    #expect(try BundleKitTool.run(["strings", "lint", folder.file("App")]).status == 0)
    let out = folder.file("out")
    let compile = try BundleKitTool.run([
      "strings", "compile", folder.file("App"), "--output-dir", out,
    ])
    #expect(compile.status == 0, "\(compile.stderr)")
    let compiled = try PropertyListDocument(contentsOfFile: out + "/de.lproj/Localizable.strings")
    #expect(compiled.format == .binary1)
    if let plutil = Tool.path("plutil") {
      let reading = try Tool.run(
        plutil, ["-convert", "json", "-o", "-", folder.file("App/de.lproj/Localizable.strings")])
      let expected = try JSONSerialization.jsonObject(with: reading.stdout) as? [String: String]
      var ours: [String: String] = [:]
      for (key, value) in compiled.value.dictionaryValue ?? [:] { ours[key] = value.stringValue }
      #expect(ours == expected)
    }
    let scan = try BundleKitTool.run([
      "scan", folder.file("App"), "--format", "json", "--no-describe",
    ])
    #expect(scan.status == 0, "\(scan.stderr)")
    #expect(!scan.stderr.contains("error"))
  }
}
