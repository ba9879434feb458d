import Testing

@testable import BundleKitVersioning

/// The block YAML project specs are written in, read with each scalar's place.
struct YAMLTreeTests {
  @Test("mappings, sequences at and below their key, flow collections, quotes, comments")
  func shapes() throws {
    let text = """
      # A spec
      name: App   # trailing comment
      include: [base.yml, "other.yml"]
      targets:
        App:
          info: {path: App/Info.plist}
          dependencies:
          - target: Widget
            embed: true
          - package: Nuke
          settings:
            MARKETING_VERSION: '1.0'
            NOTE: "say \\"hi\\" # not a comment"
      ---
      """
    let tree = try YAMLTree(bytes: Array(text.utf8))
    #expect(tree.root["name"]?.text == "App")
    #expect(tree.root["include"]?.items.compactMap(\.text) == ["base.yml", "other.yml"])
    let app = try #require(tree.root["targets"]?["App"])
    #expect(app["info"]?["path"]?.text == "App/Info.plist")
    #expect(app["dependencies"]?.items.first?["target"]?.text == "Widget")
    #expect(app["dependencies"]?.items.first?["embed"]?.text == "true")
    #expect(app["dependencies"]?.items.last?["package"]?.text == "Nuke")
    #expect(app["settings"]?["NOTE"]?.text == "say \"hi\" # not a comment")
    guard
      case .scalar(let value, let range, let line, let quoted)? = app["settings"]?[
        "MARKETING_VERSION"]
    else {
      Issue.record("no scalar")
      return
    }
    #expect(value == "1.0" && quoted && line == 12)
    #expect(String(decoding: Array(text.utf8)[range], as: UTF8.self) == "'1.0'")
  }

  @Test("bad and hostile input: an error at its line, bounded depth, no crash")
  func hostile() {
    #expect(throws: YAMLTree.Malformed.self) { try YAMLTree(bytes: Array("a: 1\n  b: 2\n".utf8)) }
    #expect(throws: YAMLTree.Malformed.self) { try YAMLTree(bytes: Array("a: [1, 2\n".utf8)) }
    var deep = ""
    for level in 0..<200 { deep += String(repeating: " ", count: level) + "k\(level):\n" }
    #expect(throws: YAMLTree.Malformed.self) { try YAMLTree(bytes: Array(deep.utf8)) }
    #expect(throws: YAMLTree.Malformed.self) {
      try YAMLTree(bytes: [UInt8](repeating: 0x61, count: YAMLTree.maximumSize + 1))
    }
    #expect((try? YAMLTree(bytes: Array("".utf8)))?.root.entries.isEmpty == true)
  }
}

/// Tuist manifests read without running them: bounded on any input.
struct TuistManifestTests {
  @Test("deep nesting, unterminated strings and interpolation: no crash, no hang, nothing guessed")
  func hostile() throws {
    let deep =
      "let project = Project(name: \"A\", targets: " + String(repeating: "[", count: 100_000)
      + String(repeating: "]", count: 100_000) + ")\n"
    let manifest = TuistManifest(bytes: Array(deep.utf8))
    #expect(manifest.project != nil)
    let interpolated = TuistManifest(
      bytes: Array(
        "let v = \"3\"\nlet project = Project(name: \"A\", settings: .settings(base: [\"MARKETING_VERSION\": \"\\(v).0\"]))\n"
          .utf8))
    #expect(interpolated.string(at: ["settings", "base", "MARKETING_VERSION"]) == nil)
    let open = TuistManifest(bytes: Array("let project = Project(name: \"A".utf8))
    #expect(open.string(at: ["name"]) == nil || open.string(at: ["name"])?.0 == "A")
  }
}
