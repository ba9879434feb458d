import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitResources
import BundleKitStringsTable
import BundleKitTestSupport
import Foundation
import Testing

struct BundleCreateTests {
  func resources() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let files: [String: String] = [
      "res/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
      "res/fr.lproj/Localizable.strings": "\"hello\" = \"Bonjour\";\n",
      "res/de.lproj/Localizable.strings": "\"hello\" = \"Hallo\";\n",
      "res/Menu.xcstrings":
        #"{"sourceLanguage":"en","strings":{"Quit":{"localizations":{"fr":{"stringUnit":{"state":"translated","value":"Quitter"}}}}},"version":"1.0"}"#,
      "res/data/config.json": "{\"a\": 1}",
      "res/.DS_Store": "junk",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    return folder
  }

  @Test("the bundle loads with Foundation: strings per language, files by name, Info.plist")
  func foundationLoadsIt() throws {
    let folder = try resources()
    let output = folder.file("Greeter.bundle")
    let run = try BundleKitTool.run([
      "bundle", "create", "Greeter", "--from", folder.file("res"), "-o", output, "--identifier",
      "com.example.greeter", "--version", "2.1", "--build", "9",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let bundle = try #require(Bundle(path: output))
    #expect(bundle.bundleIdentifier == "com.example.greeter")
    #expect(bundle.infoDictionary?["CFBundleShortVersionString"] as? String == "2.1")
    #expect(bundle.infoDictionary?["CFBundlePackageType"] as? String == "BNDL")
    #expect(bundle.path(forResource: "config", ofType: "json", inDirectory: "data") != nil)
    for (language, expected) in [("en", "Hello"), ("fr", "Bonjour"), ("de", "Hallo")] {
      let localized = try #require(
        bundle.path(forResource: language, ofType: "lproj").flatMap(Bundle.init(path:)))
      #expect(localized.localizedString(forKey: "hello", value: nil, table: nil) == expected)
    }
    let french = try #require(
      bundle.path(forResource: "fr", ofType: "lproj").flatMap(Bundle.init(path:)))
    #expect(french.localizedString(forKey: "Quit", value: nil, table: "Menu") == "Quitter")
    #expect(!FileManager.default.fileExists(atPath: output + "/.DS_Store"))
    #expect(!FileManager.default.fileExists(atPath: output + "/Menu.xcstrings"))
    #expect(
      try FileIO.read(output + "/en.lproj/Localizable.strings").starts(with: Array("bplist00".utf8))
    )
  }

  @Test("template placeholders: --set, the environment, XML escaping, missing values refused")
  func template() throws {
    let folder = try resources()
    try FileIO.writeAtomically(
      Array(
        "<plist version=\"1.0\"><dict><key>A</key><string>$(CUSTOM)</string><key>B</key><string>${FROM_ENV}</string><key>C</key><string>$(PRODUCT_NAME:rfc1034identifier)</string></dict></plist>"
          .utf8), to: folder.file("t.plist"))
    let output = folder.file("X.bundle")
    let ok = try Tool.run(
      BundleKitTool.path ?? "bundlekit",
      [
        "bundle", "create", "X", "--from", folder.file("res"), "-o", output, "--template",
        folder.file("t.plist"), "--set", "CUSTOM=a<b&c",
      ], environment: ["FROM_ENV": "env value"])
    #expect(ok.status == 0, "\(ok.stderr)")
    let info = try PropertyListDocument(contentsOfFile: output + "/Info.plist").value
    #expect(info == ["A": "a<b&c", "B": "env value", "C": "X"])
    let missing = try BundleKitTool.run([
      "bundle", "create", "X", "--from", folder.file("res"), "-o", folder.file("Y.bundle"),
      "--template", folder.file("t.plist"),
    ])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("no value for $(CUSTOM), $(FROM_ENV)"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("Y.bundle")))
  }
}

