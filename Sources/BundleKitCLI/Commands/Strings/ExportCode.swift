import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitStringsTable
import BundleKitVersioning
import Foundation

/// The strings of each target's Swift code, as `strings export` gives them to translators:
/// Xcode extracts a target's code into that target's own tables when it exports. They are
/// read by `bundlekit-localize extract` (swift-syntax stays out of `bundlekit`).
enum ExportCode {
  /// What the code adds to the export.
  struct Found {
    /// Code strings for a target's own development-language `.strings` table, by the
    /// table's absolute path.
    var merged: [String: [CatalogSync.CodeString]] = [:]
    /// The String Catalog Xcode makes for a target with code and no table of that name (a
    /// package target, a target in a synchronized folder that prefers catalogs).
    var catalogs: [LocalizationExchange.GeneratedTable] = []
  }

  /// One string `bundlekit-localize extract --format json` prints.
  struct Extracted: Decodable {
    var key: String
    var defaultValue: String?
    var comment: String?
    var table: String?
    var file: String
    var line: Int
    var column: Int
  }

  /// The code strings of the targets under `paths`: none, with a warning, when
  /// `bundlekit-localize` is not there or fails.
  static func strings(
    in paths: [String], developmentLanguage: String, warnings: inout [Diagnostic]
  ) throws -> Found {
    let targets = try LocalizationTargets.find(in: paths, warnings: &warnings)
    guard targets.contains(where: { !$0.sources.isEmpty || !$0.folders.isEmpty }) else {
      return Found()
    }
    let helper = HelperTool.localize(command: "bundlekit strings export")
    let program: String
    do {
      program = try helper.path()
    } catch {
      warnings.append(
        Diagnostic(
          .warning, path: nil, "the strings of Swift code are not exported: \(helper.howToGet)"))
      return Found()
    }
    let run = ToolOutput.run(
      [program, "extract", "--format", "json"] + paths, capturingErrors: true)
    guard let run, run.status == 0,
      let list = try? JSONDecoder().decode([Extracted].self, from: run.output)
    else {
      warnings.append(
        Diagnostic(
          .warning, path: nil,
          "the strings of Swift code are not exported: bundlekit-localize extract failed\(run?.reason(of: "bundlekit-localize") ?? "")"
        ))
      return Found()
    }
    let cwd = FileManager.default.currentDirectoryPath
    func absolute(_ path: String) -> String {
      Paths.collapsed(path.hasPrefix("/") ? path : Paths.join(cwd, path))
    }
    // Each target's strings, by table.
    var byTarget: [Int: [String: [CatalogSync.CodeString]]] = [:]
    let absoluteTargets = targets.map { target in
      (
        sources: Set(target.sources.map(absolute)), folders: target.folders.map(absolute)
      )
    }
    for item in list {
      let path = absolute(item.file)
      let string = CatalogSync.CodeString(
        key: item.key, value: item.defaultValue == item.key ? nil : item.defaultValue,
        comment: item.comment, file: item.file, line: item.line, column: item.column)
      // A file compiled into several targets gives its strings to each, as Xcode's
      // extraction does per target.
      for (index, target) in absoluteTargets.enumerated()
      where target.sources.contains(path)
        || target.folders.contains(where: { path.hasPrefix($0 + "/") })
      {
        byTarget[index, default: [:]][item.table ?? "Localizable", default: []].append(string)
      }
    }
    var found = Found()
    for (index, tables) in byTarget.sorted(by: { $0.key < $1.key }) {
      let target = targets[index]
      var own = target.tables.compactMap(TableLocation.init(path:))
      if !target.folders.isEmpty { own += try TableDiscovery.tables(in: target.folders) }
      for (table, strings) in tables.sorted(by: { $0.key < $1.key }) {
        let named = own.filter { $0.table == table }
        let development =
          named.first { $0.kind == .strings && $0.language == developmentLanguage }
          ?? named.first { $0.kind == .strings && $0.language == "Base" }
        if let development {
          found.merged[absolute(development.path), default: []] += strings
          continue
        }
        // A catalog of its own is kept in step by the build (and `strings sync`); a table
        // in other languages only is not the development language's.
        guard named.isEmpty, target.prefersCatalogs, let folder = target.folders.first else {
          continue
        }
        let path = Paths.join(folder, "\(table).xcstrings")
        found.catalogs.append(
          LocalizationExchange.GeneratedTable(
            path: path,
            contents: try CatalogSync.newCatalog(
              at: path, sourceLanguage: developmentLanguage, with: strings)))
      }
    }
    return found
  }
}
