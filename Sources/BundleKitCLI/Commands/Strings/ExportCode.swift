import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyListCore
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
      let list = try? JSONSerialization.jsonObject(with: run.output) as? [[String: Any]]
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
      guard let key = item["key"] as? String, let file = item["file"] as? String else { continue }
      let path = absolute(file)
      guard
        let index = absoluteTargets.firstIndex(where: { target in
          target.sources.contains(path) || target.folders.contains { path.hasPrefix($0 + "/") }
        })
      else { continue }
      let value = item["defaultValue"] as? String
      let string = CatalogSync.CodeString(
        key: key, value: value == key ? nil : value, comment: item["comment"] as? String,
        file: file, line: item["line"] as? Int ?? 1, column: item["column"] as? Int ?? 1)
      byTarget[index, default: [:]][item["table"] as? String ?? "Localizable", default: []]
        .append(string)
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
        let empty = try StringCatalog(
          bytes: Array(
            "{\n  \"sourceLanguage\" : \(JSONEscaping.quoted(developmentLanguage)),\n  \"strings\" : {\n\n  },\n  \"version\" : \"1.0\"\n}"
              .utf8), path: Paths.join(folder, "\(table).xcstrings"))
        let synced = try CatalogSync.sync(empty, with: strings)
        found.catalogs.append(
          LocalizationExchange.GeneratedTable(path: empty.path, contents: synced.bytes))
      }
    }
    return found
  }
}
