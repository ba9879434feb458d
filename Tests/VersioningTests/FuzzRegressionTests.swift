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
