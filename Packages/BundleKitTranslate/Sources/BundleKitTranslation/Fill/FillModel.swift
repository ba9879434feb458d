/// One text a fill needs: a development-language text to put into another language.
struct FillNeed: Hashable {
  var language: String
  var text: String
  var table: String
  var key: String
  var variant: String
}

/// Where a filled text came from.
public enum FillOrigin: String, Sendable, Hashable, Codable {
  /// A translation memory (the package's own tables, or a memory file given).
  case memory
  /// The remote provider.
  case provider
  /// Nothing to translate (a format made only of placeholders): the source as it is.
  case copied
}

/// An entry a fill wrote.
public struct FilledEntry: Sendable, Hashable, Codable {
  /// The file written.
  public var path: String
  /// The key.
  public var key: String
  /// The plural or device form, empty for a plain string.
  public var variant: String
  /// The language.
  public var language: String
  /// The text written.
  public var value: String
  /// Where it came from.
  public var origin: FillOrigin
}

/// An entry a fill could not fill, and why.
public struct UnfilledEntry: Sendable, Hashable, Codable {
  /// The file that lacks it.
  public var path: String
  /// The key.
  public var key: String
  /// The language.
  public var language: String
  /// Why it stays missing.
  public var reason: String
}

/// What a fill would write: new contents per file, and what it filled and could not.
public struct FillPlan: Sendable {
  /// A file's new bytes (and the old ones, for a diff; nil for a new file).
  public struct Change: Sendable {
    /// The file.
    public var path: String
    /// Its bytes before, nil when the fill creates it.
    public var before: [UInt8]?
    /// Its bytes after.
    public var after: [UInt8]
  }

  /// Files to write.
  public var changes: [Change] = []
  /// Entries filled.
  public var filled: [FilledEntry] = []
  /// Entries left missing.
  public var unfilled: [UnfilledEntry] = []
}
