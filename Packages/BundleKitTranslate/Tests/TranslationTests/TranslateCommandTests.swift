import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("bundlekit translate", .serialized, .offThePool)
struct TranslateCommandTests {
  @Test("index and lookup, as the CLI contract says")
  func indexAndLookup() throws {
    let fixture = try MemoryFixture()
    let memory = fixture.folder.file("cli.sqlite")
    var result = try BundleKitTool.run([
      "translate", "index", fixture.folder.file("App"), fixture.folder.file("Kit"), "-o", memory,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("in 6 languages from 8 files"), "\(result.stdout)")

    result = try BundleKitTool.run([
      "translate", "lookup", "Cancel", "--to", "de", "--memory", memory,
    ])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "Abbrechen")
    #expect(
      lines.dropFirst().first?.hasPrefix("Stornieren\tLocalizable:toolbar.cancel\texact") == true)

    result = try BundleKitTool.run([
      "translate", "lookup", "Open the doors", "--to", "de", "--memory", memory, "--format", "json",
    ])
    let answer = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(answer["translation"] as? String == "Öffne die Tür")
    let candidate = try #require((answer["candidates"] as? [[String: Any]])?.first)
    #expect(candidate["kind"] as? String == "fuzzy")

    // Nothing found: the text itself on the first line, a note on standard error.
    result = try BundleKitTool.run([
      "translate", "lookup", "Zorblax", "--to", "de", "--memory", memory,
    ])
    #expect(result.status == 0)
    #expect(result.stdout == "Zorblax\n")
    #expect(result.stderr.contains("no translation into de"))

