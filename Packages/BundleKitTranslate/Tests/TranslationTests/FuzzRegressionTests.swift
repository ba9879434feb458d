import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

/// Every TMX input the fuzzing campaign kept (Scripts/fuzz/Regressions/FuzzTMX), read
/// again as the fuzz target reads it: a crash fails the run.
@Suite(.offThePool)
struct TMXFuzzRegressionTests {
  @Test("TMX inputs the fuzzer kept: read, no crash")
  func tmx() throws {
    for input in try FuzzRegressions.inputs("FuzzTMX") {
      _ = try? TMXDocument.read(input.bytes, path: "Fuzz.tmx")
    }
  }
}

/// TMX written from values that put markup next to combining marks and prepended
/// characters: every export is XML Python reads, with the same texts, and reads back.
@Suite(.offThePool)
struct TMXEscapingTests {
  @Test("TMX export escapes per scalar: & + U+0301, U+0600 + <; Python and our reader agree")
  func escapingPerScalar() throws {
    let values = ["&\u{301}", "\u{600}<tu>x</tu>", "a\u{600}&b", "]]>&amp;\u{94D}", "<\u{308}>"]
    var records: [TranslationRecord] = []
    for (index, value) in values.enumerated() {
      records.append(
        TranslationRecord(
          bundle: "App", table: "Localizable", key: "k\(index)\u{301}&", language: "en",
          value: "source \(index)"))
      records.append(
        TranslationRecord(
          bundle: "App", table: "Localizable", key: "k\(index)\u{301}&", language: "de",
          value: value, comment: value))
    }
    let bytes = TMXDocument.write(records, sourceLanguage: "en", toolVersion: "test")
    let folder = try TemporaryFolder()
    let path = folder.file("out.tmx")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let read = try TMXDocument.read(bytes, path: path)
    #expect(Set(read.records.filter { $0.language == "de" }.map(\.value)) == Set(values))
    let python = try #require(Tool.path("python3"))
    let script = """
      import sys, json, xml.etree.ElementTree as ET
      segs = [t.find('seg').text for t in ET.parse(sys.argv[1]).getroot().iter('tuv') if t.get('{http://www.w3.org/XML/1998/namespace}lang') == 'de']
      print(json.dumps(segs))
      """
    let run = try Tool.run(python, ["-c", script, path])
    #expect(run.status == 0, "\(run.stderr)")
    let parsed = try JSONSerialization.jsonObject(with: run.stdout) as? [String]
    #expect(Set(parsed ?? []) == Set(values))
    // No crafted value adds a unit.
    #expect(parsed?.count == values.count)
  }

  @Test("a one-line TMX of 20,000 units is read (in one pass per line)")
  func oneLine() throws {
    var text = #"<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body>"#
    for index in 0..<20_000 {
      text +=
        #"<tu><tuv xml:lang="en"><seg>s\#(index)</seg></tuv><tuv xml:lang="de"><seg>t\#(index)</seg></tuv></tu>"#
    }
    text += "</body></tmx>"
    let read = try TMXDocument.read(Array(text.utf8), path: "one.tmx")
    #expect(read.records.count == 40_000)
  }
}
