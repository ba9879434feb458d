import BundleKitStringsTable
import _BundleKitCommandLineTool

/// Translation coverage for people: a Markdown table per language with a bar for each share
/// (a pull-request comment, `$GITHUB_STEP_SUMMARY`), and an SVG badge like Weblate's
/// ("translated 87%") a README can embed.
enum CoverageGraphics {
  /// `██████████` for 100%, `█████░░░░░` for 50%: ten cells, rounded down, so a table at
  /// 99.9% never looks complete.
  static func bar(_ share: Double) -> String {
    let filled = max(0, min(10, Int((share * 10).rounded(.down))))
    return String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
  }

  /// One `####` section per language, a row per table.
  static func markdown(_ rows: [TranslationCoverage.Row]) -> String {
    var out = "### Translation coverage\n"
    let languages = rows.map(\.language).reduce(into: [String]()) { found, language in
      if !found.contains(language) { found.append(language) }
    }
    guard !languages.isEmpty else { return out + "\nNo translated tables.\n" }
    // A table's folder is named only where tables of one name sit in several folders.
    let folders = Set(rows.map(\.bundleFolder))
    for language in languages {
      let own = rows.filter { $0.language == language }
      let translated = own.reduce(0) { $0 + $1.translated }
      let total = own.reduce(0) { $0 + $1.total }
      let share = total == 0 ? 1 : Double(translated) / Double(total)
      out += "\n#### \(MarkdownText.cell(language)): \(StringsCoverage.percent(share))\n\n"
      out += "| Table | Translated | Share | |\n|---|---:|---:|---|\n"
      for row in own {
        let name =
          folders.count > 1 && !row.bundleFolder.isEmpty
          ? "\(row.bundleFolder)/\(row.table)" : row.table
        out +=
          "| \(MarkdownText.cell(name)) | \(row.translated)/\(row.total) | \(StringsCoverage.percent(row.share)) | `\(bar(row.share))` |\n"
      }
    }
    return out
  }

  /// The share over every table and language: translated keys over keys.
  static func overall(_ rows: [TranslationCoverage.Row]) -> Double {
    let total = rows.reduce(0) { $0 + $1.total }
    return total == 0 ? 1 : Double(rows.reduce(0) { $0 + $1.translated }) / Double(total)
  }

  /// A flat badge, "translated | 87%", coloured by the share as Weblate colours its badges.
  static func badge(_ rows: [TranslationCoverage.Row]) -> String {
    let share = overall(rows)
    let label = "translated"
    let value = StringsCoverage.percent(share)
    let color =
      share >= 0.9 ? "#4c1" : share >= 0.75 ? "#a4a61d" : share >= 0.5 ? "#dfb317" : "#e05d44"
    // Verdana 11px averages about 6.5 px a character; 10 px of padding each side.
    let labelWidth = 10 + Int((Double(label.count) * 6.5).rounded(.up)) + 10
    let valueWidth = 10 + Int((Double(value.count) * 6.5).rounded(.up)) + 10
    let width = labelWidth + valueWidth
    let text = value  // digits, a point and a percent sign: nothing to escape
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="20" role="img" aria-label="\(label): \(text)">
        <title>\(label): \(text)</title>
        <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
        <clipPath id="r"><rect width="\(width)" height="20" rx="3" fill="#fff"/></clipPath>
        <g clip-path="url(#r)">
          <rect width="\(labelWidth)" height="20" fill="#555"/>
          <rect x="\(labelWidth)" width="\(valueWidth)" height="20" fill="\(color)"/>
          <rect width="\(width)" height="20" fill="url(#s)"/>
        </g>
        <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
          <text x="\(labelWidth / 2)" y="15" fill="#010101" fill-opacity=".3">\(label)</text>
          <text x="\(labelWidth / 2)" y="14">\(label)</text>
          <text x="\(labelWidth + valueWidth / 2)" y="15" fill="#010101" fill-opacity=".3">\(text)</text>
          <text x="\(labelWidth + valueWidth / 2)" y="14">\(text)</text>
        </g>
      </svg>

      """
  }
}
