import BundleKitTestSupport
import Foundation
import Testing

/// What the documentation shows compiles: every Swift sample of the DocC catalogs (the
/// libraries' and the tool's manual, whose package manifests type-check against SwiftPM's
/// PackageDescription) and the accessors `strings generate` writes (the golden file every
/// GenerateStrings user compiles), type-checked against the modules as this test run built
/// them.
struct DocumentationSamplesTests {
  /// `swiftc -typecheck` arguments that find the package's modules beside the test bundle,
  /// C modules included.
  static func typecheckArguments() throws -> [String] {
    let modules = try #require(BundleKitTool.buildFolder, "no build folder beside the tests")
      .appendingPathComponent("Modules").path
    try #require(
      FileManager.default.fileExists(atPath: modules + "/BundleKitLocalization.swiftmodule"),
      "no built modules beside the tests at \(modules)")
    let root = Corpus.packageRoot.path
    return [
      "-typecheck", "-swift-version", "6", "-I", modules,
      // Yams' libyaml, which the versioning module reads project specs with.
      "-Xcc",
      "-fmodule-map-file=\(root)/.build/checkouts/Yams/Sources/CYaml/include/module.modulemap",
      "-Xcc", "-fmodule-map-file=\(root)/Sources/CBundleKitLibXML2/module.modulemap",
      "-Xcc", "-fmodule-map-file=\(root)/Sources/CBundleKitArchive/module.modulemap",
      "-Xcc", "-fmodule-map-file=\(root)/Sources/CBundleKitThreads/module.modulemap",
    ]
  }

  /// Every ```swift block of every catalog under Sources/, with its file.
  static func samples() throws -> [(file: String, code: String)] {
    let sources = Corpus.packageRoot.appendingPathComponent("Sources").path
    var found: [(String, String)] = []
    for path in try FileManager.default.subpathsOfDirectory(atPath: sources).sorted()
    where path.contains(".docc/") && path.hasSuffix(".md") {
      let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
      var code: [Substring]?
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if code == nil, line == "```swift" {
          code = []
        } else if let lines = code, line == "```" {
          found.append(("Sources/" + path, lines.joined(separator: "\n")))
          code = nil
        } else {
          code?.append(line)
        }
      }
    }
    return found
  }

  @Test("every Swift sample of the DocC catalogs type-checks against the built modules")
  func catalogSamples() throws {
    let swiftc = try #require(Tool.path("swiftc"), "swiftc is not on PATH")
    let arguments = try Self.typecheckArguments()
    let samples = try Self.samples()
    #expect(samples.count >= 10, "only \(samples.count) samples found")
    for sample in samples {
      let folder = try TemporaryFolder()
      if sample.code.contains("import PackageDescription") {
        // A package manifest, type-checked as SwiftPM compiles one.
        let manifestAPI = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath()
          .deletingLastPathComponent().deletingLastPathComponent()
          .appendingPathComponent("lib/swift/pm/ManifestAPI").path
        let file = folder.file("Package.swift")
        try Data(sample.code.utf8).write(to: URL(fileURLWithPath: file))
        let run = try Tool.run(
          swiftc,
          [
            "-typecheck", "-swift-version", "6", "-package-description-version", "6.1.0", "-I",
            manifestAPI, file,
          ])
        #expect(run.status == 0, "\(sample.file):\n\(sample.code)\n\(run.stderr)")
        continue
      }
      #expect(sample.code.hasPrefix("import "), "\(sample.file): a sample starts with its imports")
      // Top-level code in main.swift; a sample with @main is a library file of its own.
      let isLibrary = sample.code.contains("@main")
      let file = folder.file(isLibrary ? "Sample.swift" : "main.swift")
      try Data(sample.code.utf8).write(to: URL(fileURLWithPath: file))
      // What SwiftPM gives a target with resources.
      let support = folder.file("Support.swift")
      try Data("import Foundation\nextension Bundle { static var module: Bundle { .main } }\n".utf8)
        .write(to: URL(fileURLWithPath: support))
      let run = try Tool.run(
        swiftc,
        arguments + (isLibrary ? ["-parse-as-library"] : []) + [
          "-module-name", "Sample", file, support,
        ])
      #expect(run.status == 0, "\(sample.file):\n\(sample.code)\n\(run.stderr)")
    }
  }

  @Test("the golden accessors type-check against the Localization module they call")
  func goldenAccessors() throws {
    let swiftc = try #require(Tool.path("swiftc"), "swiftc is not on PATH")
    let folder = try TemporaryFolder()
    let golden = Corpus.packageRoot.appendingPathComponent(
      "Tests/StringsTableTests/Fixtures/Expected/Accessors.swift.expected")
    let source = folder.file("Accessors.swift")
    try FileManager.default.copyItem(atPath: golden.path, toPath: source)
    let support = folder.file("Support.swift")
    try Data("import Foundation\nextension Bundle { static var module: Bundle { .main } }\n".utf8)
      .write(to: URL(fileURLWithPath: support))
    let run = try Tool.run(
      swiftc, try Self.typecheckArguments() + ["-module-name", "App", source, support])
    #expect(run.status == 0, "\(run.stderr)")
    // And the check can fail: an accessor calling what the runtime does not have.
    try Data("import BundleKitLocalization\nlet x = LocalizedStrings.noSuchMember\n".utf8)
      .write(to: URL(fileURLWithPath: folder.file("Wrong.swift")))
    let wrong = try Tool.run(
      swiftc, try Self.typecheckArguments() + ["-module-name", "App", folder.file("Wrong.swift")])
    #expect(wrong.status != 0)
  }
}
