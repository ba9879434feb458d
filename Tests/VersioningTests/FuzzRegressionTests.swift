import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

/// Every input the fuzzing campaign kept for the versioning readers, read again as the fuzz
/// targets read it (Scripts/fuzz/Sources/FuzzSupport/Decoders.swift): a crash fails the run.
struct VersioningFuzzRegressionTests {
  @Test("project.pbxproj inputs the fuzzer kept: read and resolved, no crash")
  func pbxproj() throws {
    for input in try FuzzRegressions.inputs("FuzzPBXProj") {
      guard let project = try? XcodeProject(path: "Fuzz.xcodeproj", bytes: input.bytes) else {
        continue
      }
      var versions = ProjectVersions(
        project: project, chains: XcconfigChains(scope: SettingsScope(paths: [])))
      _ = versions.bundles(includeTests: true)
    }
  }

  @Test(".xcconfig inputs the fuzzer kept: read, checked and resolved, no crash")
  func xcconfig() throws {
    for input in try FuzzRegressions.inputs("FuzzXcconfig") {
      _ = XcconfigFile.contentProblem(input.bytes)
      let file = XcconfigFile(path: "Fuzz.xcconfig", bytes: input.bytes)
      let assignments: [SettingAssignment] = file.assignments.map {
        SettingAssignment(
          setting: $0.setting, value: $0.value, file: "Fuzz.xcconfig", line: $0.line,
          place: .xcconfig(path: "Fuzz.xcconfig", setting: $0.setting, line: $0.line))
      }
      let stack = SettingsStack(
        levels: [SettingsStack.Level(label: "Fuzz.xcconfig", assignments: assignments)],
        builtins: ["SRCROOT": "/src"])
      for name in ["CURRENT_PROJECT_VERSION"] + assignments.prefix(4).map(\.setting) {
        _ = try? stack.resolve(name)
      }
    }
  }

  @Test("A chain of 10,000 settings stops at the depth bound, named as such, not as a loop")
  func longChain() throws {
    let lines = (0..<10_000).map { "S\($0) = $(S\($0 + 1))" } + ["S10000 = 7"]
    let assignments = lines.enumerated().map { index, line in
      let parts = line.split(separator: " = ", maxSplits: 1).map(String.init)
      return SettingAssignment(
        setting: parts[0], value: parts[1], file: "Chain.xcconfig", line: index + 1,
        place: .xcconfig(path: "Chain.xcconfig", setting: parts[0], line: index + 1))
    }
    let stack = SettingsStack(
      levels: [SettingsStack.Level(label: "Chain.xcconfig", assignments: assignments)],
      builtins: [:])
    #expect(try stack.resolve("S9900")?.value == "7")
    #expect(throws: SettingError.self) { try stack.resolve("S0") }
    do {
      _ = try stack.resolve("S0")
    } catch {
      #expect(error.message.contains("more than 200 settings deep"), "\(error.message)")
    }

    // The same through an XcodeGen spec's configFiles:, and a real loop named as one.
    let folder = try TemporaryFolder()
    try FileIO.writeAtomically(
      Array(("CURRENT_PROJECT_VERSION = $(S0)\n" + lines.joined(separator: "\n")).utf8),
      to: folder.file("Chain.xcconfig"))
    try FileIO.writeAtomically(
      Array("A = $(B)\nB = $(CURRENT_PROJECT_VERSION)\nCURRENT_PROJECT_VERSION = $(A)\n".utf8),
      to: folder.file("Loop.xcconfig"))
    for (file, expected) in [
      ("Chain.xcconfig", "more than 200 settings deep"), ("Loop.xcconfig", "refers to itself"),
    ] {
      try FileIO.writeAtomically(
        Array(
          """
          name: Chain
          configFiles:
            Release: \(file)
          targets:
            App:
              type: application
              platform: iOS
              sources: []
              info:
                path: Info.plist
                properties:
                  CFBundleVersion: $(CURRENT_PROJECT_VERSION)

          """.utf8), to: folder.file("project.yml"))
      let spec = try XcodeGenSpec(path: folder.file("project.yml"))
      let bundles = try SpecVersions(
        spec: spec, chains: XcconfigChains(scope: SettingsScope(paths: [folder.path]))
      ).bundles(includeTests: true)
      let messages = "\(bundles)"
      #expect(messages.contains(expected), "\(file): \(messages.prefix(2000))")
    }
  }

  @Test("YAML spec inputs the fuzzer kept: read as XcodeGen reads them, no crash")
  func yamlSpec() throws {
    let folder = try TemporaryFolder()
    for input in try FuzzRegressions.inputs("FuzzYAMLSpec") {
      guard (try? YAMLTree(bytes: input.bytes)) != nil else { continue }
      try FileIO.writeAtomically(input.bytes, to: folder.file("project.yml"))
      guard let spec = try? XcodeGenSpec(path: folder.file("project.yml")) else { continue }
      _ = try? SpecVersions(
        spec: spec, chains: XcconfigChains(scope: SettingsScope(paths: [folder.path]))
      ).bundles(includeTests: true)
    }
  }

  @Test("Tuist manifest inputs the fuzzer kept: read without running, no crash")
  func tuistManifest() throws {
    for input in try FuzzRegressions.inputs("FuzzTuistManifest") {
      guard let spec = try? TuistManifest.spec(path: "Project.swift", bytes: input.bytes) else {
        continue
      }
      _ = try? SpecVersions(spec: spec, chains: XcconfigChains(scope: SettingsScope(paths: [])))
        .bundles(includeTests: true)
    }
  }
}
