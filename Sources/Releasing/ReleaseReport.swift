import Foundation
import PropertyList
import Versioning

/// What a release run did, for people (text) and CI (JSON).
public struct ReleaseReport: Sendable {
  /// One archive written (or, in a dry run, that would be).
  public struct Archive: Sendable, Hashable {
    /// The target whose resources it holds.
    public var target: String
    /// Where it is (or would be) written.
    public var path: String
    /// Its size in bytes; nil in a dry run.
    public var size: Int?
    /// Its SHA-256, in hexadecimal; nil in a dry run.
    public var sha256: String?
  }

  /// The package folder.
  public var package: String
  /// Whether nothing was changed.
  public var dryRun: Bool
  /// The strings tables linted.
  public var tablesChecked = 0
  /// Lint errors found (the run stops at the first step when there are any).
  public var errors = 0
  /// Lint warnings found.
  public var warnings = 0
  /// Binary property lists compiled from the tables.
  public var tablesCompiled = 0
  /// The values raised (or, in a dry run, that would be).
  public var bumped: [VersionBump.ValueChange] = []
  /// The archives written.
  public var archives: [Archive] = []
  /// The languages left out of a target's archive (`--prune-below`).
  public var pruned: [Pruned] = []

  /// A language left out of one target's archive, with the share it had translated.
  public struct Pruned: Sendable, Hashable {
    /// The target.
    public var target: String
    /// The language.
    public var language: String
    /// The share of the development language's keys it translates (0...1).
    public var share: Double
  }

  /// The report for people, a line per fact.
  public var text: String {
    var lines = [
      dryRun ? "release of \(package) (dry run: nothing was changed)" : "release of \(package)",
      "checked:  \(tablesChecked) strings table\(tablesChecked == 1 ? "" : "s"), \(errors) errors, \(warnings) warning\(warnings == 1 ? "" : "s")",
      "compiled: \(tablesCompiled) binary property list\(tablesCompiled == 1 ? "" : "s") from the tables",
    ]
    for language in pruned {
      lines.append(
        "pruned:   \(language.language) from \(language.target) (\(String(format: "%.1f", language.share * 100))% translated)"
      )
    }
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

  /// The report for CI, as a property-list value to encode as JSON.
  public var json: PropertyListValue {
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
    if !pruned.isEmpty {
      root["pruned"] = .array(
        pruned.map {
          .dictionary([
            "target": .string($0.target), "language": .string($0.language),
            "share": .real($0.share),
          ])
        })
    }
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
