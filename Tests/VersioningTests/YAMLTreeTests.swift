import Testing

@testable import BundleKitVersioning

/// The block YAML project specs are written in, read with each scalar's place.
struct YAMLTreeTests {
  @Test("mappings, sequences at and below their key, flow collections, quotes, comments")
  func shapes() throws {
    let text = """
      ---
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
    #expect(value == "1.0" && quoted && line == 13)
    #expect(String(decoding: Array(text.utf8)[range], as: UTF8.self) == "'1.0'")
  }

  @Test(
    "as XcodeGen reads it (Yams): anchors and aliases, merge keys, flow over lines with comments")
  func asYamsReadsIt() throws {
    let text = """
      settings:
        base:
          CURRENT_PROJECT_VERSION: &BUILD_NUMBER 41
          MARKETING_VERSION: &APP_VERSION "2.3.0"
      release: &release
        CURRENT_PROJECT_VERSION: 7
        SWIFT_VERSION: 5.9
      targets:
        App:
          settings:
            base:
              <<: *release
              SWIFT_VERSION: 6.0
          info:
            properties:
              CFBundleVersion: *BUILD_NUMBER
              CFBundleShortVersionString: *APP_VERSION
              CFBundleURLTypes:
                - CFBundleURLSchemes: [ $(APP_SCHEME), # the scheme
                    other ]
      """
    let bytes = Array(text.utf8)
    let tree = try YAMLTree(bytes: bytes)
    let app = try #require(tree.root["targets"]?["App"])
    #expect(app["info"]?["properties"]?["CFBundleVersion"]?.text == "41")
    #expect(app["info"]?["properties"]?["CFBundleShortVersionString"]?.text == "2.3.0")
    // The alias's place is the anchor's text: editing it changes every alias.
    guard case .scalar(_, let range, let line, _)? = app["info"]?["properties"]?["CFBundleVersion"]
    else {
      Issue.record("no scalar")
      return
    }
    #expect(line == 3)
    #expect(String(decoding: bytes[range], as: UTF8.self) == "41")
    // Merged: the mapping's own key wins, the merged ones come along.
    #expect(app["settings"]?["base"]?["CURRENT_PROJECT_VERSION"]?.text == "7")
    #expect(app["settings"]?["base"]?["SWIFT_VERSION"]?.text == "6.0")
    #expect(app["settings"]?["base"]?["<<"] == nil)
    let schemes = app["info"]?["properties"]?["CFBundleURLTypes"]?.items.first?[
      "CFBundleURLSchemes"]
    #expect(schemes?.items.compactMap(\.text) == ["$(APP_SCHEME)", "other"])
  }

  @Test("YAML bombs: aliases of aliases, deep flow and block nesting are errors at their line")
  func bombs() {
    var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1..<12 {
      laughs +=
        "a\(level): &a\(level) ["
        + Array(repeating: "*a\(level - 1)", count: 10).joined(
          separator: ", ") + "]\n"
    }
    #expect(throws: YAMLTree.Malformed.self) { try YAMLTree(bytes: Array(laughs.utf8)) }
    let flow =
      "a: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect {
      try YAMLTree(bytes: Array(flow.utf8))
    } throws: { ($0 as? YAMLTree.Malformed)?.line == 1 }
    var sequences = "a:\n"
    for level in 0..<5_000 { sequences += String(repeating: " ", count: level) + "-\n" }
    #expect(throws: YAMLTree.Malformed.self) { try YAMLTree(bytes: Array(sequences.utf8)) }
    #expect(throws: YAMLTree.Malformed.self) {
      try YAMLTree(
        bytes: Array(
          "a: - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x\n"
            .utf8))
    }
    #expect(throws: YAMLTree.Malformed.self) { try YAMLTree(bytes: [0x61, 0x3A, 0x20, 0xFF]) }
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

  @Test("names bound at the top: read once each, in linear time, and edited at their literal")
  func boundNames() throws {
    // Each name twice in the next: read by substitution, a million paths would be walked.
    var chain = "let n0 = \"1\"\n"
    for index in 1..<60 { chain += "let n\(index) = [n\(index - 1), n\(index - 1)]\n" }
    chain += "let project = Project(name: \"A\", targets: [n59])\n"
    let chained = TuistManifest(bytes: Array(chain.utf8))
    #expect(chained.project != nil)
    #expect(chained.string(at: ["let", "n0"])?.0 == "1")
    // A name used before it is bound, or inside a function, is not the top-level one.
    let scoped = TuistManifest(
      bytes: Array(
        """
        func make(v: String) -> Project { Project(name: v) }
        let v = "2.0"
        let project = Project(name: "P", settings: .settings(base: ["MARKETING_VERSION": v]))
        """.utf8))
    #expect(scoped.string(at: ["settings", "base", "MARKETING_VERSION"])?.0 == "2.0")
    // Two places that read one literal: the same value is written once, two are refused.
    let bytes = Array(
      """
      let build = "7"
      let project = Project(name: "P", targets: [
        .target(name: "A", infoPlist: .extendingDefault(with: ["CFBundleVersion": build])),
        .target(name: "B", infoPlist: .extendingDefault(with: ["CFBundleVersion": build])),
      ])
      """.utf8)
    let places = ["A", "B"].map {
      VersionPlace.spec(
        path: "Project.swift", keyPath: ["targets", $0, "infoPlist", "with", "CFBundleVersion"])
    }
    let same = try SpecEditor.applyToManifest(
      places.map { ($0, "8") }, to: bytes, path: "Project.swift")
    #expect(String(decoding: same, as: UTF8.self).hasPrefix("let build = \"8\"\n"))
    #expect(throws: VersioningError.self) {
      try SpecEditor.applyToManifest(
        [(places[0], "8"), (places[1], "9")], to: bytes, path: "Project.swift")
    }
  }
}
