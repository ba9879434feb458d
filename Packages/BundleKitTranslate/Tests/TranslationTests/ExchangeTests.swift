import BundleKitFileSystem
import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

/// TMX export and import, XLIFF import: checked with Python's XML reader and with TMX that
/// Translate Toolkit writes, through `bundlekit translate` as a user runs it.
@Suite("translate export and import", .serialized, .offThePool)
struct ExchangeTests {
  @Test("export, import into an empty memory, export again: the same bytes, the same records")
  func roundTrip() throws {
    let fixture = try MemoryFixture()
    let tmx = fixture.folder.file("memory.tmx")
    var result = try BundleKitTool.run([
      "translate", "export", "--tmx", tmx, "--memory", fixture.memoryPath,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let python = try #require(Tool.path("python3"))
    let summary = """
      import sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      units = root.find("body").findall("tu")
      print(root.get("version"), root.find("header").get("srclang"), len(units))
      for tu in units:
          props = {p.get("type"): p.text for p in tu.findall("prop")}
          if props.get("x-bundlekit-key") == "greeting":
              for tuv in tu.findall("tuv"):
                  print(tuv.get("{http://www.w3.org/XML/1998/namespace}lang"), tuv.find("seg").text)
      """
    let read = String(decoding: try Tool.run(python, ["-c", summary, tmx]).stdout, as: UTF8.self)
    let entries = Int(result.stdout.split(separator: " ").dropFirst().first ?? "") ?? 0
    #expect(read.hasPrefix("1.4 en \(entries)\n"), "\(read)")
    #expect(read.hasSuffix("en Hello, %@!\nde Hallo, %@!\n"), "\(read)")

    let copy = fixture.folder.file("copy.sqlite")
    result = try BundleKitTool.run(["translate", "import", tmx, "--memory", copy])
    #expect(result.status == 0, "\(result.stderr)")
    let again = fixture.folder.file("again.tmx")
    result = try BundleKitTool.run(["translate", "export", "--tmx", again, "--memory", copy])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileIO.read(again) == FileIO.read(tmx))
    let before = try MemoryExchange.records(inMemory: fixture.memoryPath)
    let after = try MemoryExchange.records(inMemory: copy)
    #expect(Set(after.records) == Set(before.records))
    #expect(after.developmentLanguage == before.developmentLanguage)
  }

  @Test(
    "TMX from Translate Toolkit (po2tmx) and XLIFF from Xcode import, and answer lookups",
    .enabled(if: Corpus.has("moz-l10n-xliff"), Corpus.reason("moz-l10n-xliff")))
  func foreignFiles() throws {
    let fixture = try MemoryFixture()
    let python = try #require(Tool.path("python3"))
    let po = fixture.folder.file("de.po")
    try FileIO.writeAtomically(
      Array(
        """
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Language: de\\n"

        #. Shown on the sync screen
        msgid "Sync now & wait <briefly>"
        msgstr "Jetzt synchronisieren & kurz <warten>"

        msgid "Reload"
        msgstr "Neu laden"

        """.utf8), to: po)
    let tmx = fixture.folder.file("toolkit.tmx")
    let convert = try Tool.run(python, ["-m", "translate.convert.po2tmx", "-l", "de", po, tmx])
    #expect(
      convert.status == 0,
      "po2tmx (pip install translate-toolkit; Scripts/bootstrap.sh --oracles): \(convert.stderr)")
    let xliff = Corpus.path("moz-l10n-xliff/xcode.xliff")
    var result = try BundleKitTool.run([
      "translate", "import", tmx, xliff, "--memory", fixture.memoryPath,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    for (text, language, expected) in [
      ("Sync now & wait <briefly>", "de", "Jetzt synchronisieren & kurz <warten>"),
      ("Reload", "de", "Neu laden"),
      ("Pages: %d", "it", "Pagine: %d"),
      ("%d entries selected", "it", "%d voci selezionate"),
      ("Cancel", "de", "Abbrechen"),  // what the memory had is kept
    ] {
      result = try BundleKitTool.run([
        "translate", "lookup", text, "--to", language, "--memory", fixture.memoryPath,
      ])
      #expect(result.stdout.split(separator: "\n").first.map(String.init) == expected, "\(text)")
    }
  }

  @Test("a malformed file is an error with its line and column, and the memory is untouched")
  func malformed() throws {
    let fixture = try MemoryFixture()
    let before = try FileIO.read(fixture.memoryPath)
    let cases: [(String, String)] = [
      (
        "<tmx version=\"1.4\"><header srclang=\"en\"/><body>\n<tu>\n  <tuv><seg>a</seg></tuv>\n</tu></body></tmx>",
        ":3:3: error: <tuv> has no xml:lang"
      ),
      (
        "<tmx version=\"1.4\"><header srclang=\"en\"/><body>\n<tu><tuv xml:lang=\"de\"><seg>a <ph>x</ph></seg></tuv></tu></body></tmx>",
        ":2:31: error: <ph> inside <seg>: inline markup is not supported"
      ),
      ("<tmx version=\"1.4\"><header srclang=\"en\"/><body>\n<tu>\n</body></tmx>", ":3:"),
      ("<xliff/>", ":1:1: error: not a TMX document"),
    ]
    for (index, (text, expected)) in cases.enumerated() {
      let path = fixture.folder.file("bad\(index).tmx")
      try FileIO.writeAtomically(Array(text.utf8), to: path)
      let good = fixture.folder.file("good.tmx")
      _ = try BundleKitTool.run([
        "translate", "export", "--tmx", good, "--memory", fixture.memoryPath,
      ])
      let result = try BundleKitTool.run([
        "translate", "import", good, path, "--memory", fixture.memoryPath,
      ])
      #expect(result.status == 1, "case \(index)")
      #expect(result.stderr.contains(path + expected), "case \(index): \(result.stderr)")
      #expect(try FileIO.read(fixture.memoryPath) == before, "case \(index) changed the memory")
    }
  }

  @Test("mutated TMX never crashes the reader: records or errors with a line")
  func mutations() throws {
    let fixture = try MemoryFixture()
    let tmx = fixture.folder.file("memory.tmx")
    try MemoryExchange.exportTMX(memory: fixture.memoryPath, to: tmx, toolVersion: "test")
    let original = try FileIO.read(tmx)
    let seed = SeededGenerator.seed("tmx mutations")
    var random = SeededGenerator(seed: seed)
    var read = 0
    var refused = 0
    for round in 0..<400 {
      let bytes = random.mutate(original)
      do {
        _ = try TMXDocument.read(bytes, path: "m.tmx")
        read += 1
      } catch let error as TranslationError {
        refused += 1
        for diagnostic in error.diagnostics {
          #expect(diagnostic.line != nil, "round \(round) (seed \(seed)): \(diagnostic)")
        }
      }
    }
    print("tmx mutations (seed \(seed)): \(refused) refused, \(read) read")
    #expect(read + refused == 400)
  }
}
