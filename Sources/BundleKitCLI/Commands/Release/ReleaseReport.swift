import FileSystem
import Foundation
import PropertyListXML
import Versioning

#if canImport(Glibc)
  import Glibc
#endif

/// What a release run did, for people (text) and CI (JSON).
struct ReleaseReport {
  /// One archive written (or, in a dry run, that would be).
  struct Archive {
    var target: String
    var path: String
    var size: Int?
    var sha256: String?
  }

  var package: String
  var dryRun: Bool
  var tablesChecked = 0
  var errors = 0
  var warnings = 0
  var tablesCompiled = 0
  var bumped: [VersionBump.ValueChange] = []
  var archives: [Archive] = []

  var text: String {
    var lines = [
      dryRun ? "release of \(package) (dry run: nothing was changed)" : "release of \(package)",
      "checked:  \(tablesChecked) strings table\(tablesChecked == 1 ? "" : "s"), \(errors) errors, \(warnings) warning\(warnings == 1 ? "" : "s")",
      "compiled: \(tablesCompiled) binary property list\(tablesCompiled == 1 ? "" : "s") from the tables",
    ]
    if bumped.isEmpty { lines.append("bumped:   nothing") }
    for value in bumped {
      lines.append(
        "bumped:   \(value.key) \(value.old) -> \(value.new) (\(value.bundles.joined(separator: ", ")))"
      )
    }
    for archive in archives {
      if let size = archive.size, let sha256 = archive.sha256 {
        lines.append("written:  \(archive.path) (\(size) bytes, sha256 \(sha256))")
      } else {
        lines.append("would write: \(archive.path)")
      }
    }
    return lines.joined(separator: "\n")
  }

  var json: PropertyListValue {
    var root: PropertyListDictionary = [
      "package": .string(package), "dryRun": .bool(dryRun),
      "checked": .dictionary([
        "tables": .int(tablesChecked), "errors": .int(errors), "warnings": .int(warnings),
      ]),
      "compiled": .int(tablesCompiled),
    ]
    root["bumped"] = .array(
      bumped.map { value in
        .dictionary([
          "key": .string(value.key), "old": .string(value.old), "new": .string(value.new),
          "bundles": .array(value.bundles.map { .string($0) }),
        ])
      })
    root["archives"] = .array(
      archives.map { archive in
        var entry: PropertyListDictionary = [
          "target": .string(archive.target), "path": .string(archive.path),
        ]
        if let size = archive.size { entry["size"] = .int(size) }
        if let sha256 = archive.sha256 { entry["sha256"] = .string(sha256) }
        return .dictionary(entry)
      })
    return .dictionary(root)
  }
}

/// Step-by-step progress on standard error, only when it is a terminal.
final class ReleaseProgress {
  private let enabled = Diagnostics.colorsAllowed(on: STDERR_FILENO)
  private let steps: Int
  private var done = 0

  init(steps: Int) { self.steps = steps }

  func step(_ label: String) {
    done += 1
    guard enabled else { return }
    Diagnostics.writeToStandardError("\r\u{1B}[2K[\(done)/\(steps)] \(label)…")
  }

  func finish() {
    if enabled { Diagnostics.writeToStandardError("\r\u{1B}[2K") }
  }
}
