import BundleKitTestSupport
import Foundation
import Testing

/// What CompileStrings plans in a package target with `pruneBelow` in its `bundlekit.json`,
/// run for real: the plugin passes the file, the tool applies it, every declared output is
/// written, a left-out language's with the development language's text.
@Suite struct PackageTargetsTests {
  @Test("pruneBelow: every declared output written, the left-out language's in English")
  func pruneBelowPlan() throws {
    let folder = try TemporaryFolder()
    let resources = URL(fileURLWithPath: folder.file("Sources/Kit/Resources"))
    let files = [
      "en.lproj/Messages.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n",
      "fr.lproj/Messages.strings": "\"a\" = \"Af\";\n\"b\" = \"Bf\";\n\"c\" = \"Cf\";\n",
      "it.lproj/Messages.strings": "\"a\" = \"Ai\";\n",
    ]
    for (path, text) in files {
      try FileManager.default.createDirectory(
        at: resources.appendingPathComponent(path).deletingLastPathComponent(),
        withIntermediateDirectories: true)
      try Data(text.utf8).write(to: resources.appendingPathComponent(path))
    }
    try Data(#"{ "pruneBelow": 0.7 }"#.utf8).write(
      to: URL(fileURLWithPath: folder.file("Sources/Kit/bundlekit.json")))
    let configuration = PluginConfiguration.load(from: [
      URL(fileURLWithPath: folder.file("Sources/Kit"))
    ])
    let tables = files.keys.sorted().map { resources.appendingPathComponent($0) }
    let work = URL(fileURLWithPath: folder.file("work"))
    let plan = try StringsTables.compile(
      tables, into: work, targetName: "Kit", configuration: configuration)
    // The plugin hands the tool the file; the tool reads pruneBelow from it.
    #expect(
      plan.arguments.suffix(3) == [
        "--config", folder.file("Sources/Kit/bundlekit.json"), "--pruned-as-development",
      ])
    #expect(plan.inputs.contains { $0.lastPathComponent == "bundlekit.json" })
    #expect(plan.outputs.map(\.lastPathComponent).count == 3)

    let tool = try #require(BundleKitTool.path)
    let run = try Tool.run(tool, plan.arguments)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("note: it left out: 33.3% translated, under --prune-below 0.7"))
    for output in plan.outputs {
      #expect(FileManager.default.fileExists(atPath: output.path), "\(output.path) not written")
    }
    func read(_ language: String) throws -> [String: String]? {
      try PropertyListSerialization.propertyList(
        from: Data(contentsOf: work.appending(path: "\(language).lproj/Messages.strings")),
        format: nil) as? [String: String]
    }
    #expect(try read("it") == ["a": "A", "b": "B", "c": "C"])
    #expect(try read("fr") == ["a": "Af", "b": "Bf", "c": "Cf"])
  }
}
