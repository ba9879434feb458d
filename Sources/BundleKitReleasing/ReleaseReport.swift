import BundleKitVersioning
import Foundation

/// What a release run did, for people (text) and CI (JSON).
public struct ReleaseReport: Sendable {
  /// One archive written (or, in a dry run, that would be).
  public struct Archive: Sendable, Hashable, Encodable {
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
  public struct Pruned: Sendable, Hashable, Encodable {
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
}

extension ReleaseReport: Encodable {
  private enum CodingKeys: String, CodingKey {
    case package, dryRun, checked, compiled, bumped, pruned, archives
  }

  private struct Checked: Encodable {
    var tables: Int
    var errors: Int
    var warnings: Int
  }

  private struct Bumped: Encodable {
    var key: String
    var old: String
    var new: String
    var bundles: [String]
  }

  /// The report for CI: `package`, `dryRun`, `checked` (`tables`, `errors`, `warnings`),
  /// `compiled`, `bumped`, `pruned` (when a language was left out) and `archives`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(package, forKey: .package)
    try container.encode(dryRun, forKey: .dryRun)
    try container.encode(
      Checked(tables: tablesChecked, errors: errors, warnings: warnings), forKey: .checked)
    try container.encode(tablesCompiled, forKey: .compiled)
    try container.encode(
      bumped.map { Bumped(key: $0.key, old: $0.old, new: $0.new, bundles: $0.bundles) },
      forKey: .bumped)
    if !pruned.isEmpty { try container.encode(pruned, forKey: .pruned) }
    try container.encode(archives, forKey: .archives)
  }
}
