import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitResources
import Foundation
import _BundleKitCommandLineTool

#if canImport(Glibc)
  import Glibc
#endif

/// `bundlekit scan [PACKAGE_DIR]`: what the package's targets hold.
struct ScanCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "Show each target's resources: tables per language, Info.plists, bundles, assets.",
    discussion: """
      Targets come from `swift package describe` when a Package.swift is there (or Sources/ \
      and Tests/ with --no-describe), else the folder is scanned as one. The language × \
      table matrix shows key counts, and what is missing against the development language. \
      Static .bundle folders are flagged: the build neither sees nor compiles them.
      """
  )

  @Argument(help: "The package folder.")
  var folder = "."

  @OptionGroup var languageOptions: LanguageOptions

  @Flag(help: "Find targets from Sources/ and Tests/ instead of asking SwiftPM.")
  var noDescribe = false

  @Option(
    help:
      "A JSON file of the package's targets ([{name, path, resources}]), as the plugins write it: SwiftPM is then not asked."
  )
  var targets: String?

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) throws {
    let scan = ResourceScan(
      folder: folder, developmentLanguage: languageOptions.developmentLanguage(in: run),
      describe: !noDescribe, declared: try targets.map(ResourceScan.DeclaredTarget.read))
    switch formatOptions.format(in: run) {
    case .json: StandardStreams.writeJSON(scan.report)
    case .text: StandardStreams.writeToStandardOutput(Array(text(scan).utf8))
    }
  }

  func text(_ scan: ResourceScan) -> String {
    // Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    let color = StandardStreams.colorsAllowed(on: STDOUT_FILENO)
    func paint(_ text: String, _ code: String) -> String {
      color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    var output = ""
    for (index, target) in scan.targets.enumerated() {
      // A blank line between targets, none after the last.
      if index > 0 { output += "\n" }
      output += paint("\(target.name)", "1") + "  \(target.path)\n"
      if !target.tables.isEmpty {
        let languages = Set(target.tables.values.flatMap(\.keys)).sorted {
          ($0 == scan.developmentLanguage ? "" : $0) < ($1 == scan.developmentLanguage ? "" : $1)
        }
        var rows = [["  TABLE"] + languages]
        // Table cells are escaped (a file name cannot move the cursor): their colours are
        // the table's to add, after the padding.
        var styles: [[String?]] = [Array(repeating: nil, count: languages.count + 1)]
        for table in target.tables.keys.sorted() {
          let counts = target.tables[table] ?? [:]
          let keys = target.tableKeys[table] ?? [:]
          let reference = keys[scan.developmentLanguage]
          var row = [
            "  \(table) (\((target.tableKinds[table] ?? []).sorted().joined(separator: ", ")))"
          ]
          var style: [String?] = [nil]
          for language in languages {
            guard let entry = counts[language] else {
              row.append("-")
              style.append("31")
              continue
            }
            guard let count = entry else {
              row.append("error")
              style.append("31")
              continue
            }
            let lacking = reference.map { $0.subtracting(keys[language] ?? []).count } ?? 0
            if language != scan.developmentLanguage, lacking > 0 {
              row.append("\(count) (-\(lacking))")
              style.append("33")
            } else {
              row.append("\(count)")
              style.append(nil)
            }
          }
          rows.append(row)
          styles.append(style)
        }
        output += TextTable.render(rows, styles: color ? styles : nil)
      }
      for plist in target.infoPlists {
        output +=
          "  Info.plist \(plist.path): version \(plist.version ?? "-"), build \(plist.build ?? "-")\n"
      }
      for bundle in target.staticBundles {
        output +=
          "  " + paint("warning:", "33")
          + " \(bundle) is a static bundle: the build does not see it and compiles nothing in it\n"
      }
      for catalog in target.assetCatalogs { output += "  asset catalog \(catalog)\n" }
      let imageBytes = target.images.reduce(0) { $0 + $1.size }
      if !target.images.isEmpty {
        output += "  \(target.images.count) images, \(imageBytes) bytes\n"
      }
      let otherBytes = target.otherFiles.reduce(0) { $0 + $1.size }
      if !target.otherFiles.isEmpty {
        output += "  \(target.otherFiles.count) other files, \(otherBytes) bytes\n"
      }
    }
    return output
  }
}
