import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit --config bundlekit.json`: the file's settings stand in for options the command
/// line does not give, the command line wins, and a bad file is an error at its line that
/// stops the command before it writes anything.
@Suite struct ConfigurationTests {
  /// A folder with an English table of two keys and a French one of one.
  func tables() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let files = [
      "Resources/en.lproj/Messages.strings": "\"a\" = \"A\";\n\"b\" = \"B %@\";\n",
      "Resources/fr.lproj/Messages.strings": "\"a\" = \"Af\";\n",
    ]
    for (path, text) in files {
      try FileManager.default.createDirectory(
        atPath: (folder.file(path) as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder.file(path)))
    }
    return folder
  }

  func write(_ text: String, _ path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  @Test("severities, warningsAsErrors and developmentLanguage come from the file; flags win")
  func lintSettings() throws {
    let folder = try tables()
    let config = folder.file("bundlekit.json")
    // Without a configuration French's missing key is a warning: exit 0.
    #expect(try BundleKitTool.run(["strings", "lint", folder.path]).status == 0)
    try write(#"{ "severities": { "missing-translation": "error" } }"#, config)
    for arguments in [
      ["strings", "lint", folder.path, "--config", config],
      ["--config", config, "strings", "lint", folder.path],
    ] {
      let run = try BundleKitTool.run(arguments)
      #expect(run.status == 1, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("error: "), "\(run.stderr)")
      #expect(run.stderr.contains("[missing-translation]"), "\(run.stderr)")
    }
    // The command line's severity comes after the file's.
    let lowered = try BundleKitTool.run([
      "strings", "lint", folder.path, "--config", config, "--severity",
      "missing-translation=ignore",
    ])
    #expect(lowered.status == 0, "\(lowered.stderr)")
    try write(#"{ "warningsAsErrors": true }"#, config)
    #expect(
      try BundleKitTool.run(["strings", "lint", folder.path, "--config", config]).status == 1)
    // French as the development language: English has a key French lacks, an extra key.
    try write(#"{ "developmentLanguage": "fr" }"#, config)
    let french = try BundleKitTool.run([
      "strings", "lint", folder.path, "--config", config, "--format", "json",
    ])
    #expect(french.stdout.contains("extra-key"), "\(french.stdout)")
    let english = try BundleKitTool.run([
      "strings", "lint", folder.path, "--config", config, "--development-language", "en",
      "--format", "json",
    ])
    #expect(!english.stdout.contains("extra-key"), "\(english.stdout)")
    #expect(english.stdout.contains("missing-translation"), "\(english.stdout)")
  }

  @Test("pruneBelow from the file leaves a language out of compile; --prune-below 0 keeps it")
  func compilePrune() throws {
    let folder = try tables()
    let config = folder.file("bundlekit.json")
    try write(#"{ "pruneBelow": 0.7 }"#, config)
    let pruned = try BundleKitTool.run([
      "--config", config, "strings", "compile", folder.file("Resources"), "--output-dir",
      folder.file("out"),
    ])
    #expect(pruned.status == 0, "\(pruned.stderr)")
    #expect(pruned.stderr.contains("fr left out: 50.0% translated"), "\(pruned.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("out/fr.lproj")))
    let kept = try BundleKitTool.run([
      "--config", config, "strings", "compile", folder.file("Resources"), "--output-dir",
      folder.file("kept"), "--prune-below", "0",
    ])
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.file("kept/fr.lproj/Messages.strings")))
  }

  @Test("enumName, accessLevel and a template relative to the file shape the accessors")
  func generateSettings() throws {
    let folder = try tables()
    let config = folder.file("config/bundlekit.json")
    try FileManager.default.createDirectory(
      atPath: folder.file("config"), withIntermediateDirectories: true)
    try write(#"{ "enumName": "Texts", "accessLevel": "public" }"#, config)
    let output = folder.file("Strings.swift")
    let run = try BundleKitTool.run([
      "strings", "generate", folder.file("Resources"), "-o", output, "--config", config,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let code = try String(contentsOfFile: output, encoding: .utf8)
    #expect(code.contains("public enum Texts"), "\(code.prefix(600))")
    // The command line's enum name wins.
    let named = try BundleKitTool.run([
      "strings", "generate", folder.file("Resources"), "-o", output, "--config", config,
      "--enum-name", "L",
    ])
    #expect(named.status == 0, "\(named.stderr)")
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains("public enum L "))
    // A template path is read from the configuration's folder.
    try write("// keys: {{#tables}}{{name}} {{/tables}}\n", folder.file("config/mine.mustache"))
    try write(#"{ "template": "mine.mustache" }"#, config)
    let templated = try BundleKitTool.run([
      "strings", "generate", folder.file("Resources"), "-o", output, "--config", config,
    ])
    #expect(templated.status == 0, "\(templated.stderr)")
    #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("// keys:"))
  }

  @Test("a bad file is an error at its line, and nothing is written; a misspelt key too")
  func badFiles() throws {
    let folder = try tables()
    let config = folder.file("bundlekit.json")
    let cases: [(text: String, expected: String)] = [
      ("{\n  \"pruneBelow\": 0.7,\n", "bundlekit.json:1:1: error: "),
      (
        "{\n  \"pruneBelow\": \"most\"\n}",
        "bundlekit.json:2:3: error: 'pruneBelow' must be a number"
      ),
      ("{\n  \"severities\": { \"nope\": \"error\" }\n}", "bundlekit.json: error: severities: "),
      ("[1]", "bundlekit.json:1:1: error: a configuration is a JSON object"),
      ("{ \"accessLevel\": \"open\" }", "error: 'accessLevel' must be \"public\" or \"internal\""),
    ]
    for (text, expected) in cases {
      try write(text, config)
      let run = try BundleKitTool.run([
        "--config", config, "strings", "compile", folder.file("Resources"), "--output-dir",
        folder.file("out"),
      ])
      #expect(run.status == 1, "\(text): \(run.stderr)")
      #expect(run.stderr.contains(expected), "\(text): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "\(text)")
    }
    let missing = try BundleKitTool.run([
      "strings", "lint", folder.path, "--config", folder.file("none.json"),
    ])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("none.json: error: "), "\(missing.stderr)")
    // A misspelt key is refused at its place, with every other refusal of the file.
    try write("{\n  \"enumNme\": \"X\",\n  \"pruneBelow\": 2,\n  \"strikt\": true\n}", config)
    let misspelt = try BundleKitTool.run(["strings", "lint", folder.path, "--config", config])
    #expect(misspelt.status == 1, "\(misspelt.stderr)")
    for expected in [
      "bundlekit.json:2:3: error: unknown setting 'enumNme'",
      "bundlekit.json:3:3: error: 'pruneBelow' must be a number from 0 to 1",
      "bundlekit.json:4:3: error: unknown setting 'strikt'",
    ] {
      #expect(misspelt.stderr.contains(expected), "\(misspelt.stderr)")
    }
  }
}
