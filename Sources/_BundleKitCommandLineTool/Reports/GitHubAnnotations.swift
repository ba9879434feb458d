import BundleKitDiagnostics

/// GitHub Actions workflow commands, one per finding: `::error file=F,line=L,col=C,title=RULE::message`.
///
/// Escaped as GitHub's own toolkit escapes them (`@actions/core`): in the message `%`, `\r`
/// and `\n`; in a property also `:` and `,`. Paths are relative to the workspace.
enum GitHubAnnotations {
  static func text(_ report: FindingsReport) -> String {
    var out = ""
    for diagnostic in report.diagnostics {
      let command =
        switch diagnostic.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
      var properties: [String] = []
      if let path = diagnostic.path {
        properties.append("file=" + property(report.relative(path)))
        if let line = diagnostic.line {
          properties.append("line=\(line)")
          if let column = diagnostic.column { properties.append("col=\(column)") }
        }
      }
      if let rule = diagnostic.rule {
        properties.append("title=" + property("\(report.tool) \(rule.name)"))
      }
      out += "::\(command)"
      if !properties.isEmpty { out += " " + properties.joined(separator: ",") }
      out += "::" + data(FindingsReport.fullMessage(diagnostic)) + "\n"
    }
    return out
  }

  /// A command's message: `%`, `\r`, `\n` escaped.
  static func data(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// A command's property value: the message's escapes, and `:` and `,`.
  static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A")
      .replacingOccurrences(of: ",", with: "%2C")
  }
}