    result = try BundleKitTool.run([
      "translate", "lookup", "menu.settings", "--key", "--to", "de-CH", "--memory", memory,
    ])
    #expect(result.stdout == "de-CH\tLocalizable\tIistellige\n")
  }

  @Test(
    "index on a full disk names the memory file and leaves the old one as it was",
    .enabled(if: geteuid() == 0, "the disk-full test mounts a small tmpfs, which needs root"))
  func diskFull() throws {
    let mount = try #require(Tool.path("mount"), "mount is not on PATH")
    let umount = try #require(Tool.path("umount"), "umount is not on PATH")
    let disk = try TemporaryFolder()
    try #require(
      try Tool.run(mount, ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.path]).status == 0,
      "cannot mount a tmpfs here")
    defer { _ = try? Tool.run(umount, [disk.path]) }
    let fixture = try MemoryFixture()
    let memory = disk.file("memory.sqlite")
    let tables = [fixture.folder.file("App"), fixture.folder.file("Kit")]
    #expect(try BundleKitTool.run(["translate", "index"] + tables + ["-o", memory]).status == 0)
    let before = FileManager.default.contents(atPath: memory)
    // Fill the disk but for a few kilobytes, less than the memory takes.
    let filler = open(disk.file("filler"), O_CREAT | O_WRONLY, 0o644)
    let chunk = [UInt8](repeating: 7, count: 4096)
    var info = statvfs()
    while statvfs(disk.path, &info) == 0, Int(info.f_bavail) * Int(info.f_frsize) > 8192,
      write(filler, chunk, chunk.count) > 0
    {}
    close(filler)
    let result = try BundleKitTool.run(["translate", "index"] + tables + ["-o", memory])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\(memory): error:"), "\(result.stderr)")
    #expect(result.stderr.contains("full"), "\(result.stderr)")
    #expect(FileManager.default.contents(atPath: memory) == before)
    let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted()
    #expect(left == ["filler", "memory.sqlite"])
  }

  @Test(
    "a language that is no tag: index of a -.lproj folder and import of xml:lang=\"-\" are errors")
  func languagesThatAreNoTags() throws {
    let folder = try TemporaryFolder()
    for language in ["en", "-"] {
      try FileIO.createFolders(for: folder.file("App/\(language).lproj/Localizable.strings"))
      try FileIO.writeAtomically(
        Array("\"Open\" = \"Open\";\n".utf8),
        to: folder.file("App/\(language).lproj/Localizable.strings"))
    }
    let index = try BundleKitTool.run([
      "translate", "index", folder.file("App"), "-o", folder.file("tm.sqlite"),
    ])
    #expect(index.status == 1, "\(index.stderr)")
    #expect(index.stderr.contains("-.lproj/Localizable.strings"), "\(index.stderr)")
    #expect(index.stderr.contains("names no language"), "\(index.stderr)")
    try FileManager.default.removeItem(atPath: folder.file("App/-.lproj"))
    #expect(
      try BundleKitTool.run([
        "translate", "index", folder.file("App"), "-o", folder.file("tm.sqlite"),
      ]).status == 0)
    for language in ["-", "_", "../x"] {
      let tmx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/>
        <body><tu><tuv xml:lang="en"><seg>Open</seg></tuv><tuv xml:lang="\(language)"><seg>Offen</seg></tuv></tu></body></tmx>

        """
      try FileIO.writeAtomically(Array(tmx.utf8), to: folder.file("in.tmx"))
      let run = try BundleKitTool.run([
        "translate", "import", folder.file("in.tmx"), "--memory", folder.file("tm.sqlite"),
      ])
      #expect(run.status == 1, "\(language): \(run.stderr)")
      #expect(run.stderr.contains("in.tmx:3:"), "\(language): \(run.stderr)")
    }
  }

  @Test("A busy port: one line saying what to do, not NIO's text")
  func busyPort() throws {
    let fixture = try MemoryFixture()
    // A port something else listens on.
    let holder = try SilentListener()
    let port = holder.port
    let result = try BundleKitTool.run([
      "translate", "serve", "--memory", fixture.memoryPath, "--host", "127.0.0.1", "--port",
      "\(port)",
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: 127.0.0.1:\(port): port \(port) is in use; pass --port 0 for a free one\n",
      "\(result.stderr)")
    withExtendedLifetime(holder) {}
  }

  @Test("Errors: exit 1 with a message naming the file, 2 for usage")
  func errors() throws {
    let folder = try TemporaryFolder()
    var result = try BundleKitTool.run([
      "translate", "lookup", "x", "--to", "de", "--memory", folder.file("none.sqlite"),
    ])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("\(folder.file("none.sqlite")): error: no such file"))
    result = try BundleKitTool.run(["translate", "lookup", "x", "--memory", folder.file("m")])
    #expect(result.status == 2)
    result = try BundleKitTool.run([
      "translate", "index", folder.file("absent"), "-o", folder.file("m"),
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("absent"))
    result = try BundleKitTool.run(["translate", "nonsense"])
    #expect(result.status == 2)
  }

  @Test("serve: prints its URL, answers, and binds loopback by default")
  func serve() async throws {
    guard let tool = BundleKitTool.path else {
      Issue.record("bundlekit was not built")
      return
    }
    let fixture = try MemoryFixture()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["translate", "serve", "--memory", fixture.memoryPath, "--port", "0"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    defer {
      process.terminate()
      process.waitWithoutSpinning()
    }
    let url = ToolOutput.firstLine(of: output)
    #expect(url.hasPrefix("http://127.0.0.1:"))
    let answer = try await http(
      "POST", try #require(URL(string: url + "/translate")),
      body: jsonBody(["q": "Settings", "source": "en", "target": "de-CH"]))
    #expect(answer.object?["translatedText"] as? String == "Iistellige")
  }

  @Test("The plugins' tool stays lean: no SQLite, no Hummingbird in bundlekit")
  func lean() throws {
    let tool = try #require(BundleKitTool.path)
    let binary = try Data(contentsOf: URL(fileURLWithPath: tool))
    for marker in ["Hummingbird", "GRDB", "sqlite3_open"] {
      #expect(binary.range(of: Data(marker.utf8)) == nil, "bundlekit contains \(marker)")
    }
    let helper = (tool as NSString).deletingLastPathComponent + "/bundlekit-translate"
    let helperBinary = try Data(contentsOf: URL(fileURLWithPath: helper))
    #expect(helperBinary.range(of: Data("sqlite3_open".utf8)) != nil)
  }
}

/// The `bundlekit translate` blocks of the README and the tool's manual, run here where the
/// helper is built (the main package's ReadmeTests check the others).
@Suite(.offThePool) struct ReadmeTranslateTests {
  @Test func translateBlocksHold() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built")
    let root = Corpus.packageRoot
    let outcome = try ReadmeCheck.checkAll(tool: tool, packageRoot: root) { block in
      block.usesTranslate ? nil : "checked by the main package's ReadmeTests"
    }
    for skipped in outcome.skipped where !skipped.hasSuffix("ReadmeTests") {
      print("documentation check skipped \(skipped)")
    }
    #expect(
      outcome.checked.contains {
        $0.hasSuffix("bundlekit.docc/Translate.md") || $0.contains("Translate.md:")
      })
    #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
  }
}
