import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

struct BumpTests {
  @Test("XML is edited in place: only the value's bytes change")
  func xmlInPlace() throws {
    let workspace = try Workspace()
    try workspace.write("App/Info.plist", xmlInfo)
    let run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "CFBundleVersion 41 -> 42: App/Info.plist\n")
    let after = String(decoding: try workspace.read("App/Info.plist"), as: UTF8.self)
    #expect(
      after == xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>42</string>"))
    try #require(try workspace.bundlekit("bump", "version", "minor").status == 0)
    let bumped = String(decoding: try workspace.read("App/Info.plist"), as: UTF8.self)
    #expect(
      bumped
        == xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>42</string>")
        .replacingOccurrences(of: "1.4.9", with: "1.5.0"))
  }

  @Test("binary stays binary, OpenStep and JSON keep their format; the mode is kept")
  func formats() throws {
    let workspace = try Workspace()
    let info: PropertyListValue = [
      "CFBundleShortVersionString": "1.0", "CFBundleVersion": "9", "Extra": ["a", "b"],
    ]
    try workspace.write("Binary/Info.plist", info, .binary1)
    try workspace.write(
      "Step/Info.plist",
      "{\n  // comment kept\n  CFBundleShortVersionString = 1.0;\n  CFBundleVersion = 9;\n}\n")
    try workspace.write("Json/Info.plist", info, .json)
    chmod(workspace.file("Binary/Info.plist"), 0o640)
    #expect(try workspace.bundlekit("bump", "build").status == 0)
    let binary = try PropertyListDocument(contentsOfFile: workspace.file("Binary/Info.plist"))
    #expect(binary.format == .binary1)
    #expect(
      binary.value == [
        "CFBundleShortVersionString": "1.0", "CFBundleVersion": "10", "Extra": ["a", "b"],
      ])
    var status = stat()
    stat(workspace.file("Binary/Info.plist"), &status)
    #expect(status.st_mode & 0o777 == 0o640)
    #expect(
      String(decoding: try workspace.read("Step/Info.plist"), as: UTF8.self)
        == "{\n  // comment kept\n  CFBundleShortVersionString = 1.0;\n  CFBundleVersion = 10;\n}\n"
    )
    #expect(
      try PropertyListDocument(contentsOfFile: workspace.file("Json/Info.plist")).format == .json)
    #expect(try workspace.value("Json/Info.plist", "CFBundleVersion") == "10")
  }

  @Test("one bad file: an error naming it, and nothing is written")
  func allOrNothing() throws {
    let workspace = try Workspace()
    try workspace.write("A/Info.plist", xmlInfo)
    try workspace.write(
      "B/Info.plist",
      xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>41 beta</string>"))
    let before = try workspace.read("A/Info.plist")
    let run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "B/Info.plist: error: CFBundleVersion '41 beta' is not a version (1 to 4 period-separated whole numbers, each of at most 18 digits)\n"
    )
    #expect(try workspace.read("A/Info.plist") == before)
    #expect(try workspace.bundlekit("bump", "build", "--to", "5.6.7.8.9").status == 2)
  }

  @Test("malformed, overflowing and write-protected files: a compiler-style error naming each")
  func fileErrors() throws {
    let workspace = try Workspace()
    try workspace.write("A/Info.plist", xmlInfo)
    let before = try workspace.read("A/Info.plist")
    try workspace.write(
      "B/Info.plist",
      xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>41</strin>"))
    var run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 1)
    #expect(
      run.stderr.hasPrefix("B/Info.plist:10:52: error: Opening and ending tag mismatch"),
      "\(run.stderr)")
    #expect(!run.stderr.contains("<input>"))
    // The file's error, then what the bump did about it.
    #expect(run.stderr.components(separatedBy: "error:").count == 3, "\(run.stderr)")
    #expect(run.stderr.hasSuffix("error: nothing was changed\n"))
    // Read only, `version` prints the other rows and the error on its own, exit 1.
    let table = try workspace.bundlekit("version")
    #expect(table.status == 1)
    #expect(table.stdout.contains("A/Info.plist") && table.stdout.contains("41"))
    #expect(!table.stderr.contains("nothing was changed"), "\(table.stderr)")

    try workspace.write(
      "B/Info.plist",
      xmlInfo.replacingOccurrences(
        of: "<string>41</string>", with: "<string>999999999999999999</string>"))
    run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "B/Info.plist: error: CFBundleVersion 999999999999999999 cannot be raised: a part would pass 18 digits, the most App Store Connect takes\n"
    )
    run = try workspace.bundlekit("bump", "build", "--sync")
    #expect(run.stderr.hasPrefix("B/Info.plist: error: CFBundleVersion 999999999999999999 cannot"))

    // A write-protected file (Perforce keeps files read-only until they are opened for
    // edit) is not replaced, and neither is any other file of the run.
    try workspace.write("B/Info.plist", xmlInfo)
    chmod(workspace.file("B/Info.plist"), 0o444)
    run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "B/Info.plist: error: the file is write-protected (make it writable, or open it for edit in your version control); no file was changed\n"
    )
    #expect(try workspace.read("A/Info.plist") == before)
    #expect(try workspace.read("B/Info.plist") == before)
    chmod(workspace.file("B/Info.plist"), 0o644)
    #expect(try workspace.bundlekit("bump", "build").status == 0)
    #expect(try workspace.value("B/Info.plist", "CFBundleVersion") == "42")
  }

  @Test("references are bumped where they are defined: .xcconfig and Xcode projects")
  func references() throws {
    let workspace = try Workspace()
    try workspace.write(
      "Shared/Info.plist",
      xmlInfo.replacingOccurrences(
        of: "<string>41</string>", with: "<string>$(CURRENT_PROJECT_VERSION)</string>"))
    try workspace.write(
      "Shared/Other-Info.plist",
      xmlInfo.replacingOccurrences(
        of: "<string>41</string>", with: "<string>${CURRENT_PROJECT_VERSION}</string>"))
    try workspace.write(
      "Shared/Config.xcconfig", "// Versions\nCURRENT_PROJECT_VERSION = 7 // bumped by CI\n")
    let projectText = try String(
      contentsOfFile: Corpus.packageRoot.appendingPathComponent(
        "Tests/VersioningTests/Fixtures/project.pbxproj"
      ).path, encoding: .utf8)
    try workspace.write("MyApp.xcodeproj/project.pbxproj", projectText)
    try workspace.write(
      "MyApp/Info.plist",
      xmlInfo.replacingOccurrences(
        of: "<string>41</string>", with: "<string>$(CURRENT_PROJECT_VERSION)</string>"
      ).replacingOccurrences(
        of: "<string>1.4.9</string>", with: "<string>$(MARKETING_VERSION)</string>"))
    let plistBefore = try workspace.read("MyApp/Info.plist")
    let run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 0, "\(run.stderr)")
    // The shared xcconfig is bumped once for both Info.plists; the Info.plists are untouched.
    #expect(
      String(decoding: try workspace.read("Shared/Config.xcconfig"), as: UTF8.self)
        == "// Versions\nCURRENT_PROJECT_VERSION = 8 // bumped by CI\n")
    #expect(try workspace.read("MyApp/Info.plist") == plistBefore)
    let project = String(
      decoding: try workspace.read("MyApp.xcodeproj/project.pbxproj"), as: UTF8.self)
    // The project, named by discovery too, has each target bumped once: MyApp (shared with
    // MyApp/Info.plist) and MyWidget.
    #expect(
      project
        == projectText.replacingOccurrences(
          of: "CURRENT_PROJECT_VERSION = 12;", with: "CURRENT_PROJECT_VERSION = 13;"
        )
        .replacingOccurrences(
          of: "CURRENT_PROJECT_VERSION = 5;", with: "CURRENT_PROJECT_VERSION = 6;"))
    // A project target without an Info.plist, narrowed with --target.
    #expect(
      try workspace.bundlekit("bump", "version", "2.0", "MyApp.xcodeproj", "--target", "MyWidget")
        .status == 0)
    let widget = String(
      decoding: try workspace.read("MyApp.xcodeproj/project.pbxproj"), as: UTF8.self)
    #expect(
      widget
        == project.replacingOccurrences(
          of: "MARKETING_VERSION = 1.0;", with: "MARKETING_VERSION = 2.0;"))
    // MyApp/Info.plist is the MyApp target's: its row is the target's, its value the
    // project's setting it names.
    let table = try workspace.bundlekit("version", "--format", "json")
    let rows = try JSONSerialization.jsonObject(with: Data(table.stdout.utf8)) as? [[String: Any]]
    let app = rows?.first { $0["target"] as? String == "MyApp" }
    #expect(app?["CFBundleVersion"] as? String == "13")
    #expect(app?["definedIn"] as? [String] == ["MyApp.xcodeproj/project.pbxproj"])
    #expect(rows?.contains { $0["path"] as? String == "Shared/Info.plist" } == true)
  }

  @Test("an unresolved reference is an error and nothing changes")
  func unresolved() throws {
    let workspace = try Workspace()
    try workspace.write("A/Info.plist", xmlInfo)
    try workspace.write(
      "B/Info.plist",
      xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>$(NOWHERE)</string>"))
    let before = try workspace.read("A/Info.plist")
    let run = try workspace.bundlekit("bump", "build")
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "B/Info.plist: error: CFBundleVersion is $(NOWHERE), which no .xcconfig beside it and no Xcode project above it defines"
      ))
    #expect(try workspace.read("A/Info.plist") == before)
  }

  @Test("discovery skips build products, dependencies and tests unless asked")
  func discovery() throws {
    let workspace = try Workspace()
    for path in [
      "App/Info.plist", "App/Widget-Info.plist", ".build/x/Info.plist", "DerivedData/Info.plist",
      "Pods/P/Info.plist", "Carthage/C/Info.plist", "AppTests/Info.plist",
      "AppUITests/Info.plist", "Lib/LibTests-Info.plist", "TestsKit/Info.plist",
    ] {
      try workspace.write(path, xmlInfo)
    }
    let found = try InfoPlistDiscovery.find(in: [workspace.path]).map {
      String($0.path.dropFirst(workspace.path.count + 1))
    }
    #expect(found == ["App/Info.plist", "App/Widget-Info.plist", "TestsKit/Info.plist"])
    let withTests = try InfoPlistDiscovery.find(in: [workspace.path], includeTests: true).count
    #expect(withTests == 6)
  }

  @Test("discovery gives each file once, in path order, however the searches overlap")
  func discoveryUniqueInPathOrder() throws {
    let workspace = try Workspace()
    // Names whose path order differs from the walk's (`A-b/...` sorts before `A/...`), a
    // spec a script names that the walk finds too, and a non-ASCII folder.
    for path in [
      "A/Info.plist", "A-b/Info.plist", "A/B/Info.plist", "Ziel-ж/Info.plist", "project.yml",
    ] {
      try workspace.write(path, path.hasSuffix(".yml") ? "name: App\n" : xmlInfo)
    }
    try workspace.write("Makefile", "generate:\n\txcodegen generate --spec project.yml\n")
    let roots = [
      workspace.path, workspace.path + "/A", workspace.path + "/A/Info.plist",
      workspace.path + "/project.yml",
    ]
    let found = try InfoPlistDiscovery.find(in: roots).map {
      String($0.path.dropFirst(workspace.path.count + 1))
    }
    #expect(
      found == [
        "A-b/Info.plist", "A/B/Info.plist", "A/Info.plist", "Ziel-ж/Info.plist", "project.yml",
      ])
    // What the set it replaces gave: the same items, sorted by path.
    let all = try InfoPlistDiscovery.find(in: roots)
    #expect(Set(all).count == all.count)
    #expect(all.map(\.path) == all.map(\.path).sorted())
  }

  @Test("--dry-run prints a unified diff and changes nothing; --sync; schemes")
  func dryRunSyncSchemes() throws {
    let workspace = try Workspace()
    try workspace.write("A/Info.plist", xmlInfo)
    try workspace.write(
      "B/Info.plist",
      xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>77</string>"))
    let before = try workspace.read("A/Info.plist")
    let dry = try workspace.bundlekit("bump", "build", "--dry-run")
    #expect(dry.stdout.contains("--- a/A/Info.plist\n+++ b/A/Info.plist\n@@ -7,7 +7,7 @@\n"))
    #expect(
      dry.stdout.contains(
        "-    <key>CFBundleVersion</key>   <string>41</string>\n+    <key>CFBundleVersion</key>   <string>42</string>\n"
      ))
    #expect(try workspace.read("A/Info.plist") == before)
    if let git = Tool.path("git") {
      let check = try Tool.run(
        git, ["apply", "--check", "-"], input: Data(dry.stdout.utf8), in: workspace.file("."))
      #expect(check.status == 0, "\(check.stderr)")
    }
    #expect(try workspace.bundlekit("bump", "build", "--sync").status == 0)
    #expect(try workspace.value("A/Info.plist", "CFBundleVersion") == "78")
    #expect(try workspace.value("B/Info.plist", "CFBundleVersion") == "78")
    #expect(
      try workspace.bundlekit(
        "bump", "build", "--scheme", "env:CI_BUILD", environment: ["CI_BUILD": "1234"]
      ).status == 0)
    #expect(try workspace.value("B/Info.plist", "CFBundleVersion") == "1234")
    let timestamp = try workspace.bundlekit(
      "bump", "build", "--scheme", "timestamp", environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(timestamp.status == 0)
    #expect(try workspace.value("A/Info.plist", "CFBundleVersion") == "2311142213")
    #expect(
      try workspace.bundlekit("bump", "build", "--scheme", "env:MISSING").stderr
        == "error: the environment variable MISSING is not set\n")
  }

  @Test("git-count counts commits and refuses a shallow clone")
  func gitCount() throws {
    let git = try #require(
      Tool.path("git"), "git is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let workspace = try Workspace()
    // Build 1: git-count (3 commits) raises it; it never lowers without --allow-lower.
    try workspace.write(
      "repo/App/Info.plist",
      xmlInfo.replacingOccurrences(of: "<string>41</string>", with: "<string>1</string>"))
    let repo = workspace.file("repo")
    func run(_ arguments: [String], in folder: String) throws {
      let result = try Tool.run(
        git, ["-C", folder] + arguments,
        environment: [
          "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
          "GIT_COMMITTER_EMAIL": "t@t",
        ])
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    try run(["init", "-q"], in: repo)
    for index in 1...3 {
      try workspace.write("repo/file\(index).txt", "\(index)")
      try run(["add", "."], in: repo)
      try run(["commit", "-q", "-m", "commit \(index)"], in: repo)
    }
    #expect(try workspace.bundlekit("bump", "build", "repo", "--scheme", "git-count").status == 0)
    #expect(try workspace.value("repo/App/Info.plist", "CFBundleVersion") == "3")
    try run(
      ["clone", "-q", "--depth", "1", "file://" + repo, workspace.file("shallow")],
      in: workspace.path)
    let shallow = try workspace.bundlekit("bump", "build", "shallow", "--scheme", "git-count")
    #expect(shallow.status == 1)
    #expect(shallow.stderr.contains("shallow clone"))
  }

  /// Five folders are locked one by one; 300 together on every core, and then again one by
  /// one in order where another run holds some (`FolderLocks.lockedTogether`).
  @Test("concurrent runs on the same files never lose an increment", arguments: [5, 300])
  func concurrency(targets: Int) throws {
    let workspace = try Workspace()
    for index in 0..<targets {
      try workspace.write("T\(index)/Info.plist", xmlInfo)
    }
    try workspace.write(
      "Shared/Info.plist",
      xmlInfo.replacingOccurrences(
        of: "<string>41</string>", with: "<string>$(CURRENT_PROJECT_VERSION)</string>"))
    try workspace.write("Shared/Base.xcconfig", "CURRENT_PROJECT_VERSION = 10\n")
    let runs = 6
    let statuses = WorkerThreads.results(runs) { _ in
      (try? workspace.bundlekit("bump", "build").status) ?? -1
    }
    #expect(statuses == Array(repeating: 0, count: runs))
    for index in 0..<targets {
      #expect(try workspace.value("T\(index)/Info.plist", "CFBundleVersion") == String(41 + runs))
    }
    #expect(
      String(decoding: try workspace.read("Shared/Base.xcconfig"), as: UTF8.self)
        == "CURRENT_PROJECT_VERSION = \(10 + runs)\n")
  }

  @Test("a run killed mid-way leaves every file whole: old or new, never broken")
  func interrupted() throws {
    let workspace = try Workspace()
    let count = 400
    for index in 0..<count {
      try workspace.write("B\(index)/Info.plist", xmlInfo)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(BundleKitTool.path))
    process.arguments = ["bump", "build"]
    process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Let it read and start writing, then kill it without warning.
    usleep(250_000)
    kill(process.processIdentifier, SIGKILL)
    process.waitWithoutSpinning()
    var old = 0
    var new = 0
    for index in 0..<count {
      let value = try workspace.value("B\(index)/Info.plist", "CFBundleVersion")
      if value == "41" { old += 1 } else if value == "42" { new += 1 }
    }
    #expect(old + new == count, "every file parses and holds the old or the new number")
    print("interrupted run: \(new) files written, \(old) untouched")
  }
}
