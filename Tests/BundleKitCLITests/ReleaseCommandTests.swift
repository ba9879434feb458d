import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit release` on a copy of Examples/DemoApp: every output checked, with bsdtar,
/// Python's tarfile and plistlib, and sha256sum as independent readers.
@Suite(.serialized)
struct ReleaseCommandTests {
  static let demo = Corpus.packageRoot.appendingPathComponent("Examples/DemoApp").path

  /// A copy of the demo that depends on this checkout by absolute path, without build output.
  func makeDemo() throws -> (folder: TemporaryFolder, package: String) {
    let folder = try TemporaryFolder()
    let package = folder.file("DemoApp")
    try FileManager.default.copyItem(atPath: Self.demo, toPath: package)
    for leftover in ["/.build", "/dist", "/Package.resolved"] {
      try? FileManager.default.removeItem(atPath: package + leftover)
    }
    let manifest = package + "/Package.swift"
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
      .replacingOccurrences(of: "path: \"../..\"", with: "path: \"\(Corpus.packageRoot.path)\"")
    try text.write(toFile: manifest, atomically: true, encoding: .utf8)
    return (folder, package)
  }

  /// Every file under `folder` (build output aside) with its bytes.
  func snapshot(_ folder: String) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    let walker = FileManager.default.enumerator(atPath: folder)
    while let relative = walker?.nextObject() as? String {
      if relative.hasPrefix(".build") || relative == "Package.resolved" { continue }
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        result[relative] = try FileIO.read(folder + "/" + relative)
      }
    }
    return result
  }

  @Test("dry run changes nothing; the run bumps, archives and reports; archives are reproducible")
  func chain() throws {
    let (folder, package) = try makeDemo()
    _ = folder
    let before = try snapshot(package)
    let dry = try BundleKitTool.run(["release", package, "--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("bumped:   CFBundleVersion 45 -> 46"))
    #expect(dry.stdout.contains("would write: \(package)/dist/DemoApp-2.3.1-46.tar.gz"))
    #expect(try snapshot(package) == before, "a dry run changed files")

    let run = try BundleKitTool.run(["release", package, "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try PropertyListValue(bytes: Array(run.stdout.utf8), format: .json)
    #expect(report["checked"]?["tables"] == 14)
    #expect(report["checked"]?["errors"] == 0)
    #expect(report["compiled"] == 21)
    let bumped = (report["bumped"]?.arrayValue ?? []).map {
      "\($0["old"]?.stringValue ?? "") -> \($0["new"]?.stringValue ?? "")"
    }
    #expect(bumped.sorted() == ["12 -> 13", "45 -> 46"])
    // Only the build numbers changed in the Info.plists, byte for byte elsewhere.
    let after = try snapshot(package)
    for (path, bytes) in before {
      let now = after[path] ?? []
      if path.hasSuffix("Info.plist") {
        let old = String(decoding: bytes, as: UTF8.self)
        let expected =
          old
          .replacingOccurrences(of: "<string>45</string>", with: "<string>46</string>")
          .replacingOccurrences(of: "<string>12</string>", with: "<string>13</string>")
        #expect(String(decoding: now, as: UTF8.self) == expected, "\(path)")
      } else {
        #expect(now == bytes, "\(path) changed")
      }
    }
    // The archives: names with version and build, sizes and SHA-256 as reported.
    let archives = report["archives"]?.arrayValue ?? []
    #expect(
      archives.compactMap { $0["path"]?.stringValue }
        == ["\(package)/dist/DemoApp-2.3.1-46.tar.gz", "\(package)/dist/DemoKit-1.4.0-13.tar.gz"])
    for archive in archives {
      guard let path = archive["path"]?.stringValue else { continue }
      let bytes = try FileIO.read(path)
      #expect(archive["size"] == .int(Int64(bytes.count)))
      if let sha256sum = Tool.path("sha256sum") {
        let sum = String(decoding: try Tool.run(sha256sum, [path]).stdout, as: UTF8.self)
        #expect(sum.hasPrefix((archive["sha256"]?.stringValue ?? "-") + " "))
      }
    }
    // Read back by Python: compiled tables are binary plists with the translations, the
    // catalog became per-language tables, DemoKit carries its static bundle, and the files
    // the manifest excludes (Embedded/) are not packaged.
    if let python = Tool.path("python3") {
      let script = """
        import plistlib, sys, tarfile
        app = tarfile.open(sys.argv[1]); kit = tarfile.open(sys.argv[2])
        names = sorted(app.getnames())
        fr = app.extractfile("Resources/fr.lproj/Localizable.strings").read()
        ru = app.extractfile("Resources/ru.lproj/Menu.strings").read()
        plurals = plistlib.loads(app.extractfile("Resources/ru.lproj/Localizable.stringsdict").read())
        print(fr[:8].decode(), plistlib.loads(fr)["greeting"], plistlib.loads(ru)["Settings"])
        print(plurals["%d files"]["files"]["few"])
        print(any(n.startswith("Embedded") for n in names), any(n.endswith(".xcstrings") for n in names))
        print(sorted(n for n in kit.getnames() if n.endswith(".strings")))
        print(set(m.mtime for m in app.getmembers()), set(m.uid for m in app.getmembers()))
        """
      let result = try Tool.run(
        python,
        [
          "-c", script, "\(package)/dist/DemoApp-2.3.1-46.tar.gz",
          "\(package)/dist/DemoKit-1.4.0-13.tar.gz",
        ])
      #expect(
        String(decoding: result.stdout, as: UTF8.self) == """
          bplist00 Bonjour Настройки
          %d файла
          False False
          ['Legacy.bundle/en.lproj/Legacy.strings', 'Resources/de.lproj/Messages.strings', 'Resources/en.lproj/Messages.strings', 'Resources/fr.lproj/Messages.strings', 'Resources/ru.lproj/Messages.strings']
          {315532800} {0}

          """, "\(result.stderr)")
    }
    if let bsdtar = Tool.path("bsdtar") {
      let listed = try Tool.run(bsdtar, ["-tf", "\(package)/dist/DemoKit-1.4.0-13.tar.gz"])
      #expect(
        String(decoding: listed.stdout, as: UTF8.self).contains(
          "Legacy.bundle/en.lproj/Legacy.strings"))
    }
    // Reproducible: releasing again without a bump gives the same bytes.
    let first = try FileIO.read("\(package)/dist/DemoKit-1.4.0-13.tar.gz")
    try FileManager.default.removeItem(atPath: "\(package)/dist")
    let again = try BundleKitTool.run(["release", package, "--bump", "none"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("bumped:   nothing"))
    #expect(try FileIO.read("\(package)/dist/DemoKit-1.4.0-13.tar.gz") == first)
    // A version bump raises the version and keeps the build number.
    let patch = try BundleKitTool.run(["release", package, "--bump", "patch"])
    #expect(patch.stdout.contains("bumped:   CFBundleShortVersionString 1.4.0 -> 1.4.1"))
    #expect(!patch.stdout.contains("bumped:   CFBundleVersion"))
    #expect(FileManager.default.fileExists(atPath: "\(package)/dist/DemoKit-1.4.1-13.tar.gz"))
  }

  @Test("--prune-below leaves an under-translated language out of the archives, and says so")
  func pruneBelow() throws {
    let (folder, package) = try makeDemo()
    // Italian begun but nothing translated yet.
    let italian = package + "/Sources/DemoKit/Resources/it.lproj/Messages.strings"
    try FileIO.createFolders(for: italian)
    try FileIO.writeAtomically(Array("/* Italian: to do */\n".utf8), to: italian)
    let python = try #require(Tool.path("python3"))
    let names = """
      import glob, sys, tarfile
      for path in sorted(glob.glob(sys.argv[1] + "/dist/*.tar.gz")):
          for name in tarfile.open(path).getnames():
              if ".lproj" in name: print(name.split("/")[-2] if name.endswith("strings") else name)
      """
    let kept = try BundleKitTool.run([
      "release", package, "--bump", "none", "--output", package + "/dist",
    ])
    #expect(kept.status == 0, "\(kept.stderr)")
    let all = String(decoding: try Tool.run(python, ["-c", names, package]).stdout, as: UTF8.self)
    #expect(all.contains("it.lproj"))
    try FileManager.default.removeItem(atPath: package + "/dist")

    let pruned = try BundleKitTool.run([
      "release", package, "--bump", "none", "--prune-below", "0.7",
    ])
    #expect(pruned.status == 0, "\(pruned.stderr)")
    #expect(
      pruned.stdout.contains("pruned:   it from DemoKit (0.0% translated)"), "\(pruned.stdout)")
    let listed = String(
      decoding: try Tool.run(python, ["-c", names, package]).stdout, as: UTF8.self)
    #expect(!listed.contains("it.lproj"))
    #expect(listed.contains("fr.lproj") && listed.contains("de.lproj"))
    // The sources keep Italian: only the archive leaves it out.
    #expect(FileManager.default.fileExists(atPath: italian))
    // Staging compiles with the release's development language: measured against Italian
    // (no keys yet), no language is under the line, so Italian stays in the archive.
    try FileManager.default.removeItem(atPath: package + "/dist")
    let italianFirst = try BundleKitTool.run([
      "release", package, "--bump", "none", "--prune-below", "0.7",
      "--development-language", "it",
    ])
    #expect(italianFirst.status == 0, "\(italianFirst.stderr)")
    #expect(!italianFirst.stdout.contains("pruned:"), "\(italianFirst.stdout)")
    let italianKept = String(
      decoding: try Tool.run(python, ["-c", names, package]).stdout, as: UTF8.self)
    #expect(italianKept.contains("it.lproj"), "\(italianKept)")
    // strings compile by the same rule.
    let out = folder.file("compiled")
    let compile = try BundleKitTool.run([
      "strings", "compile", package + "/Sources/DemoKit/Resources", "--output-dir", out,
      "--prune-below", "0.7",
    ])
    #expect(compile.status == 0, "\(compile.stderr)")
    #expect(compile.stderr.contains("note: it left out: 0.0% translated, under --prune-below 0.7"))
    #expect(!FileManager.default.fileExists(atPath: out + "/it.lproj"))
    #expect(FileManager.default.fileExists(atPath: out + "/fr.lproj/Messages.strings"))
  }

  @Test("a broken table or an unwritable output stops the release; no file changes")
  func brokenTable() throws {
    let (folder, package) = try makeDemo()
    _ = folder
    let table = package + "/Sources/DemoKit/Resources/fr.lproj/Messages.strings"
    try FileIO.writeAtomically(
      Array("\"download.done\" = \"Terminé\"\n\"x\" = \"y\";\n".utf8), to: table)
    let before = try snapshot(package)
    let run = try BundleKitTool.run(["release", package, "--bump", "minor"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("fr.lproj/Messages.strings:2:1: error:"), "\(run.stderr)")
    #expect(run.stderr.contains("release stopped"))
    #expect(try snapshot(package) == before)
    #expect(!FileManager.default.fileExists(atPath: package + "/dist"))
    // Archives that cannot be written: the run fails before any Info.plist changes.
    try FileIO.writeAtomically(
      Array("\"download.done\" = \"Terminé\";\n".utf8), to: table)
    let fixed = try snapshot(package)
    let unwritable = try BundleKitTool.run(["release", package, "--output", "/proc/bundlekit-dist"])
    #expect(unwritable.status == 1)
    #expect(unwritable.stderr.contains("/proc/bundlekit-dist"), "\(unwritable.stderr)")
    #expect(try snapshot(package) == fixed)
    let missing = try BundleKitTool.run(["release", folder.file("nowhere")])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("it has no Package.swift"))
  }
}

/// A target whose resources SwiftPM did not list is searched by the tool itself: links are
/// entries, never folders to go into, so a link loop ends the walk instead of growing it.
@Suite struct ReleaseLinkLoopTests {
  @Test("release on a target with link loops and no declared resources ends, archiving its files")
  func linkLoops() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built")
    let folder = try TemporaryFolder()
    let app = folder.file("Sources/App")
    try FileManager.default.createDirectory(
      atPath: app + "/Assets/ü", withIntermediateDirectories: true)
    try Data(
      "// swift-tools-version: 6.1\nimport PackageDescription\nlet package = Package(name: \"L\")\n"
        .utf8
    )
    .write(to: URL(fileURLWithPath: folder.file("Package.swift")))
    try Data("print(1)\n".utf8).write(to: URL(fileURLWithPath: app + "/main.swift"))
    try Data("x\n".utf8).write(to: URL(fileURLWithPath: app + "/Assets/ü/日本.txt"))
    for name in ["a", "b"] {
      try FileManager.default.createSymbolicLink(atPath: app + "/" + name, withDestinationPath: ".")
    }
    let targets = folder.file("targets.json")
    try Data(#"[{"name": "App", "path": "\#(app)"}]"#.utf8)
      .write(to: URL(fileURLWithPath: targets))
    // Two links to their own folder made the old search branch twice per level, for ever.
    let run = try Tool.run(
      Tool.path("timeout") ?? "/usr/bin/timeout",
      ["60", tool, "release", folder.path, "--targets", targets, "--bump", "none"])
    #expect(run.status == 0, "exit \(run.status) (124: timed out): \(run.stderr)")
    let listing = try BundleKitTool.run(["archive", "list", folder.file("dist/App.tar.gz")])
    #expect(listing.stdout.contains("Assets/ü/日本.txt"), "\(listing.stdout)")
    #expect(!listing.stdout.contains("main.swift"), "\(listing.stdout)")
  }
}
