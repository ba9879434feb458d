import BundleKitFileSystem
import BundleKitTestSupport
import BundleKitTranslation
import Foundation
import Testing

/// The memory's schema: versioned migrations, older memories read and migrated, a newer one
/// refused with a message saying what to do; projects and review states kept through TMX.
@Suite("translation memory schema", .serialized, .offThePool)
struct SchemaTests {
  /// The fixture's memory turned back into schema 1 (no projects, no review states).
  static func schemaOne(_ fixture: MemoryFixture) throws -> String {
    let path = fixture.folder.file("v1.sqlite")
    try FileManager.default.copyItem(atPath: fixture.memoryPath, toPath: path)
    let sqlite = try #require(Tool.path("python3"))
    let script = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.executescript('''
        DROP INDEX units_by_key;
        ALTER TABLE units DROP COLUMN project;
        ALTER TABLE translations DROP COLUMN state;
        CREATE UNIQUE INDEX units_by_key ON units (key, tbl, bundle, variant);
        UPDATE meta SET value = '1' WHERE name = 'schema';
      ''')
      db.commit()
      """
    let result = try Tool.run(sqlite, ["-c", script, path])
    #expect(result.status == 0, "\(result.stderr)")
    return path
  }

  @Test("schema 1 is read as it is, migrated in place once, and keeps every record")
  func olderSchema() throws {
    let fixture = try MemoryFixture()
    let path = try Self.schemaOne(fixture)
    var result = try BundleKitTool.run([
      "translate", "lookup", "Cancel", "--to", "de", "--memory", path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Abbrechen\n"))
    let before = try MemoryExchange.records(inMemory: path).records
    result = try BundleKitTool.run(["translate", "migrate", "--memory", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(path): schema 1 -> 2\n")
    result = try BundleKitTool.run(["translate", "migrate", "--memory", path])
    #expect(result.stdout == "\(path): schema 2, nothing to do\n")
    #expect(Set(try MemoryExchange.records(inMemory: path).records) == Set(before))
    #expect(before.allSatisfy { $0.project == "" && $0.state == .translated })
  }

  @Test("a newer schema is refused by lookup, migrate and import, and left as it was")
  func newerSchema() throws {
    let fixture = try MemoryFixture()
    let path = fixture.folder.file("v9.sqlite")
    try FileManager.default.copyItem(atPath: fixture.memoryPath, toPath: path)
    let python = try #require(Tool.path("python3"))
    _ = try Tool.run(
      python,
      [
        "-c",
        "import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute(\"UPDATE meta SET value='9' WHERE name='schema'\"); d.commit()",
        path,
      ])
    let bytes = try FileIO.read(path)
    let message =
      "made by a newer bundlekit-translate (schema 9; this one reads schemas 1 to 2): upgrade bundlekit-translate"
    let tmx = fixture.folder.file("x.tmx")
    try FileIO.writeAtomically(
      Array(
        "<tmx version=\"1.4\"><header srclang=\"en\"/><body><tu><tuv xml:lang=\"en\"><seg>a</seg></tuv></tu></body></tmx>"
          .utf8), to: tmx)
    for arguments in [
      ["translate", "lookup", "Cancel", "--to", "de", "--memory", path],
      ["translate", "migrate", "--memory", path],
      ["translate", "import", tmx, "--memory", path],
    ] {
      let result = try BundleKitTool.run(arguments)
      #expect(result.status == 1, "\(arguments[1])")
      #expect(
        result.stderr.contains("\(path): error: \(message)"), "\(arguments[1]): \(result.stderr)")
    }
    #expect(try FileIO.read(path) == bytes)
  }

  @Test("projects and review states: index --project, TMX props, XLIFF states, round trip")
  func projectsAndStates() async throws {
    let fixture = try MemoryFixture()
    let memory = fixture.folder.file("inbox.sqlite")
    var result = try BundleKitTool.run([
      "translate", "index", fixture.folder.file("App"), "-o", memory, "--project", "Inbox",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let tmx = fixture.folder.file("shared.tmx")
    try FileIO.writeAtomically(
      Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <tmx version="1.4"><header srclang="en"/><body>
        <tu><prop type="x-bundlekit-project">Forum</prop><prop type="x-bundlekit-key">reply</prop>
          <tuv xml:lang="en"><seg>Reply</seg></tuv>
          <tuv xml:lang="de"><prop type="x-bundlekit-state">needs_review</prop><seg>Antworten</seg></tuv>
          <tuv xml:lang="fr"><prop type="x-bundlekit-state">approved</prop><seg>Répondre</seg></tuv>
        </tu></body></tmx>
        """.utf8), to: tmx)
    result = try BundleKitTool.run(["translate", "import", tmx, "--memory", memory])
    #expect(result.status == 0, "\(result.stderr)")
    let records = try MemoryExchange.records(inMemory: memory).records
    #expect(Set(records.map(\.project)) == ["Inbox", "Forum"])
    let reply = records.filter { $0.key == "reply" }
    #expect(
      Dictionary(uniqueKeysWithValues: reply.map { ($0.language, $0.state) }) == [
        "en": .translated, "de": .needsReview, "fr": .approved,
      ])
    // Exported and imported again: the same records, projects and states.
    let exported = fixture.folder.file("out.tmx")
    _ = try BundleKitTool.run(["translate", "export", "--tmx", exported, "--memory", memory])
    let text = try String(contentsOfFile: exported, encoding: .utf8)
    #expect(text.contains("<prop type=\"x-bundlekit-project\">Inbox</prop>"))
    #expect(text.contains("<prop type=\"x-bundlekit-state\">needs_review</prop>"))
    let copy = fixture.folder.file("copy.sqlite")
    result = try BundleKitTool.run(["translate", "import", exported, "--memory", copy])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Set(try MemoryExchange.records(inMemory: copy).records) == Set(records))
    // Lookups scoped to a project see that project's entries alone; unscoped, every one.
    for (project, expected) in [(nil, "Antworten"), ("Forum", "Antworten"), ("Inbox", "Reply")] {
      result = try BundleKitTool.run(
        ["translate", "lookup", "Reply", "--to", "de", "--from", "en", "--memory", memory]
          + (project.map { ["--project", $0] } ?? []))
      #expect(result.stdout.hasPrefix(expected + "\n"), "\(project ?? "all"): \(result.stdout)")
    }
    let opened = try TranslationMemory(path: memory, preload: true)
    #expect(try await opened.records(forKey: "alert.cancel", project: "Forum").isEmpty)
    #expect(try await opened.records(forKey: "alert.cancel", project: "Inbox").count == 4)
    let server = try await RunningServer.translation(memory: opened)
    try await server.serving {
      for (project, expected) in [("Forum", "Antworten"), ("Inbox", "Reply")] {
        let answer = try await http(
          "POST", server.url.appendingPathComponent("translate"),
          body: jsonBody(["q": "Reply", "source": "en", "target": "de", "project": project]))
        #expect(answer.object?["translatedText"] as? String == expected, "\(project)")
      }
      let lookup = try await http(
        "GET", URL(string: server.url.absoluteString + "/lookup?key=reply&project=Forum&lang=fr")!)
      #expect(lookup.text.contains("\"project\":\"Forum\""), "\(lookup.text)")
    }
    // XLIFF states: needs-review-translation is needs review, signed-off approved.
    let xliff = fixture.folder.file("states.xliff")
    try FileIO.writeAtomically(
      Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="App/en.lproj/Shared.strings" source-language="en" target-language="it" datatype="plaintext"><body>
            <trans-unit id="a"><source>Open</source><target state="needs-review-translation">Apri</target></trans-unit>
            <trans-unit id="b"><source>Close</source><target state="signed-off">Chiudi</target></trans-unit>
          </body></file>
        </xliff>
        """.utf8), to: xliff)
    result = try BundleKitTool.run(["translate", "import", xliff, "--memory", memory])
    #expect(result.status == 0, "\(result.stderr)")
    let italian = try MemoryExchange.records(inMemory: memory).records.filter {
      $0.language == "it"
    }
    #expect(
      Dictionary(uniqueKeysWithValues: italian.map { ($0.key, $0.state) }) == [
        "a": .needsReview, "b": .approved,
      ])
  }
}
