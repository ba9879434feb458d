import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit strings sync` on a target shaped like an app's: SwiftUI sources, a catalog with
/// translations, a second table as a development-language `.strings` file.
@Suite struct SyncCommandTests {
  /// The Inbox fixture's sources with a catalog as Xcode left it some commits ago: one key
  /// translated that the code dropped, one never translated, one manual.
  static func target() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let fixtures = ExtractionTests.fixtures.appendingPathComponent("Inbox")
    try FileManager.default.createDirectory(
      atPath: folder.file("Inbox/Resources/en.lproj"), withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
      try FileManager.default.copyItem(
        atPath: fixtures.appendingPathComponent(name).path, toPath: folder.file("Inbox/\(name)"))
    }
    let catalog = """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "Archived" : {
            "localizations" : {
              "fr" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Archivé"
                }
              }
            }
          },
          "Inbox" : {
            "localizations" : {
              "fr" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Boîte de réception"
                }
              }
            }
          },
          "Not in code" : {

          },
          "widget.title" : {
            "extractionState" : "manual"
          }
        },
        "version" : "1.0"
      }
      """
    try Data(catalog.utf8).write(
      to: URL(fileURLWithPath: folder.file("Inbox/Resources/Localizable.xcstrings")))
    try Data("/* Opens the help page */\n\"Help\" = \"Help\";\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("Inbox/Resources/en.lproj/Settings.strings")))
    return folder
  }

  static func contents(_ folder: TemporaryFolder) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in ["Localizable.xcstrings", "en.lproj/Settings.strings"] {
      result[name] = try Data(
        contentsOf: URL(fileURLWithPath: folder.file("Inbox/Resources/\(name)")))
    }
    return result
  }

  @Test("--check lists and fails, sync writes, a second sync finds nothing to do")
  func checkThenSync() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try Self.target()
    let before = try Self.contents(folder)
    let target = folder.file("Inbox")

    let check = try Tool.run(tool, ["sync", target, "--check"])
    #expect(check.status == 1)
    let listed = String(decoding: check.stdout, as: UTF8.self)
    #expect(listed.contains("Localizable.xcstrings: added \"%lld messages, %lld unread\"\n"))
    #expect(listed.contains("Localizable.xcstrings: stale \"Archived\" (no longer in the code)\n"))
    #expect(
      listed.contains(
        "Localizable.xcstrings: removed \"Not in code\" (no longer in the code, never translated)\n"
      ))
    #expect(listed.contains("en.lproj/Settings.strings: added \"Privacy Policy\"\n"))
    #expect(!listed.contains("widget.title"))
    #expect(!listed.contains("\"Help\""))
    #expect(check.stderr.contains("run `bundlekit strings sync` to apply"), "\(check.stderr)")
    #expect(
      check.stderr.contains(
        "warning: table Onboarding has no Onboarding.xcstrings or en.lproj/Onboarding.strings here; its string is not synced"
      ))
    #expect(try Self.contents(folder) == before, "--check wrote")

    let sync = try Tool.run(tool, ["sync", target])
    #expect(sync.status == 0, "\(sync.stderr)")
    #expect(sync.stdout == check.stdout)

    // Python's json reads the catalog: every key of the code, translations kept.
    let python = try #require(Tool.path("python3"))
    let script = """
      import json, sys
      strings = json.load(open(sys.argv[1]))["strings"]
      print(len(strings))
      print(strings["Inbox"]["localizations"]["fr"]["stringUnit"]["value"])
      print(strings["Archived"]["extractionState"], strings["Archived"]["localizations"]["fr"]["stringUnit"]["value"])
      print(strings["widget.title"])
      print("Not in code" in strings)
      print(strings["Delete"]["comment"])
      """
    let read = try Tool.run(
      python, ["-c", script, folder.file("Inbox/Resources/Localizable.xcstrings")])
    #expect(
      String(decoding: read.stdout, as: UTF8.self)
        == "29\nBoîte de réception\nstale Archivé\n{'extractionState': 'manual'}\nFalse\nSwipe action that deletes one message\n",
      "\(read.stderr)")
    let settings = try #require(
      try PropertyListSerialization.propertyList(
        from: Data(
          contentsOf: URL(fileURLWithPath: folder.file("Inbox/Resources/en.lproj/Settings.strings"))
        ),
        format: nil) as? [String: String])
    #expect(settings == ["Help": "Help", "Privacy Policy": "Privacy Policy"])

    let written = try Self.contents(folder)
    let again = try Tool.run(tool, ["sync", target, "--check"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.isEmpty)
    #expect(again.stderr.contains("0 changes in 0 of 2 tables: up to date"), "\(again.stderr)")
    #expect(try Self.contents(folder) == written)
  }

  @Test(
    "Xcode's catalog stays in step: enum raw values, Core Data attribute types, and literals held as String"
  )
  func xcodeMaintainedCatalog() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try TemporaryFolder()
    let files = [
      "Timer/InputMode.swift": """
      import SwiftUI

      enum InputMode: LocalizedStringKey, CaseIterable {
        case timer = "Timer"
        case typing = "Typing"
      }

      enum Plain: String { case raw = "Not a key" }
      """,
      "Timer/PhasePicker.swift": #"""
      import SwiftUI

      struct PhasePicker: View {
        let session: NSManagedObject
        var body: some View {
          if let phaseCount = (session as? MultiphaseSession)?.phaseCount {
            ForEach(0..<phaseCount, id: \.self) { idx in
              Text("Phase \(idx + 1)")
            }
          }
        }
      }
      """#,
      "Timer/Sheet.swift": """
      enum Sheet {
        case permissions
        var description: String {
          switch self {
          case .permissions: return "Permissions"
          }
        }
      }
      """,
      "Timer/Model.xcdatamodeld/Model.xcdatamodel/contents": """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="MultiphaseSession" representedClassName="MultiphaseSession" syncable="YES" codeGenerationType="class">
              <attribute name="phaseCount" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
          </entity>
      </model>
      """,
      "Timer/Localizable.xcstrings": """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "Permissions" : {

          },
          "Phase %d" : {

          },
          "Timer" : {

          },
          "Typing" : {

          }
        },
        "version" : "1.0"
      }
      """,
    ]
    for (path, text) in files {
      try FileManager.default.createDirectory(
        atPath: (folder.file(path) as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder.file(path)))
    }
    let extract = try Tool.run(tool, ["extract", folder.file("Timer"), "--format", "json"])
    let keys = Set(
      ((try JSONSerialization.jsonObject(with: extract.stdout) as? [[String: Any]]) ?? [])
        .compactMap { $0["key"] as? String })
    #expect(keys == ["Timer", "Typing", "Phase %d"], "\(keys)")
    let check = try Tool.run(tool, ["sync", folder.file("Timer"), "--check"])
    #expect(check.status == 0, "\(String(decoding: check.stdout, as: UTF8.self)) \(check.stderr)")
    #expect(
      check.stderr.contains(
        "\"Permissions\" is kept: the code holds it as a string literal that BundleKit does not read as localized"
      ), "\(check.stderr)")
  }

  @Test("InfoPlist and Interface Builder catalogs are not the code's: sync leaves them alone")
  func tablesNotFromCode() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.file("App/Base.lproj"), withIntermediateDirectories: true)
    try Data("import SwiftUI\nlet t = Text(\"Hello\")\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("App/App.swift")))
    try Data("<document/>\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("App/Base.lproj/Main.storyboard")))
    let catalog = { (key: String) in
      """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "\(key)" : {
            "localizations" : {
              "fr" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Traduit"
                }
              }
            }
          }
        },
        "version" : "1.0"
      }
      """
    }
    var before: [String: Data] = [:]
    for (name, key) in [
      ("InfoPlist", "NSCameraUsageDescription"), ("Main", "Vf2-ab-c3d.text"),
      ("Localizable", "Hello"),
    ] {
      let data = Data(catalog(key).utf8)
      try data.write(to: URL(fileURLWithPath: folder.file("App/\(name).xcstrings")))
      before[name] = data
    }
    let check = try Tool.run(tool, ["sync", folder.file("App"), "--check"])
    #expect(check.status == 0, "\(String(decoding: check.stdout, as: UTF8.self)) \(check.stderr)")
    #expect(check.stdout.isEmpty)
    let sync = try Tool.run(tool, ["sync", folder.file("App")])
    #expect(sync.status == 0, "\(sync.stderr)")
    for (name, data) in before {
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: folder.file("App/\(name).xcstrings"))) == data,
        "\(name)")
    }
  }

  @Test("a source sync cannot read (over 8 MiB, too deep) is an error, and no key of it is deleted")
  func unreadableSourceWritesNothing() throws {
    let tool = try #require(ExtractCommandTests.tool, "bundlekit-localize was not built")
    let folder = try Self.target()
    let target = folder.file("Inbox")
    // First in step with the code.
    #expect(try Tool.run(tool, ["sync", target]).status == 0)
    let before = try Self.contents(folder)
    let sources = try FileManager.default.subpathsOfDirectory(atPath: target).filter {
      $0.hasSuffix(".swift")
    }
    let victim = try #require(sources.first)
    let original = try String(contentsOfFile: folder.file("Inbox/" + victim), encoding: .utf8)
    for padding in [
      "\n// " + String(repeating: "x", count: 9 << 20) + "\n",
      "\nlet deep = " + Array(repeating: "1", count: 100_000).joined(separator: " + ") + "\n",
    ] {
      try Data((original + padding).utf8).write(
        to: URL(fileURLWithPath: folder.file("Inbox/" + victim)))
      for arguments in [["sync", target, "--check"], ["sync", target]] {
        let run = try Tool.run(tool, arguments)
        #expect(run.status == 1, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("\(victim)"), "\(run.stderr)")
        #expect(run.stderr.contains("error: not read"), "\(run.stderr)")
        #expect(try Self.contents(folder) == before, "\(arguments) wrote")
      }
    }
  }

  @Test("bundlekit strings sync runs the helper beside it")
  func forwarded() throws {
    _ = try #require(
      BundleKitTool.path,
      "bundlekit was not built here: swift build --package-path Packages/BundleKitLocalize --product bundlekit"
    )
    let folder = try Self.target()
    let result = try BundleKitTool.run(["strings", "sync", folder.file("Inbox"), "--check"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("added \"Signed in as %@\""), "\(result.stderr)")
  }

  @Test("sync survives SIGKILL at random moments: every catalog old or new, all alike")
  func killed() throws {
    let python = try #require(Tool.path("python3"))
    let bundlekit = try #require(BundleKitTool.path, "bundlekit was not built here")
    let seed = SeededGenerator.seed("sync crash test")
    let run = try Tool.run(
      python,
      [
        Corpus.packageRoot.appendingPathComponent("Scripts/crash-test.py").path,
        "--bundlekit", bundlekit, "--kills", "12", "--seed", String(seed % (1 << 32)),
        "--seconds", "90", "--commands", "sync",
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    let results = report?["commands"] as? [[String: Any]] ?? []
    #expect(results.first?["failures"] as? Int == 0, "\(results)")
    #expect((results.first?["kills"] as? Int ?? 0) > 0, "\(results)")
  }
}
