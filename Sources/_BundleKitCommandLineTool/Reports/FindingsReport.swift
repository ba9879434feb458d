import BundleKitDiagnostics
import BundleKitPropertyListCore
import Foundation

/// The formats continuous-integration systems read findings in, each written from the same
/// ``Diagnostic`` values the engine holds: a new format is one encoder, not a change in
/// every command.
public enum ReportFormat: String, CaseIterable, Sendable {
  /// GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=RULE::message`):
  /// annotations on the pull request's lines.
  case github
  /// SARIF 2.1.0, one run: GitHub code scanning and other static-analysis viewers.
  case sarif
  /// JUnit XML, one test case per file checked: Jenkins, GitLab and Bitrise test reports.
  case junit
  /// Checkstyle XML, as SwiftLint's `checkstyle` reporter writes it.
  case checkstyle
  /// A Markdown table, for `$GITHUB_STEP_SUMMARY` or a pull-request comment.
  case markdown
}

/// The findings of one run, and what a CI format needs around them.
public struct FindingsReport: Sendable {
  /// The tool (`bundlekit`).
  public var tool: String
  /// The tool's version.
  public var version: String
  /// The command that ran (`strings lint`).
  public var command: String
  /// The findings, in the order they were reported, severities as reported.
  public var diagnostics: [Diagnostic]
  /// The files the command checked, findings or not (JUnit's passing test cases).
  public var checked: [String]
  /// The folder paths are made relative to (the workspace; GitHub wants paths from it).
  public var root: String
  /// Help for each rule a finding may name, by rule name (SARIF's rules).
  public var rules: [String: String]

  /// A report of `diagnostics`.
  public init(
    tool: String, version: String, command: String, diagnostics: [Diagnostic],
    checked: [String] = [], root: String, rules: [String: String] = [:]
  ) {
    self.tool = tool
    self.version = version
    self.command = command
    self.diagnostics = diagnostics
    self.checked = checked
    self.root = root
    self.rules = rules
  }

  /// The report in `format`: the bytes to write to standard output.
  public func encoded(as format: ReportFormat) -> [UInt8] {
    switch format {
    case .github: Array(GitHubAnnotations.text(self).utf8)
    case .sarif: SARIFLog.bytes(self)
    case .junit: Array(JUnitReport.xml(self).utf8)
    case .checkstyle: Array(CheckstyleReport.xml(self).utf8)
    case .markdown: Array(MarkdownSummary.text(self).utf8)
    }
  }

  /// A finding's path as the report names it: relative to ``root`` when below it.
  func relative(_ path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    let absolute = path.hasPrefix("/") ? path : (cwd as NSString).appendingPathComponent(path)
    let standard = (absolute as NSString).standardizingPath
    let base = (root as NSString).standardizingPath
    if standard.hasPrefix(base + "/") { return String(standard.dropFirst(base.count + 1)) }
    return path
  }

  /// The errors and warnings (the findings every format carries; notes go only where the
  /// format has a level for them).
  var findings: [Diagnostic] { diagnostics.filter { $0.severity != .note } }

  /// One line of counts: "1 error, 2 warnings".
  var counts: String {
    let errors = diagnostics.filter { $0.severity == .error }.count
    let warnings = diagnostics.filter { $0.severity == .warning }.count
    return
      "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
  }

  /// The message with its notes below it, as the text output prints them.
  static func fullMessage(_ diagnostic: Diagnostic) -> String {
    ([diagnostic.message] + diagnostic.notes).joined(separator: "\n")
  }
}

/// Text for XML: markup escaped (``XMLEscaping``), and what XML 1.0 cannot carry (C0
/// controls but tab, line feed and carriage return; U+FFFE, U+FFFF) replaced by U+FFFD, so
/// every reader parses it.
enum ReportXML {
  static func text(_ value: String) -> String { XMLEscaping.escape(carried(value)) }

  static func attribute(_ value: String) -> String { XMLEscaping.attribute(carried(value)) }

  private static func carried(_ value: String) -> String {
    guard value.unicodeScalars.contains(where: isBanned) else { return value }
    var result = String.UnicodeScalarView()
    for scalar in value.unicodeScalars { result.append(isBanned(scalar) ? "\u{FFFD}" : scalar) }
    return String(result)
  }

  private static func isBanned(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D)
      || value == 0xFFFE || value == 0xFFFF
  }
}
