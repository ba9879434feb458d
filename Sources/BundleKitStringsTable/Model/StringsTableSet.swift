import BundleKitDiagnostics

/// Strings tables read from disk once, ready to lint, compile, generate accessors from,
/// measure and pseudo-localise: what every command that reads tables reads them through.
/// Files that failed to parse are left out and reported in ``diagnostics``.
public struct StringsTableSet: Sendable {
  /// Every table that was asked for, in order.
  public var locations: [TableLocation] = []
  /// The `.strings` files that parsed.
  public var strings: [TableLocation: StringsFile] = [:]
  /// The `.stringsdict` files that parsed.
  public var stringsdicts: [TableLocation: StringsdictFile] = [:]
  /// The catalogs that parsed.
  public var catalogs: [TableLocation: StringCatalog] = [:]
  /// Parse errors, each naming its file, line and column.
  public var diagnostics: [Diagnostic] = []

  /// A set of the tables at `locations`, none read yet.
  public init(locations: [TableLocation] = []) {
    self.locations = locations
  }

  /// Reads every table at `locations` once, as ``TableDiscovery`` finds them.
  public static func load(_ locations: [TableLocation]) -> StringsTableSet {
    var loaded = StringsTableSet(locations: locations)
    for location in locations {
      do {
        switch location.kind {
        case .strings: loaded.strings[location] = try StringsFile(contentsOfFile: location.path)
        case .stringsdict:
          loaded.stringsdicts[location] = try StringsdictFile(contentsOfFile: location.path)
        case .catalog: loaded.catalogs[location] = try StringCatalog(contentsOfFile: location.path)
        }
      } catch {
        loaded.diagnostics.append(StringsLinter.diagnostic(for: error, path: location.path))
      }
    }
    return loaded
  }
}
