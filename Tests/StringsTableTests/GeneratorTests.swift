import BundleKitCodeGeneration
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

struct GeneratorTests {
  static let templates = Corpus.packageRoot.appendingPathComponent("Templates/strings").path

  func generate(_ files: [String: String]) throws -> String {
    let tables = try TableFolder(files)
    let loaded = StringsTableSet.load(try tables.tables())
    let main = try String(contentsOfFile: Self.templates + "/swift6.mustache", encoding: .utf8)
    let namespace = try String(
      contentsOfFile: Self.templates + "/namespace.mustache", encoding: .utf8)
    return try AccessorGenerator().generate(
      loaded, template: main, partials: ["namespace": namespace])
  }

  @Test("typed parameters in positional order, grouped by key segments, documented")
  func accessors() throws {
    let code = try generate([
      "en.lproj/Localizable.strings": """
      /* Shown on the home screen. */
      "home.title" = "Welcome";
      "home.greeting" = "Hello, %@! You have %d new messages.";
      "reorder" = "%2$@ before %1$.1f";
      "unsigned" = "%u of %lu";
      "class" = "A keyword";
      """,
      "en.lproj/Localizable.stringsdict": pluralsEnglish,
      "fr.lproj/Localizable.strings": "\"home.title\" = \"Bienvenue\";",
    ])
    // Compared whole: typed parameters in positional order, `class` in backticks, plurals,
    // keys grouped by segment, comments as notes.
    #expect(ExpectedOutput.difference(code, expected: "Accessors.swift.expected") == nil)
    // French keys are not accessors of their own.
    #expect(!code.contains("Bienvenue"))
  }

  @Test("line breaks in values and comments stay inside the doc comment")
  func lineBreaksInDocs() throws {
    let code = try generate([
      "en.lproj/Localizable.strings":
        "/* one\rtwo\r\nthree */\n\"key\" = \"first\\rsecond\\r\\nthird\\U2028fourth\";\n"
    ])
    #expect(
      code.contains(
        """
            /// first
            /// second
            /// third\\u{2028}fourth
            ///
            /// - Note: one
            /// - Note: two
            /// - Note: three
        """), "\(code)")
    #expect(Identifier.commentLines("a\r\n\nb\u{7}") == ["a", "", "b\\u{7}"])
  }

  @Test("the same input gives the same bytes")
  func deterministic() throws {
    let files = ["en.lproj/A.strings": "b = \"%@\";\na = x;\n", "B.xcstrings": catalog]
    #expect(try generate(files) == generate(files))
  }

  @Test("placeholders with no safe Swift type get a plain accessor and a warning")
  func unsupported() throws {
    let code = try generate(["en.lproj/Localizable.strings": "\"k\" = \"Name: %s\";"])
    #expect(code.contains("static var k: String"), "\(code)")
    #expect(!code.contains("func k("), "\(code)")
  }
}
