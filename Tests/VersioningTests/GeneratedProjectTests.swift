import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// Versions on generated and modern projects, each item a layout seen on a real repository:
/// XcodeGen as XcodeGen reads its spec, Tuist's defaults and code, and the settings Xcode
/// really uses.
@Suite("Generated and modern projects")
struct GeneratedProjectTests {
  /// A folder of `files`, each written as given.
  static func folder(_ files: [String: String]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    return folder
  }

  static func plist(version: String, build: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>\(version)</string><key>CFBundleVersion</key><string>\(build)</string></dict></plist>

    """
  }

  /// A project with one app target whose configurations (`Release` only) hold `settings`,
  /// based on `App.xcconfig` when `xcconfig` is true.
  static func project(_ settings: String, xcconfig: Bool = false) -> String {
    let base = xcconfig ? "baseConfigurationReference = F0000001; " : ""
    return """
      // !$*UTF8*$!
      {
      	archiveVersion = 1;
      	classes = {
      	};
      	objectVersion = 56;
      	objects = {
      		F0000001 = {isa = PBXFileReference; path = Config/App.xcconfig; sourceTree = "<group>"; };
      		F0000002 = {isa = PBXGroup; children = (F0000001,); sourceTree = "<group>"; };
      		T0000001 = {isa = PBXNativeTarget; buildConfigurationList = L0000001; name = App; productType = "com.apple.product-type.application"; };
      		L0000001 = {isa = XCConfigurationList; buildConfigurations = (C0000001,); };
      		C0000001 = {isa = XCBuildConfiguration; \(base)buildSettings = { \(settings) }; name = Release; };
      		P0000001 = {isa = PBXProject; buildConfigurationList = P0000002; mainGroup = F0000002; targets = (T0000001); };
      		P0000002 = {isa = XCConfigurationList; buildConfigurations = (P0000003,); };
      		P0000003 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
      	};
      	rootObject = P0000001;
      }

      """
  }

  /// `version --format json` in `folder`, by target.
  static func versions(_ folder: String, _ extra: [String] = []) throws -> (
    rows: [String: [String: Any]], result: CommandResult
  ) {
    let result = try BundleKitTool.run(["version", "--format", "json"] + extra, in: folder)
    let rows =
      (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]]
    var byTarget: [String: [String: Any]] = [:]
    for row in rows ?? [] { byTarget[row["target"] as? String ?? "?"] = row }
    return (byTarget, result)
  }

  @Test(
    "XcodeGen: templates with attributes, setting groups, multi-platform targets, generated defaults"
  )
  func xcodeGenModel() throws {
    let folder = try Self.folder([
      "project.yml": """
      name: Kit
      include: Shared/base.yml
      settingGroups:
        versions:
          CURRENT_PROJECT_VERSION: 23
          MARKETING_VERSION: 4.1.0
      targetTemplates:
        Module:
          type: framework
          platform: iOS
          settings:
            groups: [versions]
            PRODUCT_NAME: ${target_name}${suffix}
          info:
            path: ${target_name}/Info.plist
            properties:
              CFBundleVersion: $(CURRENT_PROJECT_VERSION)
              CFBundleShortVersionString: $(MARKETING_VERSION)
      targets:
        Core:
          templates: [Module]
          templateAttributes:
            suffix: Kit
        Network:
          templates: [Module]
        Player:
          type: application
          platform: [iOS, tvOS]
          info:
            path: Player/Info-${platform}.plist
        Legacy:
          type: application
          platform: iOS
          sources: [Legacy]
      """,
      "Shared/base.yml": "options:\n  bundleIdPrefix: com.example\n",
      "Legacy/Sources/Info.plist": Self.plist(version: "0.9", build: "77"),
    ])
    let (rows, result) = try Self.versions(folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    // Templates: both frameworks, versions from the setting group.
    for name in ["Core", "Network"] {
      #expect(rows[name]?["CFBundleVersion"] as? String == "23", "\(name): \(rows)")
      #expect(rows[name]?["CFBundleShortVersionString"] as? String == "4.1.0")
    }
    // Multi-platform: one target per platform, XcodeGen's generated defaults.
    #expect(rows["Player_iOS"]?["CFBundleVersion"] as? String == "1", "\(rows.keys.sorted())")
    #expect(rows["Player_tvOS"]?["CFBundleShortVersionString"] as? String == "1.0")
    // No info: the Info.plist of its sources.
    #expect(rows["Legacy"]?["CFBundleVersion"] as? String == "77")
    // A bump raises the setting group in the spec; the defaults are refused by name.
    let bump = try BundleKitTool.run(["bump", "build", "--target", "Core"], in: folder.path)
    #expect(bump.status == 0, "\(bump.stderr)")
    let spec = String(decoding: try FileIO.read(folder.file("project.yml")), as: UTF8.self)
    #expect(spec.contains("CURRENT_PROJECT_VERSION: 24"), "\(spec)")
    let refused = try BundleKitTool.run(
      ["bump", "build", "--target", "Player_iOS"], in: folder.path)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("XcodeGen's generated Info.plist default"), "\(refused.stderr)")
    // At the spec, so a CI annotation lands on it.
    #expect(refused.stderr.hasPrefix("project.yml: error: "), "\(refused.stderr)")
  }

  @Test(
    "XcodeGen's generated default is bumped by writing it in the target's info.properties, a diff git applies; a flow mapping is refused"
  )
  func bumpGeneratedDefault() throws {
    let folder = try Self.folder([
      "project.yml": """
      name: App
      targets:
        App:
          type: application
          platform: iOS
          info:
            path: App/Info.plist
            properties:
              CFBundleDisplayName: App
        Widget:
          type: app-extension
          platform: iOS
          info:
            path: Widget/Info.plist
        Flow:
          type: application
          platform: iOS
          info: { path: Flow/Info.plist }
        Orient:
          type: application
          platform: iOS
          info:
            path: Orient/Info.plist
            properties:
              UISupportedInterfaceOrientations: [UIInterfaceOrientationPortrait]
      """
    ])
    // A dry run: one added line a target at a time, as a diff `git apply` takes.
    let dry = try BundleKitTool.run(
      ["bump", "build", "--target", "Widget", "--dry-run"], in: folder.path)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(
      dry.stdout.contains(
        """
        @@ -11,6 +11,8 @@
             type: app-extension
             platform: iOS
             info:
        +      properties:
        +        CFBundleVersion: "2"
               path: Widget/Info.plist
        """), "\(dry.stdout)")
    let git = try #require(Tool.path("git"))
    _ = try Tool.run(git, ["init", "-q"], in: folder.path)
    try FileIO.writeAtomically(Array(dry.stdout.utf8), to: folder.file("bump.diff"))
    #expect(try Tool.run(git, ["apply", "--check", "bump.diff"], in: folder.path).status == 0)
    // Written: the properties the target had keep theirs, and XcodeGen reads the new value.
    for target in ["App", "Widget", "Orient"] {
      let run = try BundleKitTool.run(["bump", "build", "--target", target], in: folder.path)
      #expect(run.status == 0, "\(target): \(run.stderr)")
    }
    let spec = String(decoding: try FileIO.read(folder.file("project.yml")), as: UTF8.self)
    #expect(
      spec.contains(
        "      properties:\n        CFBundleVersion: \"2\"\n        CFBundleDisplayName: App\n"),
      "\(spec)")
    let (rows, _) = try Self.versions(folder.path)
    #expect(rows["App"]?["CFBundleVersion"] as? String == "2", "\(rows)")
    #expect(rows["Widget"]?["CFBundleVersion"] as? String == "2")
    #expect(rows["Orient"]?["CFBundleVersion"] as? String == "2")
    #expect(spec.contains("CFBundleVersion: \"2\"\n        UISupportedInterfaceOrientations:"))
    #expect(rows["Flow"]?["CFBundleVersion"] as? String == "1")
    // A flow mapping is not rewritten by guesswork: refused, and the spec left as it was.
    let refused = try BundleKitTool.run(["bump", "build", "--target", "Flow"], in: folder.path)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("project.yml"), "\(refused.stderr)")
    #expect(String(decoding: try FileIO.read(folder.file("project.yml")), as: UTF8.self) == spec)
  }

  @Test(
    "XcodeGen: a multi-platform framework's preset build number is bumped in its own settings, once for every platform"
  )
  func bumpPresetBuildNumber() throws {
    let folder = try Self.folder([
      "project.yml": """
      name: Project
      targets:
        Framework:
          type: framework
          platform: [iOS, tvOS, macOS]
        Kit:
          type: framework
          platform: iOS
          settings:
            base:
              PRODUCT_NAME: Kit
            configs:
              Debug:
                SWIFT_OPTIMIZATION_LEVEL: -Onone

      """
    ])
    let (before, _) = try Self.versions(folder.path)
    #expect(before["Framework_tvOS"]?["CFBundleVersion"] as? String == "1", "\(before)")
    let run = try BundleKitTool.run(["bump", "build"], in: folder.path)
    #expect(run.status == 0, "\(run.stderr)")
    let spec = String(decoding: try FileIO.read(folder.file("project.yml")), as: UTF8.self)
    #expect(
      spec.contains(
        "  Framework:\n    settings:\n      CURRENT_PROJECT_VERSION: \"2\"\n    type: framework\n"),
      "\(spec)")
    #expect(
      spec.contains(
        "    settings:\n      base:\n        CURRENT_PROJECT_VERSION: \"2\"\n        PRODUCT_NAME: Kit\n"
      ),
      "\(spec)")
    let (rows, _) = try Self.versions(folder.path)
    for target in ["Framework_iOS", "Framework_tvOS", "Framework_macOS", "Kit"] {
      #expect(rows[target]?["CFBundleVersion"] as? String == "2", "\(target): \(rows)")
    }
  }

  @Test("XcodeGen: a spec named project-app.yml, and one only a Makefile names with --spec")
  func specNames() throws {
    let spec = """
      name: App
      targets:
        App:
          type: application
          platform: iOS
          info:
            path: App/Info.plist
            properties:
              CFBundleVersion: "8"

      """
    let folder = try Self.folder([
      "project-app.yml": spec,
      "specs/mobile.yml": spec.replacingOccurrences(of: "\"8\"", with: "\"9\""),
      "Makefile": "generate:\n\tmint run xcodegen generate --spec specs/mobile.yml\n",
    ])
    let result = try BundleKitTool.run(["version"], in: folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("project-app.yml"), "\(result.stdout)")
    #expect(result.stdout.contains("specs/mobile.yml"), "\(result.stdout)")
  }

  @Test(
    "Tuist: .default and no infoPlist are 1.0 and 1; code is named on its own row; Derived is left out"
  )
  func tuistDefaults() throws {
    let folder = try Self.folder([
      "Project.swift": """
      import ProjectDescription
      import ProjectDescriptionHelpers

      let project = Project(
          name: "App",
          settings: .settings(base: ["CURRENT_PROJECT_VERSION": "31", "MARKETING_VERSION": "5.0"]),
          targets: [
              .target(name: "App", destinations: .iOS, product: .app, bundleId: "a.b",
                      infoPlist: .extendingDefault(with: ["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"])),
              .target(name: "AppTests", destinations: .iOS, product: .unitTests, bundleId: "a.b.t",
                      infoPlist: .default),
              .target(name: "Kit", destinations: .iOS, product: .framework, bundleId: "a.k"),
              Target.feature(name: "Search"),
          ]
      )
      """,
      "Derived/InfoPlists/App-Info.plist": Self.plist(version: "5.0", build: "31"),
    ])
    let (rows, result) = try Self.versions(folder.path, ["--include-tests"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(rows["App"]?["CFBundleVersion"] as? String == "31")
    // Tuist's default Info.plist: the app's version key is its default, not the setting.
    #expect(rows["App"]?["CFBundleShortVersionString"] as? String == "1.0")
    #expect(rows["AppTests"]?["CFBundleVersion"] as? String == "1", "\(rows)")
    #expect(rows["Kit"]?["CFBundleVersion"] as? String == "1")
    #expect(rows["targets[3]"]?["missing"] as? String != nil, "\(rows.keys.sorted())")
    #expect(
      result.stderr.contains("targets[3] is built by code: not read without running the manifest"))
    // The generated plist is no target of its own, and not bumped.
    #expect(!result.stdout.contains("Derived/InfoPlists"))
    let bump = try BundleKitTool.run(["bump", "build", "--dry-run"], in: folder.path)
    #expect(!bump.stdout.contains("Derived"), "\(bump.stdout)")
  }

  @Test(
    "Tuist: names bound at the top (let, an unchanged var, \"\\(name)\") read as Swift reads them; a bump edits the bound literal once"
  )
  func tuistBoundNames() throws {
    // The shape of a modular Tuist app seen on a real repository: each value bound once at
    // the top and named by the targets.
    let manifest = """
      import Foundation
      import ProjectDescription

      private let projectName: String = "Shop"
      private let buildVersion: String = "2.4.0"
      private let stamp: String = {
        let now = Date()
        return "\\(now.timeIntervalSince1970)"
      }()
      let infoPlist: [String: InfoPlist.Value] = [
        "CFBundleShortVersionString": "\\(buildVersion)",
        "CFBundleVersion": "41",
        "UILaunchStoryboardName": "LaunchScreen",
      ]
      public var baseSettings: [String: SettingValue] = [
        "MARKETING_VERSION": "9.9",
        "CURRENT_PROJECT_VERSION": "\\(stamp)",
      ]
      var changedInfo: [String: InfoPlist.Value] = ["CFBundleVersion": "5"]
      changedInfo["CFBundleVersion"] = "6"
      let suffixed = "3.0" + "-beta"

      let appTarget = Target(
          name: "\\(projectName)",
          platform: .iOS,
          product: .app,
          bundleId: "a.b.\\(projectName)",
          infoPlist: .extendingDefault(with: infoPlist),
          settings: .settings(base: baseSettings)
      )
      let widget = Target(
          name: "ShopWidget", platform: .iOS, product: .appExtension, bundleId: "a.b.w",
          infoPlist: .extendingDefault(with: infoPlist)
      )
      let kit = Target(
          name: "Kit", platform: .iOS, product: .framework, bundleId: "a.b.k",
          infoPlist: .extendingDefault(with: changedInfo)
      )
      let beta = Target(
          name: "Beta", platform: .iOS, product: .app, bundleId: "a.b.beta",
          infoPlist: .extendingDefault(with: ["CFBundleShortVersionString": suffixed, "CFBundleVersion": "1"])
      )

      let project = Project(
          name: projectName,
          targets: [appTarget, widget, kit, beta]
      )
      """
    let folder = try Self.folder(["Project.swift": manifest])
    let (rows, result) = try Self.versions(folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stderr.contains("Shop is built by code"), "\(result.stderr)")
    #expect(!result.stderr.contains("ShopWidget is built by code"), "\(result.stderr)")
    // The Info.plist's own literals win over the settings, as in the plist Tuist generates.
    #expect(rows["Shop"]?["CFBundleShortVersionString"] as? String == "2.4.0", "\(rows)")
    #expect(rows["Shop"]?["CFBundleVersion"] as? String == "41")
    #expect(rows["ShopWidget"]?["CFBundleVersion"] as? String == "41")
    // A var the manifest changes, and an expression that goes on past its literal, are code:
    // named as such, never read as their first literal ("5", "3.0") nor as Tuist's default.
    #expect(result.stderr.contains("Kit is built by code"), "\(result.stderr)")
    #expect(result.stderr.contains("Beta is built by code"), "\(result.stderr)")
    #expect(rows["Kit"]?["CFBundleVersion"] == nil && rows["Kit"]?["missing"] != nil, "\(rows)")
    #expect(rows["Beta"]?["CFBundleShortVersionString"] == nil, "\(rows)")

    // The app and its widget read one literal: the bump writes it once, and only it.
    let bump = try BundleKitTool.run(["bump", "build", "--target", "Shop"], in: folder.path)
    #expect(bump.status == 0, "\(bump.stderr)")
    let bumped = String(decoding: try FileIO.read(folder.file("Project.swift")), as: UTF8.self)
    #expect(bumped == manifest.replacingOccurrences(of: "\"41\"", with: "\"42\""), "\(bumped)")
    let version = try BundleKitTool.run(
      ["bump", "version", "minor", "--target", "Shop"], in: folder.path)
    #expect(version.status == 0, "\(version.stderr)")
    let raised = String(decoding: try FileIO.read(folder.file("Project.swift")), as: UTF8.self)
    #expect(raised.contains("private let buildVersion: String = \"2.5.0\""), "\(raised)")
    #expect(raised.contains("\"CFBundleShortVersionString\": \"\\(buildVersion)\""))
    let (after, _) = try Self.versions(folder.path)
    #expect(after["ShopWidget"]?["CFBundleShortVersionString"] as? String == "2.5.0", "\(after)")
  }

  @Test("Tuist: a target named by a helper's constant is read by the constant's value")
  func tuistHelperNames() throws {
    // Shapes of real Tuist apps: `name: .projects.app` with the versions in xcconfigs,
    // `name: Environments.appName` with them in the manifest.
    let helpers = """
      import ProjectDescription
      public extension String {
          enum projects {
              public static let app = "App"
              public static let widget = "Widget"
          }
      }
      public enum Environments {
          public static let appName = "Chouten"
          public static let bundleId = "com.example.\\(appName)"
          public static let ambiguous = "One"
      }
      enum Other { static let ambiguous = "Two" }
      """
    let app = """
      import ProjectDescription
      import ProjectDescriptionHelpers
      let project = Project(
          name: .projects.app,
          settings: .settings(configurations: [
              .debug(name: "Debug", xcconfig: "Configs/Debug.xcconfig"),
              .release(name: "Release", xcconfig: "Configs/Release.xcconfig"),
          ]),
          targets: [
              Target.target(
                  name: .projects.app, destinations: .iOS, product: .app, bundleId: "a.b",
                  infoPlist: .extendingDefault(with: [
                      "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                      "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                  ])),
              .target(
                  name: Environments.appName, destinations: .iOS, product: .app, bundleId: "a.c",
                  infoPlist: .extendingDefault(with: ["CFBundleShortVersionString": "2.0", "CFBundleVersion": "7"])),
              .target(
                  name: Environments.ambiguous, destinations: .iOS, product: .app, bundleId: "a.d",
                  infoPlist: .extendingDefault(with: ["CFBundleShortVersionString": "3.0", "CFBundleVersion": "1"])),
              // Xcode generates the versions into this file's keys: a Boolean `SettingValue`.
              .target(
                  name: "Relay", destinations: .iOS, product: .app, bundleId: "a.e",
                  infoPlist: .file(path: "Relay-Info.plist"),
                  settings: .settings(base: [
                      "GENERATE_INFOPLIST_FILE": true, "MARKETING_VERSION": "0.4.0",
                      "CURRENT_PROJECT_VERSION": "3",
                  ])),
          ]
      )
      """
    let config = "MARKETING_VERSION = 1.1.0\nCURRENT_PROJECT_VERSION = 4\n"
    let folder = try Self.folder([
      "Tuist/ProjectDescriptionHelpers/Names.swift": helpers,
      "Projects/App/Project.swift": app,
      "Projects/App/Configs/Debug.xcconfig": config,
      "Projects/App/Configs/Release.xcconfig": config,
      "Projects/App/Relay-Info.plist": """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>LSRequiresIPhoneOS</key><true/></dict></plist>
      """,
    ])
    // A helper that is a link out of the tree is not read (it would make `appName` two).
    let outside = try TemporaryFolder()
    try FileIO.writeAtomically(
      Array("enum Evil { static let appName = \"Evil\" }".utf8), to: outside.file("Evil.swift"))
    #expect(
      symlink(outside.file("Evil.swift"), folder.file("Tuist/ProjectDescriptionHelpers/Evil.swift"))
        == 0)
    let (rows, result) = try Self.versions(folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(rows["App"]?["CFBundleVersion"] as? String == "4", "\(rows)")
    #expect(rows["Chouten"]?["CFBundleVersion"] as? String == "7", "\(rows)")
    #expect(rows["Relay"]?["CFBundleVersion"] as? String == "3", "\(rows)")
    #expect(rows["Relay"]?["CFBundleShortVersionString"] as? String == "0.4.0", "\(rows)")
    // A name two helpers bind to two values stays code.
    #expect(result.stderr.contains("targets[2] is built by code"), "\(result.stderr)")

    let bump = try BundleKitTool.run(["bump", "build", "--target", "App"], in: folder.path)
    #expect(bump.status == 0, "\(bump.stderr)")
    for name in ["Debug", "Release"] {
      let text = String(
        decoding: try FileIO.read(folder.file("Projects/App/Configs/\(name).xcconfig")),
        as: UTF8.self)
      #expect(text == config.replacingOccurrences(of: "= 4", with: "= 5"), "\(text)")
    }
    // The constant-named target's literal is edited in place, found by its place.
    let chouten = try BundleKitTool.run(["bump", "build", "--target", "Chouten"], in: folder.path)
    #expect(chouten.status == 0, "\(chouten.stderr)")
    let manifest = String(
      decoding: try FileIO.read(folder.file("Projects/App/Project.swift")), as: UTF8.self)
    #expect(
      manifest
        == app.replacingOccurrences(
          of: "\"CFBundleVersion\": \"7\"", with: "\"CFBundleVersion\": \"8\""),
      "\(manifest)")
    // Read from the project's folder alone, the helpers are outside the tree: code again.
    let (alone, aloneResult) = try Self.versions(folder.file("Projects/App"))
    #expect(alone["App"] == nil, "\(alone)")
    #expect(aloneResult.stderr.contains("targets[0] is built by code"), "\(aloneResult.stderr)")
  }

  @Test("Tuist: two values asked of one bound literal are refused, and nothing changes")
  func tuistSharedLiteralConflict() throws {
    // One literal that is the app's version and the kit's build number: no bump can give it
    // both new values.
    let manifest = """
      import ProjectDescription
      let shared = "3"
      let project = Project(
          name: "P",
          targets: [
              .target(name: "App", destinations: .iOS, product: .app, bundleId: "a.b",
                      infoPlist: .extendingDefault(with: ["CFBundleShortVersionString": "1.0", "CFBundleVersion": shared])),
              .target(name: "Other", destinations: .iOS, product: .app, bundleId: "a.c",
                      infoPlist: .extendingDefault(with: ["CFBundleShortVersionString": shared, "CFBundleVersion": "9"])),
          ]
      )
      """
    let folder = try Self.folder(["Project.swift": manifest])
    let bump = try BundleKitTool.run(
      ["bump", "version", "major", "--reset-build"], in: folder.path)
    #expect(bump.status != 0, "\(bump.stdout)")
    #expect(bump.stderr.contains("Project.swift"), "\(bump.stderr)")
    #expect(bump.stderr.contains("are one value (Project.swift let.shared)"), "\(bump.stderr)")
    #expect(try FileIO.read(folder.file("Project.swift")) == Array(manifest.utf8))
  }

  @Test(
    "Xcode: GENERATE_INFOPLIST_FILE takes an assigned CURRENT_PROJECT_VERSION over the file's literal"
  )
  func generatedInfoPlistWins() throws {
    let folder = try Self.folder([
      "App.xcodeproj/project.pbxproj": Self.project(
        "GENERATE_INFOPLIST_FILE = YES; INFOPLIST_FILE = App/Info.plist; CURRENT_PROJECT_VERSION = 12; MARKETING_VERSION = 3.0;"
      ),
      "App/Info.plist": Self.plist(version: "1.0", build: "1"),
    ])
    let (rows, _) = try Self.versions(folder.path)
    #expect(rows["App"]?["CFBundleVersion"] as? String == "12", "\(rows)")
    #expect(rows["App"]?["CFBundleShortVersionString"] as? String == "3.0")
    let bump = try BundleKitTool.run(["bump", "build"], in: folder.path)
    #expect(bump.status == 0, "\(bump.stderr)")
    let project = String(
      decoding: try FileIO.read(folder.file("App.xcodeproj/project.pbxproj")), as: UTF8.self)
    #expect(project.contains("CURRENT_PROJECT_VERSION = 13;"))
    // The literal Xcode ignores is left as it was.
    #expect(
      try FileIO.read(folder.file("App/Info.plist"))
        == Array(Self.plist(version: "1.0", build: "1").utf8))
  }

  @Test("Xcode: an #include found in the project's folder, not beside the including file")
  func includeFromSourceRoot() throws {
    let folder = try Self.folder([
      "App.xcodeproj/project.pbxproj": Self.project(
        "INFOPLIST_FILE = App/Info.plist;", xcconfig: true),
      "Config/App.xcconfig": "#include \"Config/AppVersion.xcconfig\"\n",
      "Config/AppVersion.xcconfig": "CURRENT_PROJECT_VERSION = 88\nMARKETING_VERSION = 2.2\n",
      "App/Info.plist": Self.plist(
        version: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)"),
    ])
    let (rows, result) = try Self.versions(folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(rows["App"]?["CFBundleVersion"] as? String == "88")
  }

  @Test(
    "discovery: a .xcworkspace without contents.xcworkspacedata, and vendored binaries, are no one's"
  )
  func workspacesAndVendoredBinaries() throws {
    let folder = try Self.folder([
      "App.xcodeproj/project.pbxproj": Self.project("INFOPLIST_FILE = App/Info.plist;"),
      "App/Info.plist": Self.plist(version: "1.0", build: "5"),
      "App.xcworkspace/xcshareddata/swiftpm/Package.resolved": "{}\n",
      "Vendor/Crash.xcframework/ios-arm64/Crash.framework/Info.plist": Self.plist(
        version: "9.9", build: "999"),
      "Vendor/Maps.bundle/Info.plist": Self.plist(version: "7.0", build: "70"),
    ])
    let (rows, result) = try Self.versions(folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(rows.keys.sorted() == ["App"], "\(rows.keys.sorted())")
    let dry = try BundleKitTool.run(["bump", "build", "--dry-run"], in: folder.path)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(!dry.stdout.contains("Vendor"), "\(dry.stdout)")
  }
}
