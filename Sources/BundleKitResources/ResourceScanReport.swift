// What `scan --format json` prints, and the comparison its text shares.

extension ResourceScan.Target {
  /// The keys each language of `table` lacks against `developmentLanguage`, sorted, by
  /// language: compared as sets, so one extra key does not hide one missing.
  public func missingKeys(of table: String, against developmentLanguage: String) -> [(
    language: String, keys: [String]
  )] {
    let languages = tableKeys[table] ?? [:]
    guard let reference = languages[developmentLanguage] else { return [] }
    return languages.sorted(by: { $0.key < $1.key }).compactMap { language, keys in
      guard language != developmentLanguage else { return nil }
      let lacking = reference.subtracting(keys)
      return lacking.isEmpty ? nil : (language, lacking.sorted())
    }
  }
}

extension ResourceScan {
  /// One target as `scan --format json` prints it.
  public struct Report: Encodable, Sendable {
    /// One table of the target.
    public struct Table: Encodable, Sendable {
      /// The kinds of file it is made of (`strings`, `stringsdict`, `xcstrings`).
      public var kinds: [String]
      /// Each language's key count, or `"unreadable"`.
      public var languages: [String: Count]
      /// How many keys each language lacks against the development language.
      public var missing: [String: Int]
      /// The keys each language lacks.
      public var missingKeys: [String: [String]]
    }

    /// A key count, or a table that could not be read.
    public enum Count: Encodable, Sendable {
      /// The table's number of keys.
      case keys(Int)
      /// The table could not be read.
      case unreadable

      /// The number, or the string `unreadable`.
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .keys(let count): try container.encode(count)
        case .unreadable: try container.encode("unreadable")
        }
      }
    }

    /// An Info.plist's versions (empty when absent).
    public struct InfoPlistRow: Encodable, Sendable {
      /// The file.
      public var path: String
      /// `CFBundleShortVersionString`, or empty.
      public var version: String
      /// `CFBundleVersion`, or empty.
      public var build: String
    }

    /// The target's name.
    public var name: String
    /// Its folder.
    public var path: String
    /// Its tables by name.
    public var tables: [String: Table]
    /// Its Info.plists.
    public var infoPlists: [InfoPlistRow]
    /// Static `.bundle` folders the build does not see.
    public var staticBundles: [String]
    /// Asset catalogs.
    public var assetCatalogs: [String]
    /// Images with their sizes.
    public var images: [ResourceScan.File]
    /// Other resources with their sizes.
    public var otherFiles: [ResourceScan.File]

    /// The row of `target`, missing keys counted against `developmentLanguage`.
    public init(_ target: ResourceScan.Target, developmentLanguage: String) {
      name = target.name
      path = target.path
      var tables: [String: Table] = [:]
      for (name, counts) in target.tables {
        let lacking = target.missingKeys(of: name, against: developmentLanguage)
        tables[name] = Table(
          kinds: (target.tableKinds[name] ?? []).sorted(),
          languages: counts.mapValues { $0.map(Count.keys) ?? .unreadable },
          missing: Dictionary(uniqueKeysWithValues: lacking.map { ($0.language, $0.keys.count) }),
          missingKeys: Dictionary(uniqueKeysWithValues: lacking.map { ($0.language, $0.keys) }))
      }
      self.tables = tables
      infoPlists = target.infoPlists.map {
        InfoPlistRow(path: $0.path, version: $0.version ?? "", build: $0.build ?? "")
      }
      staticBundles = target.staticBundles
      assetCatalogs = target.assetCatalogs
      images = target.images
      otherFiles = target.otherFiles
    }
  }

  /// Every target as `scan --format json` prints it.
  public var report: [Report] {
    targets.map { Report($0, developmentLanguage: developmentLanguage) }
  }
}
