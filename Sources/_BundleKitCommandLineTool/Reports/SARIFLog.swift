import BundleKitDiagnostics
import Foundation

/// SARIF 2.1.0: one run per invocation, the rules the findings name with their help text,
/// a result per finding with its file (relative to `%SRCROOT%`, the workspace), line and
/// column. GitHub code scanning takes it as it is.
enum SARIFLog {
  struct Log: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]
    enum CodingKeys: String, CodingKey {
      case schema = "$schema"
      case version, runs
    }
  }
  struct Run: Encodable {
    var tool: Tool
    var originalUriBaseIds: [String: ArtifactLocation]
    var results: [Result]
  }
  struct Tool: Encodable { var driver: Driver }
  struct Driver: Encodable {
    var name: String
    var version: String
    var informationUri: String
    var rules: [Rule]
  }
  struct Rule: Encodable {
    var id: String
    var shortDescription: Message
    var help: Message
  }
  struct Message: Encodable { var text: String }
  struct Result: Encodable {
    var ruleId: String
    var ruleIndex: Int
    var level: String
    var message: Message
    var locations: [Location]?
  }
  struct Location: Encodable { var physicalLocation: PhysicalLocation }
  struct PhysicalLocation: Encodable {
    var artifactLocation: ArtifactLocation
    var region: Region?
  }
  struct ArtifactLocation: Encodable {
    var uri: String
    var uriBaseId: String?
  }
  struct Region: Encodable {
    var startLine: Int
    var startColumn: Int?
  }

  /// The rule of a finding that names none.
  static let generalRule = "finding"

  static func bytes(_ report: FindingsReport) -> [UInt8] {
    var ruleNames: [String] = []
    for diagnostic in report.diagnostics {
      let name = diagnostic.rule?.name ?? generalRule
      if !ruleNames.contains(name) { ruleNames.append(name) }
    }
    let rules = ruleNames.map { name in
      let help =
        report.rules[name]
        ?? (name == generalRule
          ? "A finding \(report.tool) reports that no configurable rule covers." : name)
      return Rule(id: name, shortDescription: Message(text: help), help: Message(text: help))
    }
    let results = report.diagnostics.map { diagnostic -> Result in
      let name = diagnostic.rule?.name ?? generalRule
      var locations: [Location]?
      if let path = diagnostic.path {
        let region = diagnostic.line.map { line in
          Region(startLine: max(1, line), startColumn: diagnostic.column.map { max(1, $0) })
        }
        let relative = report.relative(path)
        locations = [
          Location(
            physicalLocation: PhysicalLocation(
              artifactLocation: ArtifactLocation(
                uri: uri(relative), uriBaseId: relative.hasPrefix("/") ? nil : "%SRCROOT%"),
              region: region))
        ]
      }
      return Result(
        ruleId: name, ruleIndex: ruleNames.firstIndex(of: name) ?? 0,
        level: diagnostic.severity.rawValue,
        message: Message(text: FindingsReport.fullMessage(diagnostic)), locations: locations)
    }
    let root = report.root.hasSuffix("/") ? report.root : report.root + "/"
    let log = Log(runs: [
      Run(
        tool: Tool(
          driver: Driver(
            name: report.tool, version: report.version,
            informationUri: "https://github.com/bundlekit/bundlekit", rules: rules)),
        originalUriBaseIds: ["%SRCROOT%": ArtifactLocation(uri: "file://" + uri(root))],
        results: results)
    ])
    return StandardStreams.jsonBytes(log) + [0x0A]
  }

  /// A path as a URI reference: every byte but unreserved ones and `/` percent-encoded.
  static func uri(_ path: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
    allowed.insert(charactersIn: "-._~/")
    return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
  }
}
