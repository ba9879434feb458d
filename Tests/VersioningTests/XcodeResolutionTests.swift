import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

/// Versions resolved as Xcode resolves them, on the project fixtures in
/// Fixtures/Projects (written by its make-projects.py, modelled on real projects): what
/// `version` reports, and the exact bytes `bump` changes.
@Suite("Xcode projects: versions resolved as Xcode does")
struct XcodeResolutionTests {
  /// A copy of the fixtures to change.
  final class Fixtures {
    let folder: TemporaryFolder
    init() throws {
      folder = try TemporaryFolder()
      let source = Corpus.packageRoot.appendingPathComponent(
        "Tests/VersioningTests/Fixtures/Projects")
      for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
        try FileManager.default.copyItem(
          atPath: source.appendingPathComponent(name).path, toPath: folder.file(name))
      }
    }

    func path(_ relative: String) -> String { folder.file(relative) }

    func run(_ arguments: [String], in relative: String) throws -> CommandResult {
      try BundleKitTool.run(arguments, in: folder.file(relative))
    }

    /// `version --format json` in a fixture folder, by target name.
    func versions(in relative: String, _ extra: [String] = []) throws -> [String: [String: Any]] {
      let result = try run(["version", "--format", "json"] + extra, in: relative)
      let rows =
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
      var byTarget: [String: [String: Any]] = [:]
      for row in rows ?? [] { byTarget[row["target"] as? String ?? "?"] = row }
      return byTarget
    }

