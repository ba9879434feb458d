import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Layouts seen on real projects, each a fixture of make-projects.py modelled on one: Xcode
/// 16's synchronized folders, a macOS app with frameworks and helpers of their own, a watch
/// app with a widget, a copied test Info.plist, date versions and four-part build numbers, a
/// CocoaPods workspace before `pod install`.
@Suite("Real project layouts")
struct RealProjectLayoutTests {
  typealias Fixtures = XcodeResolutionTests.Fixtures

  static func changes(_ before: [String: [UInt8]], _ after: [String: [UInt8]]) -> [String: [String]]
  {
    XcodeResolutionTests.changes(before, after)
  }

  @Test("Xcode 16: xcconfigs in a synchronized folder, attached by anchor and relative path")
  func synchronizedFolder() throws {
    let fixtures = try Fixtures()
    let versions = try fixtures.versions(in: "Synchronized")
    #expect(Set(versions.keys) == ["Notebook", "NotebookWidget", "NotebookMac", "NotebookShare"])
    for row in versions.values {
      #expect(row["CFBundleVersion"] as? String == "120")
      #expect(row["CFBundleShortVersionString"] as? String == "4.0.2")
      #expect(row["definedIn"] as? [String] == ["Config/Versions.xcconfig"])
    }
    // Named by the project too.
    let named = try fixtures.versions(in: "Synchronized", ["Notebook.xcodeproj"])
    #expect(named.count == 4)
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "Synchronized").status == 0)
    #expect(try fixtures.run(["bump", "version", "minor"], in: "Synchronized").status == 0)
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Synchronized/Config/Versions.xcconfig": ["0.2 -> 1.0", "0 -> 1"]
      ])
  }

  @Test("a macOS app: frameworks, XPC service, helper tool and login item keep their numbers")
  func macApp() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(["version"], in: "Mac")
    #expect(run.status == 0, "\(run.stderr)")
    // No App Store warning: that rule is about extensions.
    #expect(run.stderr.isEmpty, "\(run.stderr)")
    let versions = try fixtures.versions(in: "Mac")
    // Products without a version are not listed.
    #expect(
      Set(versions.keys) == [
        "Studio", "Engine", "Bridge", "Renderer", "com.example.studio.helper", "StudioLauncher",
        "StudioShare",
      ])
    #expect(versions["StudioShare"]?["buildNumberOf"] as? String == "Studio")
    #expect(versions["Engine"]?["buildNumberOf"] == nil)
    #expect(versions["Engine"]?["embeddedIn"] as? String == "Studio")
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "Mac").status == 0)
    #expect(try fixtures.run(["bump", "version", "patch"], in: "Mac").status == 0)
    let after = try fixtures.versions(in: "Mac")
    #expect(after["Studio"]?["CFBundleVersion"] as? String == "835")
    #expect(after["StudioShare"]?["CFBundleVersion"] as? String == "835")
    #expect(after["StudioShare"]?["CFBundleShortVersionString"] as? String == "3.1.1")
    for own in ["Engine", "Bridge", "StudioLauncher"] {
      #expect(
        after[own]?["CFBundleVersion"] as? String == versions[own]?["CFBundleVersion"] as? String)
    }
    #expect(after["com.example.studio.helper"]?["CFBundleShortVersionString"] as? String == "1.2.0")
    #expect(after["Renderer"]?["CFBundleVersion"] as? String == "5")
    #expect(
      Self.changes(before, try fixtures.snapshot()).keys.sorted() == [
        "Mac/Studio.xcodeproj/project.pbxproj"
      ])
    // Named, a framework is raised on its own.
    #expect(try fixtures.run(["bump", "build", "--target", "Engine"], in: "Mac").status == 0)
    let engine = try fixtures.versions(in: "Mac")
    #expect(engine["Engine"]?["CFBundleVersion"] as? String == "2")
    #expect(engine["Studio"]?["CFBundleVersion"] as? String == "835")
  }

  @Test("a watch app's widget moves with the iPhone app, two levels down")
  func watchWidget() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(["version"], in: "Watch")
    #expect(run.stderr.contains("HikeWatchWidget): CFBundleVersion differs from the one of Hike"))
    #expect(try fixtures.run(["bump", "build", "--target", "Hike"], in: "Watch").status == 0)
    let versions = try fixtures.versions(in: "Watch")
    for target in ["Hike", "HikeWatch", "HikeWatchWidget"] {
      #expect(versions[target]?["CFBundleVersion"] as? String == "51", "\(target)")
    }
    #expect(try fixtures.run(["version"], in: "Watch").stderr.isEmpty)
  }

  @Test("a test target's copied Info.plist is the test target's, left alone")
  func copiedTestPlist() throws {
    let fixtures = try Fixtures()
    #expect(Set(try fixtures.versions(in: "TestCopy").keys) == ["Ledger"])
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "TestCopy").status == 0)
    #expect(
      Self.changes(before, try fixtures.snapshot()) == ["TestCopy/Ledger/Info.plist": ["0 -> 1"]])
    // Asked for, it is a target like the others.
    #expect(
      Set(try fixtures.versions(in: "TestCopy", ["--include-tests"]).keys) == [
        "Ledger", "IntegrationTests",
      ])
  }

  @Test("date versions keep their zero padding; a four-part build number is raised at its end")
  func datedAndFourParts() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(["version"], in: "Dated")
    #expect(run.status == 0)
    #expect(run.stdout.contains("26.07.5") && run.stdout.contains("7.75.0.3"))
    #expect(run.stderr.contains("7.75.0.3 has four components"), "\(run.stderr)")
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "version", "patch"], in: "Dated").status == 0)
    let bump = try fixtures.run(["bump", "build"], in: "Dated")
    #expect(bump.status == 0)
    #expect(bump.stderr.contains("7.75.0.4 has four components"))
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Dated/Almanac.xcodeproj/project.pbxproj": ["3 -> 4", "5 -> 6", "3 -> 4", "5 -> 6"]
      ])
    let versions = try fixtures.versions(in: "Dated")
    #expect(versions["Almanac"]?["CFBundleShortVersionString"] as? String == "26.07.6")
    #expect(versions["Almanac"]?["CFBundleVersion"] as? String == "7.75.0.4")
  }

  @Test("a CocoaPods workspace before pod install: the missing project on its row, the app bumped")
  func podsNotInstalled() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(["version"], in: "CocoaPods")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("App/App.xcodeproj") && run.stdout.contains("17"))
    #expect(run.stdout.contains("Pods/Pods.xcodeproj"))
    #expect(
      run.stderr.contains(
        "App.xcworkspace lists Pods/Pods.xcodeproj, which does not exist (run pod install)"))
    let bump = try fixtures.run(["bump", "build", "App.xcworkspace"], in: "CocoaPods")
    #expect(bump.status == 0, "\(bump.stderr)")
    #expect(bump.stdout == "CFBundleVersion 17 -> 18: App/App.xcodeproj (App)\n")
  }

  @Test("every dry-run diff names each file once, normalised, and git apply --check takes it")
  func dryRunDiffsApply() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let fixtures = try Fixtures()
    let folders = try FileManager.default.contentsOfDirectory(atPath: fixtures.folder.path)
      .filter { !$0.hasSuffix(".py") && $0 != "Configuration" && $0 != "Broken" }.sorted()
    #expect(folders.count >= 13)
    var diffs = 0
    for folder in folders {
      for change in [["build"], ["version", "minor"]] {
        let run = try fixtures.run(
          ["bump"] + change + ["--dry-run", "--allow-outside"], in: folder)
        #expect(run.status == 0, "\(folder): \(run.stderr)")
        let headers = run.stdout.split(separator: "\n").filter { $0.hasPrefix("+++ ") }
        #expect(Set(headers).count == headers.count, "\(folder): a file in two hunks")
        // Normalised: `..` only leading (a file outside the folder), never `a/../b` or `.`.
        for header in headers {
          let parts = header.dropFirst("+++ b/".count).split(separator: "/")
          let inner = parts.drop { $0 == ".." }
          #expect(!inner.contains("..") && !inner.contains("."), "\(folder): \(header)")
        }
        guard !headers.isEmpty else { continue }
        diffs += 1
        // Paths are relative to the folder the command ran in.
        let check = try Tool.run(
          git, ["apply", "--check", "--unsafe-paths", "-"], input: Data(run.stdout.utf8),
          in: fixtures.path(folder))
        #expect(check.status == 0, "\(folder) \(change): \(check.stderr)\n\(run.stdout)")
      }
    }
    #expect(diffs >= 20)
  }

  @Test("--commit with several numbers: the message lists them by target, the tag is the app's")
  func commitSeveralNumbers() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let fixtures = try Fixtures()
    let repo = fixtures.path("Mac")
    let environment = XcodeResolutionTests.gitIdentity
    func gitRun(_ arguments: [String]) throws -> Tool.Result {
      try Tool.run(git, ["-C", repo] + arguments, environment: environment)
    }
    _ = try gitRun(["init", "-q", "-b", "main"])
    // The project not yet added: git's own reason is shown, nothing is written.
    _ = try gitRun(["add", "Helper"])
    _ = try gitRun(["commit", "-q", "-m", "helper"])
    let untracked = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["bump", "build", "--commit"], environment: environment,
      in: repo)
    #expect(untracked.status == 1)
    #expect(untracked.stderr.contains("is not tracked by git"), "\(untracked.stderr)")
    #expect(untracked.stderr.contains("(git: error: pathspec"), "\(untracked.stderr)")
    _ = try gitRun(["add", "."])
    _ = try gitRun(["commit", "-q", "-m", "start"])
    let bump = try Tool.run(
      BundleKitTool.path ?? "bundlekit",
      ["bump", "build", "--target", "Studio", "--target", "Engine", "--commit", "--tag"],
      environment: environment, in: repo)
    #expect(bump.status == 0, "\(bump.stderr)")
    let log = String(decoding: try gitRun(["log", "-1", "--format=%s"]).stdout, as: UTF8.self)
    #expect(
      log
        == "Bump build 2 (Studio.xcodeproj (Engine)), 835 (Studio.xcodeproj (Studio), Studio.xcodeproj (StudioShare))\n"
    )
    #expect(String(decoding: try gitRun(["tag"]).stdout, as: UTF8.self) == "build-835\n")
  }

  @Test("--format json on failure: one JSON object with the diagnostics on standard output")
  func jsonFailure() throws {
    let fixtures = try Fixtures()
    for command in [
      ["bump", "build", "--format", "json"], ["version", "nowhere", "--format", "json"],
    ] {
      let run = try fixtures.run(command, in: "Broken")
      #expect(run.status == 1)
      let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      #expect(object?["ok"] as? Bool == false, "\(command): \(run.stdout)")
      let diagnostics = object?["diagnostics"] as? [[String: Any]] ?? []
      #expect(!diagnostics.isEmpty)
      #expect(
        diagnostics.allSatisfy { $0["message"] is String && $0["severity"] as? String == "error" })
    }
  }

  @Test("--claim: 20 clones bumping at once against one remote get 20 distinct numbers")
  func claimConcurrently() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let environment = XcodeResolutionTests.gitIdentity
    func gitRun(_ arguments: [String], in place: String? = nil) throws {
      let run = try Tool.run(git, arguments, environment: environment, in: place)
      #expect(run.status == 0, "git \(arguments): \(run.stderr)")
    }
    try gitRun(["init", "-q", "--bare", "-b", "main", folder.file("remote.git")])
    try FileIO.createFolders(for: folder.file("seed/App/Info.plist"))
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>CFBundleVersion</key><string>10</string></dict></plist>

      """.utf8
    ).write(to: URL(fileURLWithPath: folder.file("seed/App/Info.plist")))
    try gitRun(["init", "-q", "-b", "main"], in: folder.file("seed"))
    try gitRun(["add", "."], in: folder.file("seed"))
    try gitRun(["commit", "-q", "-m", "start"], in: folder.file("seed"))
    try gitRun(["push", "-q", folder.file("remote.git"), "main"], in: folder.file("seed"))
    let clones = 20
    for index in 0..<clones {
      try gitRun(["clone", "-q", folder.file("remote.git"), folder.file("clone\(index)")])
    }
    // An unreachable remote: an error, nothing claimed, nothing written.
    let before = try FileIO.read(folder.file("clone0/App/Info.plist"))
    let unreachable = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["bump", "build", "--claim", folder.file("nowhere.git")],
      in: folder.file("clone0"))
    #expect(unreachable.status == 1)
    #expect(unreachable.stderr.contains("cannot read the claimed build numbers"))
    #expect(try FileIO.read(folder.file("clone0/App/Info.plist")) == before)
    let root = folder.path
    let statuses = WorkerThreads.results(clones) { index in
      (try? Tool.run(
        BundleKitTool.path ?? "bundlekit", ["bump", "build", "--claim", "origin"],
        in: root + "/clone\(index)"
      ).status) ?? -1
    }
    #expect(statuses == Array(repeating: 0, count: clones))
    var numbers: [Int] = []
    for index in 0..<clones {
      let text = String(
        decoding: try FileIO.read(folder.file("clone\(index)/App/Info.plist")), as: UTF8.self)
      let value = text.components(separatedBy: "<string>").last?.prefix { $0.isNumber } ?? ""
      numbers.append(Int(value) ?? -1)
    }
    #expect(numbers.sorted() == Array(11...30), "\(numbers.sorted())")
    let tags = try Tool.run(git, ["--git-dir", folder.file("remote.git"), "tag"])
    #expect(String(decoding: tags.stdout, as: UTF8.self).split(separator: "\n").count == clones)
  }

  @Test("bump build --target App moves a single-target watch app's widget too, two levels down")
  func modernWatchApp() throws {
    let fixtures = try Fixtures()
    #expect(
      try fixtures.run(["bump", "build", "--target", "Trail"], in: "WatchModern").status == 0)
    let versions = try fixtures.versions(in: "WatchModern")
    #expect(versions["Trail"]?["CFBundleVersion"] as? String == "51")
    #expect(versions["TrailWatch"]?["CFBundleVersion"] as? String == "51")
    #expect(versions["TrailWatchWidget"]?["CFBundleVersion"] as? String == "51")
    #expect(versions["TrailWatchWidget"]?["buildNumberOf"] as? String == "Trail")
  }

  @Test("--dry-run of a binary Info.plist prints a GIT binary patch that git apply takes")
  func binaryDryRun() throws {
    let git = try #require(Tool.path("git"), "git is not on PATH")
    let plutil = try #require(Tool.path("plutil"), "plutil is not on PATH")
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("App/Info.plist"))
    let value = PropertyListValue.dictionary([
      "CFBundleShortVersionString": .string("2.0"), "CFBundleVersion": .string("41"),
    ])
    try FileIO.writeAtomically(try value.encoded(as: .binary1), to: folder.file("App/Info.plist"))
    #expect(try Tool.run(git, ["init", "-q"], in: folder.path).status == 0)
    let before = try FileIO.read(folder.file("App/Info.plist"))
    let dry = try BundleKitTool.run(["bump", "build", "--dry-run"], in: folder.path)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.hasPrefix("diff --git a/App/Info.plist b/App/Info.plist\nindex "))
    #expect(dry.stdout.contains("GIT binary patch\nliteral "))
    #expect(
      dry.stderr.contains("App/Info.plist is a binary property list: CFBundleVersion 41 -> 42"))
    #expect(try FileIO.read(folder.file("App/Info.plist")) == before, "a dry run wrote")
    try FileIO.writeAtomically(Array(dry.stdout.utf8), to: folder.file("bump.patch"))
    #expect(try Tool.run(git, ["apply", "--check", "bump.patch"], in: folder.path).status == 0)
    #expect(try Tool.run(git, ["apply", "bump.patch"], in: folder.path).status == 0)
    let read = try Tool.run(plutil, ["-p", folder.file("App/Info.plist")])
    #expect(String(decoding: read.stdout, as: UTF8.self).contains("\"CFBundleVersion\" => \"42\""))
  }

  @Test("--claim: a stray ref far above the files' number is refused without --allow-jump")
  func claimJump() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let environment = XcodeResolutionTests.gitIdentity
    func gitRun(_ arguments: [String], in place: String? = nil) throws {
      let run = try Tool.run(git, arguments, environment: environment, in: place)
      #expect(run.status == 0, "git \(arguments): \(run.stderr)")
    }
    try gitRun(["init", "-q", "--bare", "-b", "main", folder.file("remote.git")])
    try FileIO.createFolders(for: folder.file("app/App/Info.plist"))
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>CFBundleVersion</key><string>45</string></dict></plist>

      """.utf8
    ).write(to: URL(fileURLWithPath: folder.file("app/App/Info.plist")))
    let app = folder.file("app")
    try gitRun(["init", "-q", "-b", "main"], in: app)
    try gitRun(["add", "."], in: app)
    try gitRun(["commit", "-q", "-m", "start"], in: app)
    try gitRun(["remote", "add", "origin", folder.file("remote.git")], in: app)
    try gitRun(["push", "-q", "origin", "main"], in: app)
    // One stray ref, pushed by hand or by a broken script.
    try gitRun(["push", "-q", "origin", "HEAD:refs/tags/build/4294967294"], in: app)
    let before = try FileIO.read(folder.file("app/App/Info.plist"))
    let refused = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["bump", "build", "--claim", "origin"],
      environment: environment, in: app)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains("refs/tags/build/4294967294, 4294967249 above"), "\(refused.stderr)")
    #expect(refused.stderr.contains("--allow-jump"), "\(refused.stderr)")
    #expect(try FileIO.read(folder.file("app/App/Info.plist")) == before)
    // Asked for, the jump is taken.
    let taken = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["bump", "build", "--claim", "origin", "--allow-jump"],
      environment: environment, in: app)
    #expect(taken.status == 0, "\(taken.stderr)")
    #expect(taken.stderr.contains("claimed build 4294967295"), "\(taken.stderr)")
  }

  @Test("a missing base or #included xcconfig names the configurations and the project, once")
  func missingXcconfig() throws {
    let fixtures = try Fixtures()
    try FileManager.default.removeItem(
      atPath: fixtures.path("Configuration/Shared/Versions.xcconfig"))
    var run = try fixtures.run(["version", "--allow-outside"], in: "Configured")
    #expect(run.status == 1)
    #expect(run.stdout.contains("Shop.xcodeproj  Shop"))
    #expect(
      run.stderr
        == """
        ../Configuration/Shared/Base.xcconfig:2: error: #include "Versions.xcconfig": no such file (../Configuration/Shared/Versions.xcconfig); #include? skips a missing file
          in the settings of Shop (Debug, Release) in Shop.xcodeproj

        """)
    // A missing base configuration file: Xcode warns and builds without it; so does this.
    try FileManager.default.removeItem(atPath: fixtures.path("Configuration/Shop.xcconfig"))
    run = try fixtures.run(["version", "--allow-outside"], in: "Configured")
    #expect(
      run.stderr.hasPrefix(
        "note: base configuration files the projects name do not exist, and are read as empty, as Xcode builds without them: ../Configuration/Shop.xcconfig"
      ), "\(run.stderr)")
  }

  @Test(
    "an XcodeGen spec: versions from project.yml and its xcconfigs, bumped there, not in the generated project"
  )
  func xcodeGen() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(["version"], in: "XcodeGen")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "note: Podcasts.xcodeproj is generated from project.yml (XcodeGen): the spec was read, not the project"
      ))
    let versions = try fixtures.versions(in: "XcodeGen")
    #expect(Set(versions.keys) == ["Podcasts", "PodcastsWidget", "PodcastKit"])
    #expect(versions["Podcasts"]?["CFBundleVersion"] as? String == "318")
    #expect(versions["Podcasts"]?["CFBundleShortVersionString"] as? String == "2.4")
    #expect(versions["PodcastsWidget"]?["buildNumberOf"] as? String == "Podcasts")
    #expect(versions["PodcastKit"]?["CFBundleVersion"] as? String == "7")
    #expect(versions["PodcastKit"]?["definedIn"] as? [String] == ["Config/PodcastKit.xcconfig"])
    let before = try fixtures.snapshot()
    #expect(try fixtures.run(["bump", "build"], in: "XcodeGen").status == 0)
    #expect(try fixtures.run(["bump", "version", "minor"], in: "XcodeGen").status == 0)
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "XcodeGen/project.yml": ["4 -> 5", "8 -> 9"]
      ])
    let spec = try String(contentsOfFile: fixtures.path("XcodeGen/project.yml"), encoding: .utf8)
    // Quotes and the comment kept.
    #expect(spec.contains("    MARKETING_VERSION: \"2.5\"   # the App Store version\n"))
    #expect(spec.contains("    CURRENT_PROJECT_VERSION: 319\n"))
    // A plain 2.5 would be the number 2.5 to YAML, and 2.10 would be 2.1: quoted when written.
    try spec.replacingOccurrences(of: "\"2.5\"", with: "2.9").write(
      toFile: fixtures.path("XcodeGen/project.yml"), atomically: true, encoding: .utf8)
    #expect(try fixtures.run(["bump", "version", "minor"], in: "XcodeGen").status == 0)
    #expect(
      try String(contentsOfFile: fixtures.path("XcodeGen/project.yml"), encoding: .utf8).contains(
        "    MARKETING_VERSION: \"2.10\"   # the App Store version\n"))
    #expect(
      try fixtures.versions(in: "XcodeGen")["Podcasts"]?["CFBundleShortVersionString"] as? String
        == "2.10")
  }

  @Test("--reset-build lowers the build number to 1 without --allow-lower: that is what it asks")
  func resetBuild() throws {
    let fixtures = try Fixtures()
    let run = try fixtures.run(["bump", "version", "minor", "--reset-build"], in: "Dated")
    #expect(run.status == 0, "\(run.stderr)")
    let versions = try fixtures.versions(in: "Dated")
    #expect(versions["Almanac"]?["CFBundleShortVersionString"] as? String == "26.08.0")
    #expect(versions["Almanac"]?["CFBundleVersion"] as? String == "1")
    // Lowering by --to still needs --allow-lower.
    #expect(try fixtures.run(["bump", "version", "1.0"], in: "Dated").status == 1)
  }

  @Test("a Tuist manifest: literal versions read from Project.swift and bumped there; code refused")
  func tuist() throws {
    let fixtures = try Fixtures()
    let versions = try fixtures.versions(in: "Tuist")
    #expect(Set(versions.keys) == ["Weather", "WeatherWidget", "WeatherKit"])
    #expect(versions["Weather"]?["CFBundleVersion"] as? String == "57")
    #expect(versions["WeatherWidget"]?["buildNumberOf"] as? String == "Weather")
    #expect(versions["WeatherKit"]?["CFBundleShortVersionString"] as? String == "1.1.0")
    let before = try fixtures.snapshot()
    let bump = try fixtures.run(["bump", "build"], in: "Tuist")
    #expect(
      bump.stdout
        == "CFBundleVersion 57 -> 58: Project.swift (Weather), Project.swift (WeatherWidget)\n")
    #expect(try fixtures.run(["bump", "version", "minor"], in: "Tuist").status == 0)
    #expect(
      Self.changes(before, try fixtures.snapshot()) == [
        "Tuist/Project.swift": ["2 -> 3", "7 -> 8"]
      ])
    // The framework keeps its own numbers, raised when named.
    #expect(try fixtures.run(["bump", "build", "--target", "WeatherKit"], in: "Tuist").status == 0)
    #expect(try fixtures.versions(in: "Tuist")["WeatherKit"]?["CFBundleVersion"] as? String == "5")
    // A manifest built by code cannot be read without running it: said, not guessed.
    try """
    import ProjectDescription
    import ProjectDescriptionHelpers

    let project = Project.app(name: "Weather", platform: .iOS)
    """.write(toFile: fixtures.path("Tuist/Project.swift"), atomically: true, encoding: .utf8)
    let helper = try fixtures.run(["version"], in: "Tuist")
    #expect(helper.status == 0)
    #expect(helper.stdout.contains("missing (below)"), "\(helper.stdout)")
    #expect(
      helper.stderr.contains(
        "Project.swift: the Project is built by code: not read without running the manifest"),
      "\(helper.stderr)")
    // A bump has nothing it can read to raise: said, nothing written.
    let bumpHelper = try fixtures.run(["bump", "build"], in: "Tuist")
    #expect(bumpHelper.status == 1, "\(bumpHelper.stdout)")
  }

  @Test(
    "versions only from text the build sees: Tuist's nested comments and #if false, XcodeGen's merge keys"
  )
  func onlyWhatTheBuildSees() throws {
    let folder = try TemporaryFolder()
    let manifest = { (before: String, after: String) in
      """
      import ProjectDescription

      \(before)
      let project = Project(
          name: "App",
          settings: .settings(base: ["MARKETING_VERSION": "1.2.0", "CURRENT_PROJECT_VERSION": "12"]),
          targets: [
              .target(name: "App", destinations: .iOS, product: .app, bundleId: "a.b",
                      infoPlist: .extendingDefault(with: [
                          "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                          "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                      ])),
          ]
      )
      \(after)
      """
    }
    let hidden = """
      Project(name: "Old", settings: .settings(base: ["CURRENT_PROJECT_VERSION": "999"]), targets: [
          .target(name: "Old", destinations: .iOS, product: .app, bundleId: "o",
                  infoPlist: .extendingDefault(with: ["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"])),
      ])
      """
    let cases = [
      ("nested", manifest("/* an old manifest /* nested */\nlet old = " + hidden + "\n*/", "")),
      ("iffalse", manifest("#if false\nlet old = " + hidden + "\n#endif", "")),
      ("ifelse", manifest("#if true\n#else\nlet old = " + hidden + "\n#endif", "")),
    ]
    for (name, text) in cases {
      try FileIO.createFolders(for: folder.file("\(name)/Project.swift"))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file("\(name)/Project.swift"))
      let run = try BundleKitTool.run(["version", "--format", "json"], in: folder.file(name))
      #expect(run.status == 0, "\(name): \(run.stderr)")
      #expect(!run.stdout.contains("999"), "\(name): \(run.stdout)")
      #expect(run.stdout.contains("\"CFBundleVersion\" : \"12\""), "\(name): \(run.stdout)")
      let bump = try BundleKitTool.run(["bump", "build"], in: folder.file(name))
      #expect(bump.status == 0, "\(name): \(bump.stderr)")
      let after = String(
        decoding: try FileIO.read(folder.file("\(name)/Project.swift")), as: UTF8.self)
      #expect(after.contains("\"CURRENT_PROJECT_VERSION\": \"13\""), "\(name)")
      #expect(after.contains("\"999\""), "\(name): the hidden number changed")
    }
    // A condition only the build decides: what it guards is not read, and said.
    let unknown = manifest("", "").replacingOccurrences(
      of:
        "settings: .settings(base: [\"MARKETING_VERSION\": \"1.2.0\", \"CURRENT_PROJECT_VERSION\": \"12\"]),",
      with:
        "#if DEBUG\n    settings: .settings(base: [\"CURRENT_PROJECT_VERSION\": \"1\"]),\n#else\n    settings: .settings(base: [\"CURRENT_PROJECT_VERSION\": \"2\"]),\n#endif"
    )
    try FileIO.createFolders(for: folder.file("ifdebug/Project.swift"))
    try FileIO.writeAtomically(Array(unknown.utf8), to: folder.file("ifdebug/Project.swift"))
    let debug = try BundleKitTool.run(["version", "--format", "json"], in: folder.file("ifdebug"))
    #expect(debug.status == 1, "\(debug.stdout)")
    #expect(!debug.stdout.contains("\"CFBundleVersion\" : \"1\""))
    #expect(!debug.stdout.contains("\"CFBundleVersion\" : \"2\""))

    // XcodeGen: a merge key brings the release settings in; the target's own key wins.
    let spec = """
      name: App
      settingGroups: {}
      release: &release
        CURRENT_PROJECT_VERSION: 40
        MARKETING_VERSION: 3.0.0
      targets:
        App:
          type: application
          platform: iOS
          info:
            path: App/Info.plist
            properties:
              CFBundleVersion: $(CURRENT_PROJECT_VERSION)
              CFBundleShortVersionString: $(MARKETING_VERSION)
          settings:
            base:
              <<: *release
              MARKETING_VERSION: 3.1.0
      """
    try FileIO.createFolders(for: folder.file("merge/project.yml"))
    try FileIO.writeAtomically(Array(spec.utf8), to: folder.file("merge/project.yml"))
    let merged = try BundleKitTool.run(["version", "--format", "json"], in: folder.file("merge"))
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.contains("\"CFBundleVersion\" : \"40\""), "\(merged.stdout)")
    #expect(
      merged.stdout.contains("\"CFBundleShortVersionString\" : \"3.1.0\""), "\(merged.stdout)")
    let bumped = try BundleKitTool.run(["bump", "build"], in: folder.file("merge"))
    #expect(bumped.status == 0, "\(bumped.stderr)")
    let after = String(decoding: try FileIO.read(folder.file("merge/project.yml")), as: UTF8.self)
    #expect(after.contains("CURRENT_PROJECT_VERSION: 41"), "\(after)")
  }
}
