import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// The ecosystem check's runner (Scripts/ecosystem/run.py) on a repository this test builds:
/// it checks out the pinned commit outside the tree, runs the commands, judges them and
/// writes its report; a second run compares against the first.
@Suite("Ecosystem runner")
struct EcosystemRunnerTests {
  static let runner = Corpus.packageRoot.appendingPathComponent("Scripts/ecosystem/run.py").path

  @Test(
    "a small repository: versions, bumps that apply, compiled tables plutil reads, an import that changes nothing"
  )
  func smallRepository() throws {
    let git = try #require(Tool.path("git"), "git is not on PATH")
    let python = try #require(Tool.path("python3"), "python3 is not on PATH")
    let tool = try #require(BundleKitTool.path)
    let folder = try TemporaryFolder()
    let work = folder.file("work")
    let files: [String: String] = [
      "App/Info.plist": """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>1.4.0</string><key>CFBundleVersion</key><string>7</string></dict></plist>

      """,
      "App/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
      "App/fr.lproj/Localizable.strings": "\"hello\" = \"Bonjour\";\n",
      // A committed export as Xcode writes it (a table with no French yet: `datatype`
      // first): exported again from its Source Contents, and imported there then exported,
      // it must come out the same (and its copy of the table is not the project's).
      "fr.xcloc/contents.json": """
      {"developmentRegion" : "en", "targetLocale" : "fr", "version" : "1.0"}
      """,
      "fr.xcloc/Source Contents/App/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
      "fr.xcloc/Localized Contents/fr.xliff": """
      <?xml version="1.0" encoding="UTF-8"?>
      <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.2" xsi:schemaLocation="urn:oasis:names:tc:xliff:document:1.2 http://docs.oasis-open.org/xliff/v1.2/os/xliff-core-1.2-strict.xsd">
        <file original="App/en.lproj/Localizable.strings" datatype="plaintext" source-language="en" target-language="fr">
          <header>
            <tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="16.4" build-num="16F6"/>
          </header>
          <body>
            <trans-unit id="hello" xml:space="preserve">
              <source>Hello</source>
              <note/>
            </trans-unit>
          </body>
        </file>
      </xliff>

      """,
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: Paths.join(work, path))
      try FileIO.writeAtomically(Array(text.utf8), to: Paths.join(work, path))
    }
    let identity = [
      "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
      "GIT_COMMITTER_EMAIL": "t@t",
    ]
    for arguments in [["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "app"]] {
      let run = try Tool.run(git, ["-C", work] + arguments, environment: identity)
      try #require(run.status == 0, "git \(arguments): \(run.stderr)")
    }
    let head = String(
      decoding: try Tool.run(git, ["-C", work, "rev-parse", "HEAD"]).stdout, as: UTF8.self
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let snapshots = folder.file("snapshots")
    try #require(
      try Tool.run(git, ["clone", "-q", "--bare", work, snapshots + "/acme+app/repo"]).status == 0)
    try FileIO.writeAtomically(
      Array("acme/app \(head)  # a test app\nacme/gone 0123456789  # not fetched\n".utf8),
      to: folder.file("repos.txt"))
    let report = folder.file("ecosystem.md")
    let tools = Paths.parent(tool)
    let arguments = [
      Self.runner, snapshots, "--repos", folder.file("repos.txt"), "--tools", tools, "--report",
      report, "--jobs", "1", "--scratch", folder.file("scratch"),
    ]
    var run = try Tool.run(python, arguments)
    #expect(run.status == 0, "\(run.stderr)")
    let text = String(decoding: try FileIO.read(report), as: UTF8.self)
    #expect(
      text.contains(
        "| acme/app | 1 | - | applies | applies | clean | 2/2 | - | - | no-op | units 1/1 (0 only in Xcode's), files 1/1, exports 1/1, imported and exported 1/1 | - |"
      ), "\(text)")
    #expect(text.contains("| acme/gone | no snapshot: fetch github:acme/gone |"), "\(text)")
    #expect(text.contains("- crashes: 0"), "\(text)")
    #expect(text.contains("- no earlier report"))
    // The scratch trees stay outside, and go.
    #expect(!FileManager.default.fileExists(atPath: folder.file("scratch")))
    // The work tree the runner checked is untouched.
    #expect(
      String(decoding: try FileIO.read(Paths.join(work, "App/Info.plist")), as: UTF8.self)
        .contains("<string>7</string>"))
    // A second run: compared with the first, nothing changed.
    run = try Tool.run(python, arguments)
    #expect(run.status == 0, "\(run.stderr)")
    let second = String(decoding: try FileIO.read(report), as: UTF8.self)
    #expect(second.contains("## Changes since the last report\n\n- none"), "\(second)")
  }
}