    /// Every file's bytes, to compare after a run.
    func snapshot() throws -> [String: [UInt8]] {
      var files: [String: [UInt8]] = [:]
      for relative in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.file(relative), isDirectory: &isFolder),
          !isFolder.boolValue
        {
          files[relative] = try FileIO.read(folder.file(relative))
        }
      }
      return files
    }
  }

  /// What changed between two snapshots: per file, each changed line's old and new text
  /// within the line (common start and end left out: 12 -> 13 shows as "2 -> 3"), so a test
  /// sees exactly which bytes a bump touched.
  static func changes(_ before: [String: [UInt8]], _ after: [String: [UInt8]]) -> [String: [String]]
  {
    var result: [String: [String]] = [:]
    for (path, old) in before {
      guard let new = after[path], new != old else { continue }
      let oldLines = old.split(separator: 0x0A, omittingEmptySubsequences: false)
      let newLines = new.split(separator: 0x0A, omittingEmptySubsequences: false)
      guard oldLines.count == newLines.count else {
        result[path] = ["line count changed"]
        continue
      }
      for (a, b) in zip(oldLines, newLines) where a != b {
        let prefix = zip(a, b).prefix { $0 == $1 }.count
        let suffix = zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count
        let cut = min(suffix, min(a.count, b.count) - prefix)
        let removed = String(decoding: a.dropFirst(prefix).dropLast(cut), as: UTF8.self)
        let added = String(decoding: b.dropFirst(prefix).dropLast(cut), as: UTF8.self)
        result[path, default: []].append("\(removed) -> \(added)")
      }
    }
    for path in after.keys where before[path] == nil { result[path] = ["new file"] }
    return result
  }

  @Test(
    "a version joined from settings with a SemVer pre-release (Sparkle): shown, warned, raised to its release, then by its settings"
  )
  func composedPrerelease() throws {
    let fixtures = try Fixtures()
    let table = try fixtures.run(["version"], in: "Composed")
    #expect(table.status == 0, "\(table.stderr)")
    #expect(
      table.stdout.contains("2.7.0-beta.1 (Configurations/Common.xcconfig)"), "\(table.stdout)")
    #expect(
      table.stderr.contains(
        "Updater.xcodeproj (Updater): CFBundleShortVersionString 2.7.0-beta.1 has a pre-release part"
      ),
      "\(table.stderr)")
    // A dry run is a patch git applies.
    let dry = try fixtures.run(
      ["bump", "version", "patch", "--dry-run", "--target", "Updater"], in: "Composed")
    #expect(dry.status == 0, "\(dry.stderr)")
    let git = try #require(Tool.path("git"))
    _ = try Tool.run(git, ["init", "-q"], in: fixtures.path("Composed"))
    try FileIO.writeAtomically(Array(dry.stdout.utf8), to: fixtures.path("Composed/bump.diff"))
    #expect(
      try Tool.run(git, ["apply", "--check", "bump.diff"], in: fixtures.path("Composed")).status
        == 0)
    try FileManager.default.removeItem(atPath: fixtures.path("Composed/bump.diff"))
    // A pre-release raised by patch is its release (SemVer, npm's semver inc): the suffix
    // setting goes empty; nothing else moves.
    var before = try fixtures.snapshot()
    var run = try fixtures.run(["bump", "version", "patch", "--target", "Updater"], in: "Composed")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Composed/Configurations/Common.xcconfig": ["-beta.1 -> "]
      ])
    #expect(
      try fixtures.versions(in: "Composed")["Updater"]?["CFBundleShortVersionString"] as? String
        == "2.7.0")
    // Then each number in the setting that writes it.
    before = try fixtures.snapshot()
    run = try fixtures.run(["bump", "version", "minor", "--target", "Updater"], in: "Composed")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Composed/Configurations/Common.xcconfig": ["7 -> 8"]
      ])
    run = try fixtures.run(["bump", "version", "3.0.1", "--target", "Updater"], in: "Composed")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try fixtures.versions(in: "Composed")["Updater"]?["CFBundleShortVersionString"] as? String
        == "3.0.1")
    // A version the settings cannot write number by number is refused, naming them.
    before = try fixtures.snapshot()
    run = try fixtures.run(["bump", "version", "4.0", "--target", "Updater"], in: "Composed")
    #expect(run.status == 1)
    #expect(run.stderr.contains("Configurations/Common.xcconfig"), "\(run.stderr)")
    #expect(run.stderr.contains("is joined from several settings"), "\(run.stderr)")
    #expect(try fixtures.snapshot() == before)
  }

  @Test(
    "an archive named from an Xcode target's version, as the Xcode package-resources plugin names it"
  )
  func archiveNamedFromProject() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(
      [
        "archive", "create", "TestApp/Info.plist", "-o", "dist/Updater.tar.gz", "--version-from",
        "Updater.xcodeproj", "--version-target", "Updater", "--print-path",
      ], in: "Composed")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("wrote dist/Updater-2.7.0-beta.1-2040.tar.gz"), "\(run.stdout)")
    #expect(
      FileManager.default.fileExists(
        atPath: fixtures.path("Composed/dist/Updater-2.7.0-beta.1-2040.tar.gz")))
    let missing = try fixtures.run(
      [
        "archive", "create", "TestApp/Info.plist", "-o", "dist/X.tar.gz", "--version-from",
        "Updater.xcodeproj", "--version-target", "Nope",
      ], in: "Composed")
    #expect(missing.status == 1)
    #expect(
      missing.stderr.contains("Updater.xcodeproj: error: no target named Nope"), "\(missing.stderr)"
    )
  }

  @Test("versions at the project level only: every target takes them; bump edits them there")
  func projectLevel() throws {
    let fixtures = try Fixtures()
    let notes = try fixtures.versions(in: "ProjectLevel")["Notes"]
    #expect(notes?["CFBundleVersion"] as? String == "7")
    #expect(notes?["CFBundleShortVersionString"] as? String == "1.4")
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "ProjectLevel").status == 0)
    // Xcode's build settings editor, asked for 8 on the target, shows 7 as inherited from
    // the project and edits the project's two configurations; agvtool next-version -all
    // does the same where the setting is defined. Only those two numbers change.
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "ProjectLevel/Notes.xcodeproj/project.pbxproj": ["7 -> 8", "7 -> 8"]
      ])
  }

  @Test("a target forwarding the project's number: the project's is raised, the forward kept")
  func forwarding() throws {
    let fixtures = try Fixtures()
    let forward = try fixtures.versions(in: "Forwarding")["Forward"]
    #expect(forward?["CFBundleVersion"] as? String == "12")
    #expect(forward?["CFBundleShortVersionString"] as? String == "3.0.1")
    let chain = forward?["resolvedThrough"] as? [[String: Any]] ?? []
    // Info.plist $(CURRENT_PROJECT_VERSION) -> target "$(CURRENT_PROJECT_VERSION)" -> project 12.
    #expect(
      chain.filter { $0["key"] as? String == "CFBundleVersion" }.map { $0["value"] as? String }
        == ["$(CURRENT_PROJECT_VERSION)", "$(CURRENT_PROJECT_VERSION)", "12"])
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "Forwarding").status == 0)
    // The number lives at the project level: Xcode's editor edits it there. (agvtool would
    // also write 13 over the target's forward, which gives the same 13 but breaks the
    // forward; BundleKit keeps it.) Info.plist untouched.
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Forwarding/Forward.xcodeproj/project.pbxproj": ["2 -> 3", "2 -> 3"]
      ])
    #expect(try fixtures.run(["bump", "version", "patch"], in: "Forwarding").status == 0)
    #expect(
      try fixtures.versions(in: "Forwarding")["Forward"]?["CFBundleShortVersionString"] as? String
        == "3.0.2")
  }

  @Test(".xcconfig via baseConfigurationReference, two #include levels, $(inherited), a variable")
  func xcconfigChain() throws {
    let fixtures = try Fixtures()
    // The team keeps its xcconfigs beside the project folder, outside the tree given: a
    // checkout may point anywhere (~/.aws/credentials too), so they are read only when asked.
    let unread = try fixtures.run(["version"], in: "Configured")
    #expect(unread.status == 1)
    #expect(
      unread.stderr.contains(
        "the .xcconfig ../Configuration/Shop.xcconfig is outside the folders being read"),
      "\(unread.stderr)")
    #expect(unread.stderr.contains("give --allow-outside to read settings there"))
    let shop = try fixtures.versions(in: "Configured", ["--allow-outside"])["Shop"]
    #expect(shop?["CFBundleVersion"] as? String == "41")
    #expect(shop?["CFBundleShortVersionString"] as? String == "2.3.0")
    #expect(
      (shop?["definedIn"] as? [String])?.sorted() == [
        "../Configuration/Project.xcconfig", "../Configuration/Shared/Versions.xcconfig",
      ])
    let before = try fixtures.snapshot()
    // Reading and writing there takes --allow-outside; the refusal names the file and
    // changes nothing.
    let refused = try fixtures.run(["bump", "build"], in: "Configured")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("../Configuration/Shop.xcconfig is outside"))
    #expect(Self.changes(before, try fixtures.snapshot()).isEmpty)
    #expect(
      try fixtures.run(["bump", "build", "--allow-outside"], in: "Configured").status == 0)
    #expect(
      try fixtures.run(["bump", "version", "minor", "--allow-outside"], in: "Configured").status
        == 0)
    // CURRENT_PROJECT_VERSION = $(APP_BUILD) (Shared/Base.xcconfig, included by Shop.xcconfig)
    // and APP_BUILD = 41 (Versions.xcconfig, included by Base.xcconfig): the 41 is the one
    // place to raise. MARKETING_VERSION = $(inherited) in Shop.xcconfig falls through the
    // project's (empty) settings to Project.xcconfig. Xcode's editor would add overrides in
    // the project instead; agvtool would too. Editing the definition gives the same values
    // with the team's files kept as the source of truth.
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Configuration/Shared/Versions.xcconfig": ["1 -> 2"],
        "Configuration/Project.xcconfig": ["3 -> 4"],
      ])
    #expect(
      try String(
        contentsOfFile: fixtures.path("Configuration/Shared/Versions.xcconfig"), encoding: .utf8)
        == "// Bumped by the release script.\nAPP_BUILD = 42\n")
  }

  @Test("generated Info.plists: the build setting is the version, per configuration")
  func generated() throws {
    let fixtures = try Fixtures()
    let clock = try fixtures.versions(in: "Generated")["Clock"]
    #expect(clock?["CFBundleVersion"] as? String == "3")
    let configurations = clock?["configurations"] as? [String: [String: String]]
    #expect(configurations?["Debug"]?["CFBundleVersion"] == "3")
    #expect(configurations?["Release"]?["CFBundleShortVersionString"] == "1.0")
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "Generated").status == 0)
    // No Info.plist: GENERATE_INFOPLIST_FILE makes CFBundleVersion $(CURRENT_PROJECT_VERSION),
    // set on the target in Debug and Release: both change, as in Xcode's editor with "All"
    // configurations selected, and as agvtool next-version -all.
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Generated/Clock.xcodeproj/project.pbxproj": ["3 -> 4", "3 -> 4"]
      ])
  }

  @Test("an app and its extensions move together; tests are left alone; a drift is flagged")
  func family() throws {
    let fixtures = try Fixtures()
    let before = try fixtures.snapshot()
    let rows = try fixtures.versions(in: "Family")
    #expect(Set(rows.keys) == ["Travel", "Share", "Widget", "Watch"])
    #expect(rows["Widget"]?["embeddedIn"] as? String == "Travel")
    #expect((rows["Widget"]?["mismatch"] as? String)?.contains("differs") == true)
    #expect(rows["Share"]?["mismatch"] == nil)
    #expect(try fixtures.versions(in: "Family", ["--include-tests"])["TravelTests"] != nil)
    // The text table flags it too, and says what to do.
    let table = try fixtures.run(["version"], in: "Family")
    #expect(table.stdout.contains("11 (differs from its app)"))
    #expect(table.stderr.contains("bump build on Travel"))
    #expect(try fixtures.run(["bump", "build", "--target", "Travel"], in: "Family").status == 0)
    // One past the highest of the family (12): the app, both extensions (the widget from 11)
    // and the watch app's own Info.plist; TravelTests keeps its 1.
    let changes = Self.changes(before, try fixtures.snapshot())
    #expect(
      changes["Family/Travel.xcodeproj/project.pbxproj"]?.sorted()
        == ["1 -> 3", "1 -> 3", "2 -> 3", "2 -> 3", "2 -> 3", "2 -> 3"])
    #expect(changes["Family/Watch/Info.plist"] == ["2 -> 3"])
    #expect(changes.count == 2)
    let after = try fixtures.versions(in: "Family", ["--include-tests"])
    #expect(after["TravelTests"]?["CFBundleVersion"] as? String == "1")
    #expect(after.values.allSatisfy { $0["mismatch"] == nil })
  }

  @Test("a workspace lists two projects; both are read and bumped")
  func workspace() throws {
    let fixtures = try Fixtures()
    let rows = try fixtures.versions(in: "Workspace", ["Apps.xcworkspace"])
    #expect(rows["Maps"]?["CFBundleVersion"] as? String == "30")
    #expect(rows["Radio"]?["CFBundleVersion"] as? String == "8")
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build", "Apps.xcworkspace"], in: "Workspace").status == 0)
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Workspace/Maps/Maps.xcodeproj/project.pbxproj": ["0 -> 1", "0 -> 1"],
        "Workspace/Radio/Radio.xcodeproj/project.pbxproj": ["8 -> 9", "8 -> 9"],
      ])
  }

  @Test(
    "unresolvable, injected and oversized values: named with file, line and chain; nothing written")
  func refused() throws {
    let fixtures = try Fixtures()
    let before = try fixtures.snapshot()
    let table = try fixtures.run(["version"], in: "Broken")
    // Read-only: the other rows still print, exit 1, never "nothing was changed".
    #expect(table.status == 1)
    #expect(table.stdout.contains("Fine"))
    #expect(table.stdout.contains("error (below)"))
    #expect(!table.stderr.contains("nothing was changed"))
    for text in [
      "$(BUILD_NUMBER_FROM_CI) is defined nowhere", "'12; rm -… (12 characters)' is not a version",
      "'1000000000000000000' is not a version",
    ] {
      #expect(table.stderr.contains(text), "\(text): \(table.stderr)")
    }
    #expect(table.stderr.contains("Broken.xcodeproj/project.pbxproj:"))
    #expect(table.stderr.contains("resolved through: "))
    let bump = try fixtures.run(["bump", "build"], in: "Broken")
    #expect(bump.status == 1)
    #expect(bump.stderr.contains("nothing was changed"))
    #expect(try fixtures.snapshot() == before)
    // The good target alone can be bumped.
    #expect(try fixtures.run(["bump", "build", "--target", "Fine"], in: "Broken").status == 0)
    #expect(
      Self.changes(before, try fixtures.snapshot()).values.flatMap { $0 } == ["5 -> 6", "5 -> 6"])
  }

  @Test("two objects with one identifier (a bad merge) are an error naming the line")
  func duplicateIdentifiers() throws {
    let fixtures = try Fixtures()
    let path = fixtures.path("ProjectLevel/Notes.xcodeproj/project.pbxproj")
    var text = try String(contentsOfFile: path, encoding: .utf8)
    // A second copy of the first configuration object.
    let start = try #require(text.range(of: "/* Begin XCBuildConfiguration section */\n"))
    let end = try #require(text.range(of: "\n\t\t};\n", range: start.upperBound..<text.endIndex))
    let object = String(text[start.upperBound..<end.upperBound])
    text.insert(contentsOf: object, at: end.upperBound)
    try FileIO.writeAtomically(Array(text.utf8), to: path)
    let run = try fixtures.run(["version"], in: "ProjectLevel")
    #expect(run.status == 1)
    #expect(run.stderr.contains("is used twice"), "\(run.stderr)")
    #expect(run.stderr.contains("project.pbxproj:"), "\(run.stderr)")
  }

  @Test("bump never lowers a number unless asked; --format json gives old, new, files and lines")
  func neverLower() throws {
    let fixtures = try Fixtures()
    let lower = try fixtures.run(["bump", "build", "--to", "5"], in: "ProjectLevel")
    #expect(lower.status == 1)
    #expect(lower.stderr.contains("would go down from 7 to 5"), "\(lower.stderr)")
    let json = try fixtures.run(
      ["bump", "build", "--to", "5", "--allow-lower", "--format", "json"], in: "ProjectLevel")
    #expect(json.status == 0, "\(json.stderr)")
    let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(rows?.count == 1)
    #expect(rows?.first?["old"] as? String == "7")
    #expect(rows?.first?["new"] as? String == "5")
    #expect(rows?.first?["targets"] as? [String] == ["Notes.xcodeproj (Notes)"])
    let places = rows?.first?["places"] as? [[String: Any]] ?? []
    #expect(places.count == 2)
    #expect(places.allSatisfy { $0["file"] as? String == "Notes.xcodeproj/project.pbxproj" })
    let lines = places.compactMap { $0["line"] as? Int }
    let text = try String(
      contentsOfFile: fixtures.path("ProjectLevel/Notes.xcodeproj/project.pbxproj"), encoding: .utf8
    )
    .split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { text[$0 - 1].contains("CURRENT_PROJECT_VERSION = 5;") }, "\(lines)")
  }

  /// Who commits in the tests' repositories.
  static let gitIdentity = [
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t",
  ]

  @Test("--dry-run prints a diff git apply takes; --commit and --tag record the bump")
  func gitIntegration() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let fixtures = try Fixtures()
    let repo = fixtures.path("Family")
    let environment = Self.gitIdentity
    func gitRun(_ arguments: [String], input: Data? = nil) throws -> Tool.Result {
      try Tool.run(git, ["-C", repo] + arguments, input: input, environment: environment)
    }
    _ = try gitRun(["init", "-q"])
    _ = try gitRun(["add", "."])
    _ = try gitRun(["commit", "-q", "-m", "start"])
    let diff = try fixtures.run(["bump", "build", "--dry-run"], in: "Family")
    #expect(diff.status == 0)
    let check = try gitRun(["apply", "--check", "-"], input: Data(diff.stdout.utf8))
    #expect(check.status == 0, "\(check.stderr)\n\(diff.stdout)")
    _ = try gitRun(["apply", "-"], input: Data(diff.stdout.utf8))
    let applied = try fixtures.snapshot()
    _ = try gitRun(["checkout", "--", "."])
    let bump = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["bump", "build", "--commit", "--tag"],
      environment: environment, in: repo)
    #expect(bump.status == 0, "\(bump.stderr)")
    // The real bump wrote exactly what the diff said.
    #expect(
      try fixtures.snapshot().filter { !$0.key.contains("/.git/") }
        == applied.filter { !$0.key.contains("/.git/") })
    let log = try gitRun(["log", "--oneline", "-1"])
    #expect(String(decoding: log.stdout, as: UTF8.self).contains("Bump build 13"))
    let tags = try gitRun(["tag"])
    #expect(String(decoding: tags.stdout, as: UTF8.self) == "build-13\n")
    let status = try gitRun(["status", "--porcelain"])
    #expect(status.stdout.isEmpty)
  }

  @Test(
    "--commit asks git first: no repository, a detached HEAD, an existing tag, a bumped file with edits of its own, a merge in progress; nothing written"
  )
  func gitPreflight() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let fixtures = try Fixtures()
    let repo = fixtures.path("Family")
    let environment = Self.gitIdentity
    func gitRun(_ arguments: [String]) throws -> Tool.Result {
      try Tool.run(git, ["-C", repo] + arguments, environment: environment)
    }
    func bump(_ extra: [String] = []) throws -> CommandResult {
      let run = try Tool.run(
        BundleKitTool.path ?? "bundlekit", ["bump", "build", "--commit"] + extra,
        environment: environment, in: repo)
      return CommandResult(
        status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self),
        stderr: run.stderr)
    }
    let pristine = try fixtures.snapshot()
    func unchanged() throws -> Bool {
      try fixtures.snapshot().filter { !$0.key.contains("/.git") }
        == pristine.filter { !$0.key.contains("/.git") }
    }
    // Not a repository: refused before writing.
    var run = try bump()
    #expect(run.status == 1)
    #expect(run.stderr.contains("is not in a git repository"), "\(run.stderr)")
    #expect(try unchanged())
    _ = try gitRun(["init", "-q", "-b", "main"])
    _ = try gitRun(["add", "."])
    _ = try gitRun(["commit", "-q", "-m", "start"])
    // Work in progress in a file the bump writes would be committed with it.
    let project = fixtures.path(
      try #require(pristine.keys.first { $0.hasSuffix("project.pbxproj") && $0.contains("Family") })
    )
    let original = try String(contentsOfFile: project, encoding: .utf8)
    try (original + "\n").write(toFile: project, atomically: true, encoding: .utf8)
    run = try bump()
    #expect(run.status == 1)
    #expect(run.stderr.contains("has changes of its own"), "\(run.stderr)")
    try original.write(toFile: project, atomically: true, encoding: .utf8)
    #expect(try unchanged())
    // An existing tag.
    _ = try gitRun(["tag", "build-13"])
    run = try bump(["--tag"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("the tag build-13 exists already"), "\(run.stderr)")
    #expect(try unchanged())
    _ = try gitRun(["tag", "-d", "build-13"])
    // A merge stopped half-way: `git commit -- paths` would refuse after the write.
    let head = try gitRun(["rev-parse", "HEAD"]).stdout
    try head.write(to: URL(fileURLWithPath: repo + "/.git/MERGE_HEAD"))
    run = try bump()
    #expect(run.status == 1)
    #expect(run.stderr.contains("a merge is in progress"), "\(run.stderr)")
    #expect(try unchanged())
    try FileManager.default.removeItem(atPath: repo + "/.git/MERGE_HEAD")
    // A detached HEAD, unless allowed.
    _ = try gitRun(["checkout", "-q", "--detach"])
    run = try bump()
    #expect(run.status == 1)
    #expect(run.stderr.contains("HEAD is detached"), "\(run.stderr)")
    #expect(try unchanged())
    run = try bump(["--allow-detached"])
    #expect(run.status == 0, "\(run.stderr)")
    let log = try gitRun(["log", "--oneline", "-1"])
    #expect(String(decoding: log.stdout, as: UTF8.self).contains("Bump build 13"))
    #expect(try gitRun(["status", "--porcelain"]).stdout.isEmpty)
  }
}
