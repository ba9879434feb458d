import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// The CompileStrings plugin in a real package: `swift build` compiles its tables, the
/// executable prints the right translations, and a broken table fails the build with a
/// compiler-style diagnostic.
@Suite(.serialized, .enabled(if: Tool.path("swift") != nil, "swift is not on PATH"))
struct PluginTests {
  static let fixture = Corpus.packageRoot.appendingPathComponent("Examples/DemoApp")
    .path

  /// A copy of the demo package that depends on this checkout by absolute path.
  func makePackage() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let copy = folder.file("DemoApp")
    try FileManager.default.copyItem(atPath: Self.fixture, toPath: copy)
    try? FileManager.default.removeItem(atPath: copy + "/.build")
    let manifest = copy + "/Package.swift"
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
      .replacingOccurrences(of: "path: \"../..\"", with: "path: \"\(Corpus.packageRoot.path)\"")
    try text.write(toFile: manifest, atomically: true, encoding: .utf8)
    return folder
  }

  static let logoSize = 65_536

  /// The checksum the fixture prints, computed from the file itself.
  static func logoChecksum() throws -> UInt32 {
    try FileIO.read(fixture + "/Sources/DemoApp/Embedded/logo.bin").reduce(UInt32(0)) {
      $0 &* 31 &+ UInt32($1)
    }
  }

  /// `swift COMMAND ARGUMENTS` on the copy at `package`, in the tests' scratch folder, stopped
  /// after 600 s (exit 124): a plugin that hangs fails the test instead of holding CI.
  func swift(_ command: String, _ package: String, _ arguments: [String] = []) throws
    -> Tool.Result
  {
    try ConsumerPackage(path: package).swift(command, arguments)
  }

  @Test("a user of the plugins resolves no web server, networking or database")
  func leanResolution() throws {
    let folder = try makePackage()
    let package = folder.file("DemoApp")
    let run = try swift("package", package, ["show-dependencies", "--format", "json"])
    try #require(run.status == 0, "\(run.stderr)")
    let tree = try JSONSerialization.jsonObject(with: run.stdout)
    var names: Set<String> = []
    func collect(_ node: Any) {
      guard let node = node as? [String: Any] else { return }
      if let identity = node["identity"] as? String { names.insert(identity.lowercased()) }
      for child in node["dependencies"] as? [Any] ?? [] { collect(child) }
    }
    collect(tree)
    // A package given by path is named after its folder.
    let bundleKit = Corpus.packageRoot.lastPathComponent.lowercased()
    #expect(names.contains(bundleKit), "\(names.sorted())")
    for heavy in [
      "hummingbird", "swift-nio", "grdb.swift", "swift-nio-extras", "async-http-client",
    ] {
      #expect(!names.contains(heavy), "\(heavy) is in a plugin user's graph: \(names.sorted())")
    }
    // What it does resolve: BundleKit and the tool's own four dependencies (Yams reads
    // XcodeGen specs as XcodeGen does), and theirs.
    #expect(
      names.isSubset(of: [
        "demoapp", bundleKit, "swift-argument-parser", "swift-collections", "swift-mustache",
        "yams",
      ]), "\(names.sorted())")
  }

  @Test("tables reach the bundle compiled; three languages print right; lint errors fail the build")
  func endToEnd() throws {
    let folder = try makePackage()
    let package = folder.file("DemoApp")
    let build = try swift("build", package)
    let log = String(decoding: build.stdout, as: UTF8.self) + build.stderr
    try #require(build.status == 0, "swift build failed:\n\(log)")
    #expect(log.contains("Compiling strings tables of DemoApp"))
    #expect(log.contains("Generating string accessors for DemoApp"))
    // The generated accessors compile without a warning in Swift 6 mode.
    let generatedWarnings = log.split(separator: "\n").filter {
      $0.contains("Strings+Generated.swift") && ($0.contains("warning:") || $0.contains("error:"))
    }
    #expect(generatedWarnings.isEmpty, "\(generatedWarnings)")
    let run = try Tool.run(
      ConsumerPackage(path: package).products + "/DemoApp", [],
      environment: ["LANG": "en_US.UTF-8", "LC_ALL": "", "LANGUAGE": ""])
    let output = String(decoding: run.stdout, as: UTF8.self)
    #expect(
      output
        == """
        en: Hello | Settings | 0 files, 1 file, 2 files, 5 files | compiled: true
        fr: Bonjour | Réglages | 0 fichier, 1 fichier, 2 fichiers, 5 fichiers | compiled: true
        de: Hallo | Einstellungen | 0 Dateien, 1 Datei, 2 Dateien, 5 Dateien | compiled: true
        ru: Привет | Настройки | 0 файлов, 1 файл, 2 файла, 5 файлов | compiled: true
        en typed: 1 file, 2 files, 5 files, 21 files
        fr typed: 1 fichier, 2 fichiers, 5 fichiers, 21 fichiers
        de typed: 1 Datei, 2 Dateien, 5 Dateien, 21 Dateien
        ru typed: 1 файл, 2 файла, 5 файлов, 21 файл
        environment: Hello | 3 files | Settings
        en DemoKit: Download finished
        fr DemoKit: Téléchargement terminé
        de DemoKit: Download abgeschlossen
        ru DemoKit: Загрузка завершена
        build: 2.3.1 (45), built \(BuildInfoDate.pattern)
        embedded: \(Self.logoSize) bytes, checksum \(try Self.logoChecksum()), css body { color: #333; }

        """.replacingOccurrences(of: BuildInfoDate.pattern, with: output.buildDate))
    // The language chosen through the environment.
    for (lang, expected) in [
      ("ru_RU.UTF-8", "environment: Привет | 3 файла | Настройки"),
      ("fr_FR.UTF-8", "environment: Bonjour | 3 fichiers | Réglages"),
      ("de_DE.UTF-8", "environment: Hallo | 3 Dateien | Einstellungen"),
    ] {
      let localized = try Tool.run(
        ConsumerPackage(path: package).products + "/DemoApp", [],
        environment: ["LANG": lang, "LC_ALL": "", "LANGUAGE": ""])
      #expect(
        String(decoding: localized.stdout, as: UTF8.self).contains(expected + "\n"), "\(lang)")
    }
    // The command plugins bump the Info.plist; BuildInfo follows on the next build.
    let bump = try swift(
      "package", package,
      ["--allow-writing-to-package-directory", "bump-build-number", "--target", "DemoApp"])
    #expect(bump.status == 0, "\(bump.stderr)")
    let version = try swift(
      "package", package, ["--allow-writing-to-package-directory", "bump-version", "minor"])
    #expect(version.status == 0, "\(version.stderr)")
    let info = try PropertyListDocument(contentsOfFile: package + "/Sources/DemoApp/Info.plist")
      .value
    #expect(info["CFBundleVersion"] == "46")
    #expect(info["CFBundleShortVersionString"] == "2.4.0")
    #expect(try swift("build", package).status == 0)
    let rebuilt = String(
      decoding: try Tool.run(ConsumerPackage(path: package).products + "/DemoApp", []).stdout,
      as: UTF8.self)
    #expect(rebuilt.contains("build: 2.4.0 (46), built "))
    // package-resources: an archive per target, named with its version, strings compiled.
    let packaged = try swift(
      "package", package, ["--allow-writing-to-package-directory", "package-resources"])
    #expect(packaged.status == 0, "\(packaged.stderr)")
    let archive = package + "/dist/DemoApp-2.4.0-46.tar.gz"
    let entries = try Tool.run(
      BundleKitTool.path ?? "bundlekit", ["archive", "list", archive, "--format", "json"])
    let names =
      (try PropertyListValue(bytes: Array(entries.stdout), format: .json).arrayValue ?? [])
      .compactMap { $0["name"]?.stringValue }
    #expect(names.contains("Resources/ru.lproj/Localizable.stringsdict"))
    #expect(names.contains("Resources/fr.lproj/Menu.strings"))
    #expect(!names.contains { $0.hasSuffix(".xcstrings") })
    // release and scan-resources through `swift package`, bounded: the tool is handed the
    // targets and never calls SwiftPM back (which waited forever for the lock).
    for command in [["release", "--dry-run"], ["scan-resources"]] {
      let run = try swift(
        "package", package, ["--allow-writing-to-package-directory"] + command)
      #expect(run.status == 0, "\(command): exit \(run.status) (124: timed out); \(run.stderr)")
      let output = String(decoding: run.stdout, as: UTF8.self)
      #expect(
        output.contains(command[0] == "release" ? "would write:" : "Localizable"), "\(output)")
    }
    // A syntax error in a table stops the build, pointing at the line.
    let table = package + "/Sources/DemoApp/Resources/fr.lproj/Localizable.strings"
    try FileIO.writeAtomically(
      Array("\"greeting\" = \"Bonjour\"\n\"other\" = \"x\";\n".utf8), to: table)
    let broken = try swift("build", package)
    let brokenLog = String(decoding: broken.stdout, as: UTF8.self) + broken.stderr
    #expect(broken.status != 0)
    #expect(
      brokenLog.contains(
        "fr.lproj/Localizable.strings:2:1: error: expected ';' after the value of \"greeting\""),
      "\(brokenLog)")
  }
}

enum BuildInfoDate {
  static let pattern = "<date>"
}

extension String {
  /// The ISO 8601 date after "built " on the BuildInfo line.
  var buildDate: String {
    guard let range = range(of: "), built ") else { return "" }
    return String(self[range.upperBound...].prefix(20))
  }
}
