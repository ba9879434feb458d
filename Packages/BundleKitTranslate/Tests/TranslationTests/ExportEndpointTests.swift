import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

@testable import BundleKitTranslationServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `GET /export.tmx`: the CLI's document, a file name a header can hold, one at a time.
extension ServerTests {
  /// The translation units of a TMX document and their languages, as Python's XML parser
  /// reads them.
  static func tmxSummary(_ path: String) throws -> String {
    let python = try #require(Tool.path("python3"))
    let summary = """
      import hashlib, sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      units = root.find("body").findall("tu")
      seen = sorted(
          (p.text or "", tuv.get("{http://www.w3.org/XML/1998/namespace}lang"), tuv.find("seg").text or "")
          for tu in units for p in tu.findall("prop") if p.get("type") == "x-bundlekit-key"
          for tuv in tu.findall("tuv"))
      print(root.get("version"), len(units), len(seen), hashlib.sha256(repr(seen).encode()).hexdigest())
      """
    return String(decoding: try Tool.run(python, ["-c", summary, path]).stdout, as: UTF8.self)
  }

  @Test("GET /export.tmx: the CLI's entries, a safe file name, and one export at a time")
  func exportEndpoint() async throws {
    let (server, translation) = try await RunningServer.translationServer(memory: memory)
    try await server.serving {
      let exported = try await http("GET", server.url.appendingPathComponent("export.tmx"))
      #expect(exported.status == 200)
      #expect(exported.headers["content-type"] == "application/x-tmx+xml")
      #expect(exported.headers["content-disposition"] == #"attachment; filename="memory.tmx""#)
      let served = fixture.folder.file("served.tmx")
      try Data(exported.text.utf8).write(to: URL(fileURLWithPath: served))
      let written = fixture.folder.file("written.tmx")
      let result = try BundleKitTool.run([
        "translate", "export", "--tmx", written, "--memory", fixture.memoryPath,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let fromServer = try Self.tmxSummary(served)
      #expect(fromServer.hasPrefix("1.4 "), "\(fromServer)")
      #expect(fromServer == (try Self.tmxSummary(written)))
      print("export.tmx: \(fromServer)")

      // A project name with a quote and a line break stays out of the header's syntax.
      let odd = try await http(
        "GET", try #require(URL(string: "\(server.url)/export.tmx?project=a%22b%0D%0AX:%20y")))
      #expect(odd.status == 200)
      #expect(odd.headers["content-disposition"] == #"attachment; filename="a_b__X__y.tmx""#)

      // While one export is being built, another gets 503 with Retry-After.
      translation.served.exporting.store(true, ordering: .relaxed)
      let busy = try await http("GET", server.url.appendingPathComponent("export.tmx"))
      translation.served.exporting.store(false, ordering: .relaxed)
      #expect(busy.status == 503)
      #expect(busy.headers["retry-after"] == "5")
      #expect(busy.object?["error"] as? String == "Another export is running; try again shortly")
      #expect(
        try await http("GET", server.url.appendingPathComponent("export.tmx")).status == 200)
    }
  }
}
