import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation

/// Fills the translations a package's tables lack: every key of the development language's
/// `.strings` and `.stringsdict` tables and every catalog entry, in each language asked for.
///
/// Translations come from translation memories (the package's own tables are always one) and
/// then from a LibreTranslate provider. Files keep their encoding and format: `.strings` text
/// is appended in the file's encoding with a "needs review" comment; XML `.stringsdict`
/// entries are inserted with an XML comment; catalog units are added with the state
/// `needs_review`. Writes are atomic, all files as one batch.
public struct TableFiller: Sendable {
  /// The language whose tables are the source.
  public var developmentLanguage: String
  /// Memory files to draw from, besides the package's own tables.
  public var memoryPaths: [String]
  /// The provider asked for what no memory has.
  public var remote: LibreTranslateClient?

  /// A filler.
  public init(
    developmentLanguage: String = "en", memoryPaths: [String] = [],
    remote: LibreTranslateClient? = nil
  ) {
    self.developmentLanguage = developmentLanguage
    self.memoryPaths = memoryPaths
    self.remote = remote
  }

  /// Works out what filling `languages` in the package at `package` would write, writing
  /// nothing.
  public func plan(package: String, languages: [String]) async throws -> FillPlan {
    let development = LanguageTag.normalize(developmentLanguage) ?? developmentLanguage
    let targets = try languages.map { code -> String in
      guard let tag = LanguageTag.normalize(code), tag != "Base" else {
        throw TranslationError.invalidLanguage(code: code)
      }
      return tag
    }.filter { $0 != development }

    // The package's own tables are the first memory.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-fill-\(getpid())-\(UUID().uuidString).sqlite"
    ).path
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    _ = try MemoryBuilder(developmentLanguage: development).build(from: [package], to: scratch)
    var memories = [try TranslationMemory(path: scratch, preload: true)]
    for path in memoryPaths { memories.append(try TranslationMemory(path: path)) }

    let locations = try TableDiscovery.tables(in: [package])
    var jobs: [FileJob] = []
    // Tables in <lang>.lproj folders, grouped by bundle and table.
    let grouped = Dictionary(
      grouping: locations.filter { $0.kind != .catalog && $0.language != nil }
    ) {
      "\($0.bundleFolder)\u{0}\($0.kind.rawValue)\u{0}\($0.table)"
    }
    for groupKey in grouped.keys.sorted() {
      let group = grouped[groupKey] ?? []
      guard
        let source = group.first(where: {
          $0.language.flatMap(LanguageTag.normalize) == development
        })
      else { continue }
      for target in targets {
        let existing = group.first { $0.language.flatMap(LanguageTag.normalize) == target }
        let path =
          existing?.path
          ?? "\(source.bundleFolder)/\(target).lproj/\(source.table).\(source.kind.rawValue)"
        switch source.kind {
        case .strings:
          jobs.append(
            try StringsFill(
              source: source.path, target: path, language: target, table: source.table))
        case .stringsdict:
          jobs.append(
            try StringsdictFill(
              source: source.path, target: path, language: target, table: source.table))
        case .catalog: break
        }
      }
    }
    for location in locations where location.kind == .catalog {
      jobs.append(try CatalogFill(path: location.path, languages: targets, table: location.table))
    }

    let needs = jobs.flatMap(\.needs)
    let translations = FillTranslations(
      memories: memories, remote: remote, developmentLanguage: development)
    let (found, failures) = await translations.resolve(needs)
    var plan = FillPlan()
    for job in jobs {
      try job.apply(found: found, failures: failures, to: &plan)
    }
    return plan
  }

  /// Writes a plan's files, all or none.
  public static func write(_ plan: FillPlan) throws {
    for change in plan.changes where change.before == nil {
      try FileIO.createFolders(for: change.path)
    }
    try FileIO.writeAtomically(plan.changes.map { FileWrite(path: $0.path, bytes: $0.after) })
  }
}

/// The work for one file: what it needs translated, then its new bytes.
protocol FileJob {
  var needs: [FillNeed] { get }
  func apply(
    found: [FillNeed: (String, FillOrigin)], failures: [FillNeed: String], to plan: inout FillPlan)
    throws
}

/// A note the fill leaves on each entry it writes, for reviewers.
enum FillMark {
  static func text(_ origin: FillOrigin) -> String {
    switch origin {
    case .memory: "filled by bundlekit translate fill from the memory; needs review"
    case .provider: "filled by bundlekit translate fill from the provider; needs review"
    case .copied: "filled by bundlekit translate fill: placeholders only, copied"
    }
  }
}
