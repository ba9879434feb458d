import BundleKitDiagnostics

/// Checkstyle XML, as SwiftLint's `checkstyle` reporter writes it: a `<file>` per file with
/// findings, an `<error>` per finding with its line, column, severity (`error`, `warning`,
/// `info`) and source (`bundlekit.RULE`).
enum CheckstyleReport {
  static func xml(_ report: FindingsReport) -> String {
    var files: [String] = []
    var byFile: [String: [Diagnostic]] = [:]
    for diagnostic in report.diagnostics {
      let file = diagnostic.path.map(report.relative) ?? ""
      if byFile[file] == nil { files.append(file) }
      byFile[file, default: []].append(diagnostic)
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
    for file in files {
      out += "  <file name=\"\(ReportXML.attribute(file))\">\n"
      for diagnostic in byFile[file, default: []] {
        let severity =
          switch diagnostic.severity {
          case .error: "error"
          case .warning: "warning"
          case .note: "info"
          }
        out += "    <error"
        if let line = diagnostic.line {
          out += " line=\"\(line)\""
          if let column = diagnostic.column { out += " column=\"\(column)\"" }
        }
        out += " severity=\"\(severity)\""
        out += " message=\"\(ReportXML.attribute(FindingsReport.fullMessage(diagnostic)))\""
        out +=
          " source=\"\(ReportXML.attribute(report.tool + "." + (diagnostic.rule?.name ?? "finding")))\"/>\n"
      }
      out += "  </file>\n"
    }
    out += "</checkstyle>\n"
    return out
  }
}
