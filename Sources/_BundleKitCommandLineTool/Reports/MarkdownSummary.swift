import BundleKitDiagnostics

/// A Markdown summary for `$GITHUB_STEP_SUMMARY` or a pull-request comment: a heading with
/// the counts, then a table of the findings (severity, file, line, rule, message).
enum MarkdownSummary {
  static func text(_ report: FindingsReport) -> String {
    var out = "### \(report.tool) \(report.command): \(report.counts)\n\n"
    guard !report.diagnostics.isEmpty else {
      return out + "No findings in \(report.checked.count) file"
        + (report.checked.count == 1 ? "" : "s") + " checked.\n"
    }
    out += "| | File | Line | Rule | Message |\n|---|---|---:|---|---|\n"
    for diagnostic in report.diagnostics {
      let mark =
        switch diagnostic.severity {
        case .error: "❌ error"
        case .warning: "⚠️ warning"
        case .note: "ℹ️ note"
        }
      // Cell text, not code: a code span cannot hold a line break, and a path may.
      let file = diagnostic.path.map { MarkdownText.cell(report.relative($0)) } ?? ""
      let place = diagnostic.line.map { line in
        diagnostic.column.map { "\(line):\($0)" } ?? "\(line)"
      }
      out += "| \(mark) | \(file) | \(place ?? "") | \(diagnostic.rule?.name ?? "") | "
      out += MarkdownText.cell(FindingsReport.fullMessage(diagnostic)) + " |\n"
    }
    return out
  }
}

/// Text made safe for Markdown (GitHub's): a table cell and inline code.
public enum MarkdownText {
  /// Text for a table cell: `|` escaped, line breaks as `<br>`, HTML's markup escaped.
  public static func cell(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "|": out += "\\|"
      case "\n", "\r\n", "\r": out += "<br>"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\\": out += "\\\\"
      case "`": out += "\\`"
      case "*", "_", "[", "]": out += "\\" + String(character)
      default: out.append(character)
      }
    }
    return out
  }
}
