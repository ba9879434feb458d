import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsExtraction
import BundleKitTranslation
import Foundation

@testable import BundleKitStringsTable
@testable import BundleKitVersioning

/// One function per decoder fuzzed: each reads `bytes` as its format does for a stranger's
/// file, and whatever it throws is fine; only a crash, a hang or a leak is a finding.
public enum Decoders {
  /// A binary property list (any format is detected; the seeds are binary).
  public static func binaryPlist(_ bytes: [UInt8]) {
    _ = try? PropertyListDocument(bytes: bytes)
  }

  /// An XML property list (or any other format: the reader detects it).
  public static func xmlPlist(_ bytes: [UInt8]) {
    _ = try? PropertyListDocument(bytes: bytes)
  }

  /// A `.strings` table, parsed and linted.
  public static func strings(_ bytes: [UInt8]) {
    guard let file = try? StringsFile(bytes: bytes, path: "Fuzz.strings") else { return }
    _ = StringsLinter(developmentLanguage: "en").check(file)
  }

  /// A `.stringsdict`, parsed and its plural rules checked.
  public static func stringsdict(_ bytes: [UInt8]) {
    guard let file = try? StringsdictFile(bytes: bytes, path: "Fuzz.stringsdict") else { return }
    _ = file.validate(language: "ru")
  }

  /// A String Catalog, parsed, compiled and linted.
  public static func catalog(_ bytes: [UInt8]) {
    guard let catalog = try? StringCatalog(bytes: bytes, path: "Fuzz.xcstrings") else { return }
    _ = catalog.compile()
    _ = StringsLinter(developmentLanguage: "en").check(catalog)
  }

  /// A `project.pbxproj`, parsed and every target's versions resolved.
  public static func pbxproj(_ bytes: [UInt8]) {
    guard let project = try? XcodeProject(path: "Fuzz.xcodeproj", bytes: bytes) else { return }
    let chains = XcconfigChains(scope: SettingsScope(paths: []))
    var versions = ProjectVersions(project: project, chains: chains)
    _ = versions.bundles(includeTests: true)
  }

  /// An `.xcconfig`: its lines read, checked as settings, and a few settings resolved.
  public static func xcconfig(_ bytes: [UInt8]) {
    _ = XcconfigFile.contentProblem(bytes)
    let file = XcconfigFile(path: "Fuzz.xcconfig", bytes: bytes)
    var assignments: [SettingAssignment] = []
    for line in file.lines {
      guard case .assignment(let assignment) = line else { continue }
      assignments.append(
        SettingAssignment(
          setting: assignment.setting, value: assignment.value, file: "Fuzz.xcconfig",
          line: assignment.line, place: .xcconfig(path: "Fuzz.xcconfig", setting: "", line: nil)))
    }
    let stack = SettingsStack(
      levels: [SettingsStack.Level(label: "Fuzz.xcconfig", assignments: assignments)],
      builtins: ["SRCROOT": "/src"])
    for name in ["CURRENT_PROJECT_VERSION", "MARKETING_VERSION"]
      + assignments.prefix(4).map(\.setting)
    {
      _ = try? stack.resolve(name)
    }
  }

  /// A YAML spec: read by Yams with our bounds, then as XcodeGen's spec (from a file).
  public static func yamlSpec(_ bytes: [UInt8]) {
    guard (try? YAMLTree(bytes: bytes)) != nil else { return }
    let path = scratch("project.yml")
    guard (try? FileIO.writeAtomically(bytes, to: path)) != nil else { return }
    guard let spec = try? XcodeGenSpec(path: path) else { return }
    let chains = XcconfigChains(scope: SettingsScope(paths: [path]))
    _ = try? SpecVersions(spec: spec, chains: chains).bundles(includeTests: true)
  }

  /// A Tuist `Project.swift`, read without running it, and its versions resolved.
  public static func tuistManifest(_ bytes: [UInt8]) {
    guard let spec = try? TuistManifest.spec(path: "Project.swift", bytes: bytes) else { return }
    let chains = XcconfigChains(scope: SettingsScope(paths: []))
    _ = try? SpecVersions(spec: spec, chains: chains).bundles(includeTests: true)
  }

  /// An XLIFF document, read and written again.
  public static func xliff(_ bytes: [UInt8]) {
    guard let document = try? XLIFFDocument.read(bytes, path: "Fuzz.xliff") else { return }
    _ = document.xml(toolVersion: "fuzz")
  }

  /// A TMX document, read into records.
  public static func tmx(_ bytes: [UInt8]) {
    _ = try? TMXDocument.read(bytes, path: "Fuzz.tmx")
  }

  /// A Swift source, parsed and its localizable strings extracted.
  public static func swiftExtraction(_ bytes: [UInt8]) {
    _ = SwiftStringExtractor().extract([("Fuzz.swift", String(decoding: bytes, as: UTF8.self))])
  }

  /// A path in this process's scratch folder (made once).
  static func scratch(_ name: String) -> String {
    let folder = NSTemporaryDirectory() + "/bundlekit-fuzz-\(getpid())"
    try? FileIO.createFolder(folder)
    return folder + "/" + name
  }
}
