import BundleKitDiagnostics

/// JUnit XML for the test-report views of Jenkins, GitLab and Bitrise: one test suite for
/// the run, one test case per file checked (a finding's file included), a `<failure>` per
/// error; warnings and notes go to the case's `<system-out>`, so they are seen but pass.
/// Findings keep their order within a file; files come in the order of their first finding.
enum JUnitReport {
  static func xml(_ report: FindingsReport) -> String {
    // Files with findings first, in the order of their first finding (the order of every
    // other format), then the files that passed.
    var files: [String] = []
    var seen: Set<String> = []
    var byFile: [String: [Diagnostic]] = [:]
    for diagnostic in report.diagnostics {
      let file = diagnostic.path.map(report.relative) ?? ""
      if seen.insert(file).inserted { files.append(file) }
      byFile[file, default: []].append(diagnostic)
    }
    for path in report.checked.map(report.relative) where seen.insert(path).inserted {
      files.append(path)
    }
    let failures = files.filter { file in
      byFile[file, default: []].contains { $0.severity == .error }
    }.count
    let name = ReportXML.attribute("\(report.tool) \(report.command)")
    let className = ReportXML.attribute(
      report.tool + "." + report.command.replacingOccurrences(of: " ", with: "-"))
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"\(name)\" tests=\"\(files.count)\" failures=\"\(failures)\" errors=\"0\">\n"
    out +=
      "  <testsuite name=\"\(name)\" tests=\"\(files.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
    for file in files {
      let found = byFile[file, default: []]
      let caseName = ReportXML.attribute(file.isEmpty ? "(no file)" : file)
      out += "    <testcase classname=\"\(className)\" name=\"\(caseName)\""
      if !file.isEmpty { out += " file=\"\(caseName)\"" }
      guard !found.isEmpty else {
        out += "/>\n"
        continue
      }
      out += ">\n"
      for diagnostic in found where diagnostic.severity == .error {
        out +=
          "      <failure message=\"\(ReportXML.attribute(diagnostic.message))\" type=\"\(ReportXML.attribute(diagnostic.rule?.name ?? "error"))\">"
        out += ReportXML.text(line(diagnostic, report)) + "</failure>\n"
      }
      let passing = found.filter { $0.severity != .error }
      if !passing.isEmpty {
        out += "      <system-out>"
        out += ReportXML.text(passing.map { line($0, report) }.joined(separator: "\n"))
        out += "</system-out>\n"
      }
      out += "    </testcase>\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// The finding as the text output prints it, its path relative.
  static func line(_ diagnostic: Diagnostic, _ report: FindingsReport) -> String {
    var relative = diagnostic
    relative.path = diagnostic.path.map(report.relative)
    return relative.description
  }
}
