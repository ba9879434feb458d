import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit strings lint|compile|generate|lookup`, run as a user runs them.
struct StringsCommandTests {
  func write(_ files: [String: String]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    return folder
  }

  let plurals = """
    <plist version="1.0"><dict><key>%d days</key><dict>
    <key>NSStringLocalizedFormatKey</key><string>%#@days@</string>
    <key>days</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
    <key>NSStringFormatValueTypeKey</key><string>d</string>
    <key>one</key><string>%d день</string><key>few</key><string>%d дня</string>
    <key>many</key><string>%d дней</string><key>other</key><string>%d дня</string></dict></dict></dict></plist>
    """

  @Test("lint: compiler-style findings, exit 1 on errors, --strict, JSON")
  func lint() throws {
    let folder = try write([
      "en.lproj/Localizable.strings": "\"a\" = \"A %@\";\n\"b\" = \"B\";\n",
      "fr.lproj/Localizable.strings": "\"a\" = \"A %d\";\n",
    ])
    var run = try BundleKitTool.run(["strings", "lint", folder.path])
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "fr.lproj/Localizable.strings:1:1: error: \"a\" (fr): argument 1 is a 32-bit integer but an object (%@) in the development language"
      ))
    #expect(run.stderr.contains("2 tables checked: 1 error, 1 warning"))
    run = try BundleKitTool.run(["strings", "lint", folder.path, "--format", "json"])
    let report = try PropertyListValue(bytes: Array(run.stdout.utf8), format: .json)
    #expect(report.arrayValue?.count == 2)
    let error = report.arrayValue?.first { $0["severity"] == "error" }
    #expect(error?["line"] == 1)
    #expect(error?["column"] == 1)
    #expect(error?["path"]?.stringValue?.hasSuffix("fr.lproj/Localizable.strings") == true)
    let clean = try write([
      "en.lproj/Localizable.strings": "\"a\" = \"A\";\n",
      "fr.lproj/Localizable.strings": "\"b\" = \"B\";\n",
    ])
    #expect(try BundleKitTool.run(["strings", "lint", clean.path]).status == 0)
    #expect(try BundleKitTool.run(["strings", "lint", clean.path, "--strict"]).status == 1)
  }

  @Test(
    "a placeholder that disagrees builds as Xcode builds it: a warning at its line, never silent, an error when raised"
  )
  func placeholderMismatchInABuild() throws {
    let folder = try write([
      "en.lproj/Localizable.strings": "\"a\" = \"A %@\";\n",
      "fr.lproj/Localizable.strings": "\"a\" = \"A %d\";\n",
      "bundlekit.json": #"{"severities": {"placeholder-mismatch": "error"}}"#,
    ])
    let outputs = try TemporaryFolder()
    let output = outputs.file("out")
    var run = try BundleKitTool.run(["strings", "compile", folder.path, "--output-dir", output])
    #expect(run.status == 0)
    #expect(FileIO.exists(output + "/fr.lproj/Localizable.strings"))
    #expect(run.stderr.contains("1 warning (placeholder-mismatch 1): --warnings lists them"))
    run = try BundleKitTool.run([
      "strings", "compile", folder.path, "--output-dir", output, "--warnings",
    ])
    #expect(run.status == 0)
    #expect(run.stderr.contains("fr.lproj/Localizable.strings:1:1: warning: \"a\" (fr)"))
    // What the CompileStrings plugin runs in an Xcode target: the same verdict as compiling.
    run = try BundleKitTool.run(["strings", "lint", folder.path, "--as-build"])
    #expect(run.status == 0)
    #expect(run.stderr.contains("fr.lproj/Localizable.strings:1:1: warning:"))
    #expect(try BundleKitTool.run(["strings", "lint", folder.path]).status == 1)
    // Raised by the user's configuration: the build stops at the line, nothing written.
    let raised = outputs.file("raised")
    let config = folder.file("bundlekit.json")
    for arguments in [
      ["strings", "compile", folder.path, "--output-dir", raised, "--config", config],
      ["strings", "lint", folder.path, "--as-build", "--config", config],
    ] {
      run = try BundleKitTool.run(arguments)
      #expect(run.status == 1, "\(arguments)")
      #expect(run.stderr.contains("fr.lproj/Localizable.strings:1:1: error: \"a\" (fr)"))
    }
    #expect(!FileIO.exists(raised))
  }

  @Test("compile then lookup: plurals, fallbacks, LANG")
  func compileAndLookup() throws {
    let folder = try write([
      "en.lproj/Localizable.strings": "\"hello\" = \"Hello, %@\";\n",
      "ru.lproj/Localizable.strings": "\"hello\" = \"Привет, %@\";\n",
      "ru.lproj/Localizable.stringsdict": plurals,
    ])
    let output = try TemporaryFolder()
    let compile = try BundleKitTool.run([
      "strings", "compile", folder.path, "--output-dir", output.path, "--verbose",
    ])
    #expect(compile.status == 0, "\(compile.stderr)")
    #expect(compile.stdout.split(separator: "\n").count == 3)
    func lookup(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
      let result = try Tool.run(
        BundleKitTool.path ?? "bundlekit",
        ["strings", "lookup"] + arguments + ["--in", output.path],
        environment: ["LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""].merging(environment) { $1 })
      return String(decoding: result.stdout, as: UTF8.self)
    }
    #expect(try lookup(["%d days", "--language", "ru", "1"]) == "1 день\n")
    #expect(try lookup(["%d days", "--language", "ru", "3"]) == "3 дня\n")
    #expect(try lookup(["%d days", "--language", "ru", "11"]) == "11 дней\n")
    #expect(try lookup(["%d days", "--language", "ru", "1.5"]) == "1 дня\n")
    #expect(try lookup(["hello", "Ada"], environment: ["LANG": "ru_RU.UTF-8"]) == "Привет, Ada\n")
    #expect(try lookup(["hello", "Ada"], environment: ["LANG": "de_DE.UTF-8"]) == "Hello, Ada\n")
    // A key no table has, or too few arguments: an error, exit 1, nothing on stdout.
    let missing = try BundleKitTool.run([
      "strings", "lookup", "missing.key", "--language", "ru", "--in", output.path,
    ])
    #expect(missing.status == 1)
    #expect(missing.stdout.isEmpty)
    #expect(
      missing.stderr.contains("\"missing.key\": no Localizable table of ru, en has it"),
      "\(missing.stderr)")
    let short = try BundleKitTool.run([
      "strings", "lookup", "hello", "--language", "en", "--in", output.path,
    ])
    #expect(short.status == 1)
    #expect(short.stderr.contains("\"Hello, %@\" takes 1 argument, 0 given"), "\(short.stderr)")
  }

  @Test("A table large enough for the restart with a tuned heap compiles to what Foundation reads")
  func largeTable() throws {
    var text = ""
    for index in 0..<150_000 {
      text += "\"item.\(index).title\" = \"Value for item \(index), à traduire\";\n"
    }
    #expect(text.utf8.count > 8 << 20)
    let folder = try write(["en.lproj/Large.strings": text])
    let output = try TemporaryFolder()
    let run = try BundleKitTool.run([
      "strings", "compile", folder.path, "--output-dir", output.path, "--verbose",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == output.file("en.lproj/Large.strings") + "\n")
    let data = try Data(contentsOf: URL(fileURLWithPath: output.file("en.lproj/Large.strings")))
    let table = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String])
    #expect(table.count == 150_000)
    #expect(table["item.149999.title"] == "Value for item 149999, à traduire")
  }

  @Test("compile refuses broken tables and writes nothing; generate writes accessors")
  func compileErrorsAndGenerate() throws {
    let broken = try write(["en.lproj/Bad.strings": "\"a\" = \"b\"\n"])
    let output = try TemporaryFolder()
    let run = try BundleKitTool.run([
      "strings", "compile", broken.path, "--output-dir", output.path,
    ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("Bad.strings:2:1: error: expected ';'"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    let tables = try write([
      "en.lproj/Localizable.strings": "\"home.title\" = \"Home\";\n\"count\" = \"%d items\";\n"
    ])
    let swift = output.file("Strings.swift")
    let generate = try BundleKitTool.run([
      "strings", "generate", tables.path, "-o", swift, "--public",
    ])
    #expect(generate.status == 0, "\(generate.stderr)")
    let code = try String(contentsOfFile: swift, encoding: .utf8)
    #expect(code.contains("public static func count(_ p1: Int, language: String? = nil) -> String"))
    #expect(code.contains("public enum Home {"))
  }

  @Test(
    "translate --help works from the bundlekit the quick start builds, and says how to get the helper"
  )
  func translateHelp() throws {
    let help = try BundleKitTool.run(["translate", "--help"])
    #expect(help.status == 0, "\(help.stderr)")
    #expect(help.stdout.contains("index") && help.stdout.contains("serve"))
    // Without the helper: a copy of bundlekit alone in a folder, whatever the build folder
    // holds (the test command builds the helpers beside it).
    let alone = try Self.bundleKitAlone()
    let lone = try Tool.run(alone.file("bundlekit"), ["translate", "--help"])
    #expect(lone.status == 0, "\(lone.stderr)")
    #expect(String(decoding: lone.stdout, as: UTF8.self).contains("index"))
    #expect(
      String(decoding: lone.stdout, as: UTF8.self).contains(
        "`make install` installs it beside bundlekit"))
    let run = try Tool.run(alone.file("bundlekit"), ["translate", "index", "x", "-o", "y"])
    #expect(run.status == 1)
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("--package-path Packages/BundleKitTranslate"), "\(run.stderr)")
  }

  /// A folder holding a copy of `bundlekit` and nothing else: no helper beside it.
  static func bundleKitAlone() throws -> TemporaryFolder {
    try #require(BundleKitTool.path != nil)
    let folder = try TemporaryFolder()
    try BundleKitTool.copy(to: folder.file("bundlekit"))
    return folder
  }

  @Test("strings extract and sync --help work without bundlekit-localize; a run says how to get it")
  func localizeHelp() throws {
    let alone = try Self.bundleKitAlone()
    for verb in ["extract", "sync"] {
      let help = try BundleKitTool.run(["strings", verb, "--help"])
      #expect(help.status == 0, "\(help.stderr)")
      #expect(help.stdout.contains("USAGE: bundlekit strings \(verb)"))
      // Without the helper beside it, whatever the build folder holds.
      let lone = try Tool.run(alone.file("bundlekit"), ["strings", verb, "--help"])
      let text = String(decoding: lone.stdout, as: UTF8.self)
      #expect(lone.status == 0, "\(lone.stderr)")
      #expect(text.contains("USAGE: bundlekit strings \(verb)"))
      #expect(text.contains("`make install` installs it beside bundlekit"), "\(text)")
      let run = try Tool.run(alone.file("bundlekit"), ["strings", verb, "."])
      #expect(run.status == 1)
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(run.stderr.contains("--package-path Packages/BundleKitLocalize"), "\(run.stderr)")
    }
  }

  @Test("archive create --compile-strings takes localized tables file by file, as Xcode lists them")
  func localizedFilesOneByOne() throws {
    let folder = try TemporaryFolder()
    let files = [
      "Res/en.lproj/Localizable.strings": "\"a\" = \"A\";\n",
      "Res/de.lproj/Localizable.strings": "\"a\" = \"B\";\n",
      "Res/Cat.xcstrings":
        "{\"sourceLanguage\":\"en\",\"strings\":{\"k\":{\"localizations\":{\"de\":{\"stringUnit\":{\"state\":\"translated\",\"value\":\"K\"}}}}},\"version\":\"1.0\"}",
      "A/Info.plist": "1", "B/Info.plist": "2",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let archive = folder.file("out.tar.gz")
    let run = try BundleKitTool.run([
      "archive", "create", folder.file("Res/en.lproj/Localizable.strings"),
      folder.file("Res/de.lproj/Localizable.strings"), folder.file("Res/Cat.xcstrings"), "-o",
      archive, "--compile-strings",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let list = try BundleKitTool.run(["archive", "list", archive, "--format", "json"])
    let names =
      (try PropertyListValue(bytes: Array(list.stdout.utf8), format: .json).arrayValue ?? [])
      .compactMap { $0["name"]?.stringValue }
    #expect(
      Set(names).isSuperset(of: [
        "en.lproj/Localizable.strings", "de.lproj/Localizable.strings", "de.lproj/Cat.strings",
      ]), "\(names)")
    // Two inputs of one name outside .lproj folders: a clear error, not Foundation's.
    let clash = try BundleKitTool.run([
      "archive", "create", folder.file("A/Info.plist"), folder.file("B/Info.plist"), "-o",
      folder.file("clash.tar.gz"), "--compile-strings",
    ])
    #expect(clash.status == 1)
    #expect(clash.stderr.contains("has the name Info.plist, as"), "\(clash.stderr)")
    #expect(!clash.stderr.contains("NSCocoaErrorDomain"))
  }
}