struct ScanTests {
  @Test("a fixture package: matrix, static bundles flagged, Info.plists, assets, JSON")
  func fixture() throws {
    let folder = try TemporaryFolder()
    let files: [String: String] = [
      "Package.swift": "// swift-tools-version: 6.0\n",
      "Sources/App/Resources/en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
      "Sources/App/Resources/fr.lproj/Localizable.strings": "\"a\" = \"A\";\n",
      "Sources/App/Legacy.bundle/en.lproj/Old.strings": "\"x\" = \"y\";\n",
      "Sources/App/Assets.xcassets/Contents.json": "{}",
      "Sources/App/Info.plist":
        "<plist version=\"1.0\"><dict><key>CFBundleShortVersionString</key><string>1.2</string><key>CFBundleVersion</key><string>3</string></dict></plist>",
      "Sources/App/logo.png": "png",
      "Sources/App/main.swift": "print(1)",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let scan = ResourceScan(folder: folder.path, describe: false)
    let app = try #require(scan.targets.first)
    #expect(app.name == "App")
    #expect(app.tables["Localizable"]?["en"] == 2)
    #expect(app.tables["Localizable"]?["fr"] == 1)
    #expect(app.staticBundles == ["Legacy.bundle"])
    #expect(app.assetCatalogs == ["Assets.xcassets"])
    #expect(app.infoPlists.first?.version == "1.2")
    #expect(app.images.first?.path == "logo.png")
    let text = try BundleKitTool.run(["scan", folder.path, "--no-describe"])
    #expect(text.stdout.contains("1 (-1)"))
    #expect(text.stdout.contains("warning: Legacy.bundle is a static bundle"))
    let json = try BundleKitTool.run(["scan", folder.path, "--no-describe", "--format", "json"])
    let value = try PropertyListValue(bytes: Array(json.stdout.utf8), format: .json)
    #expect(value.arrayValue?.first?["tables"]?["Localizable"]?["missing"]?["fr"] == 1)
  }

  @Test("scan compares key sets: one extra and one missing key still shows what is missing")
  func missingKeys() throws {
    let folder = try TemporaryFolder()
    let files = [
      "Sources/App/en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
      "Sources/App/de.lproj/Localizable.strings": "\"a\" = \"A\";\n\"old\" = \"Alt\";\n",
      "Sources/App/main.swift": "print(1)",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let text = try BundleKitTool.run(["scan", folder.path, "--no-describe"])
    #expect(text.stdout.contains("2 (-1)"), "\(text.stdout)")
    let json = try BundleKitTool.run(["scan", folder.path, "--no-describe", "--format", "json"])
    let value = try PropertyListValue(bytes: Array(json.stdout.utf8), format: .json)
    let table = value.arrayValue?.first?["tables"]?["Localizable"]
    #expect(table?["missing"]?["de"] == 1)
    #expect(table?["missingKeys"]?["de"] == ["b"])
    // On a terminal, colours are colours, not escaped text.
    if let script = Tool.path("script"), let tool = BundleKitTool.path {
      let terminal = try Tool.run(
        script, ["-qc", "\(tool) scan \(folder.path) --no-describe", "/dev/null"],
        environment: ["TERM": "xterm", "NO_COLOR": ""])
      let output = String(decoding: terminal.stdout, as: UTF8.self)
      #expect(output.contains("\u{1B}[33m2 (-1)\u{1B}[0m"), "\(output)")
      #expect(!output.contains("\\x1B"))
    }
  }

  @Test(
    "the home-assistant corpus: 35 languages, counts as parsed, fast",
    .enabled(if: Corpus.has("home-assistant-ios"), Corpus.reason("home-assistant-ios"))
  )
  func corpus() throws {
    let start = ContinuousClock.now
    let scan = ResourceScan(folder: Corpus.path("home-assistant-ios"))
    print("scanned the home-assistant corpus in \(ContinuousClock.now - start)")
    let target = try #require(scan.targets.first)
    #expect(Set(target.tables.values.flatMap(\.keys)).count == 35)
    #expect(target.tables["Localizable"]?.count == 34)  // Base.lproj holds only InfoPlist.strings
    let english = try StringsFile(
      contentsOfFile: Corpus.path("home-assistant-ios/en.lproj/Localizable.strings"))
    #expect(target.tables["Localizable"]?["en"] == english.dictionary.count)
  }

  @Test("thousands of files")
  func manyFiles() throws {
    let folder = try TemporaryFolder()
    for index in 0..<3_000 {
      let path = folder.file("Assets/Group\(index % 30)/image\(index).png")
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically([0x89, 0x50], to: path)
    }
    let start = ContinuousClock.now
    let scan = ResourceScan(folder: folder.path, describe: false)
    print("scanned 3,000 files in \(ContinuousClock.now - start)")
    #expect(scan.targets.first?.images.count == 3_000)
  }

  @Test("a tree scans in name order, whatever order its folders list")
  func pathOrder() throws {
    let folder = try TemporaryFolder()
    // Made last to first, with names of every kind: a listing in the order made (tmpfs lists
    // newest first) or by name hash (ext4) is not the paths' order.
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "Ä", "ж"].reversed()
    for name in names {
      for path in [
        "\(name)/Info.plist", "\(name).png", "\(name).json", "\(name).xcassets/Contents.json",
        "\(name).bundle/file.txt",
      ] {
        try FileIO.createFolders(for: folder.file(path))
        try FileIO.writeAtomically(Array("{}".utf8), to: folder.file(path))
      }
    }
    let scan = ResourceScan(folder: folder.path, describe: false)
    let target = try #require(scan.targets.first)
    #expect(target.images.map(\.path) == names.map { "\($0).png" }.sorted())
    #expect(target.otherFiles.map(\.path) == names.map { "\($0).json" }.sorted())
    #expect(target.assetCatalogs == names.map { "\($0).xcassets" }.sorted())
    #expect(target.staticBundles == names.map { "\($0).bundle" }.sorted())
    #expect(target.infoPlists.map(\.path) == names.map { "\($0)/Info.plist" }.sorted())
  }
}
