import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitPropertyListCore
import OrderedCollections

/// A String Catalog (`.xcstrings`): every key with its localizations in every language.
public struct StringCatalog: Sendable {
  /// The language the keys and source values are written in.
  public var sourceLanguage: String
  /// The catalog format version.
  public var version: String
  /// The entries, in file order.
  public var strings: OrderedDictionary<String, Entry>
  /// The file's path, for diagnostics.
  public var path: String
  private var bytes: [UInt8]
  /// The file's bytes as read (a writer that keeps Xcode's layout starts from them).
  public var contents: [UInt8] { bytes }
  /// Keys the file holds twice in one object (a bad merge): the last one is read, as
  /// Xcode reads it; lint warns at the second.
  package var duplicateKeys: [JSONPropertyListReader.DuplicateKey] = []

  /// One key of the catalog.
  public struct Entry: Sendable, Hashable {
    /// The developer's comment for translators.
    public var comment: String?
    /// `manual`, `extracted_with_value`, `stale` ...
    public var extractionState: String?
    /// False for keys that must not be translated: every language uses the source value.
    public var shouldTranslate: Bool
    /// The localizations by language.
    public var localizations: OrderedDictionary<String, Localization>
  }

  /// A value in one language: a plain string unit, variations, or a string with substitutions.
  public struct Localization: Sendable, Hashable {
    /// The string, when the value is not varied (or the format holding the substitutions).
    public var stringUnit: StringUnit?
    /// Plural or device variations.
    public var variations: Variations?
    /// `%#@name@` substitutions used by `stringUnit`'s value.
    public var substitutions: OrderedDictionary<String, Substitution>
  }

  /// A translated string and its review state.
  public struct StringUnit: Sendable, Hashable {
    /// `translated`, `needs_review`, `new`, `stale`.
    public var state: String
    /// The text.
    public var value: String
  }

  /// Cases of a variation: plural categories or devices, each a localization of its own (so
  /// variations nest: a device case may vary by plural).
  public struct Variations: Sendable, Hashable {
    /// `plural` or `device`.
    public var kind: String
    /// The cases in file order (`one`, `other` ...; `iphone`, `mac`, `other` ...).
    public var cases: OrderedDictionary<String, Localization>
  }

  /// A `%#@name@` substitution: which argument it counts, its format, its plural cases.
  public struct Substitution: Sendable, Hashable {
    /// The 1-based argument it takes, when given.
    public var argNum: Int?
    /// The format of the argument, such as `lld`.
    public var formatSpecifier: String
    /// The plural cases.
    public var variations: Variations?
  }

  /// Reads a catalog file.
  public init(contentsOfFile path: String) throws(PropertyListError) {
    try self.init(
      bytes: PropertyListError.file { () throws(FileSystemError) in try FileIO.read(path) },
      path: path)
  }

  /// Parses a catalog's JSON; structural errors name the file and the key.
  public init(bytes: [UInt8], path: String) throws(PropertyListError) {
    self.path = path
    self.bytes = bytes
    let root: PropertyListValue
    do {
      (root, duplicateKeys) = try bytes.withUnsafeBytes { buffer in
        Result { () throws(PropertyListError) in
          try JSONPropertyListReader.readReportingDuplicates(buffer)
        }
      }.get()
    } catch {
      throw error.inFile(path)
    }
    guard case .dictionary(let top) = root else {
      throw .syntax(
        path: path, line: 1, column: 1, message: "a String Catalog must be a JSON object")
    }
    guard let source = top["sourceLanguage"]?.stringValue else {
      throw .syntax(path: path, line: 1, column: 1, message: "missing \"sourceLanguage\"")
    }
    guard LanguageName.isValid(source) else {
      throw .syntax(
        path: path, line: KeyLines(json: bytes).line(of: "sourceLanguage") ?? 1, column: 1,
        message: "\"sourceLanguage\" \(Self.quoted(source)) \(Self.notALanguage)")
    }
    sourceLanguage = source
    version = top["version"]?.stringValue ?? "1.0"
    strings = [:]
    guard let entries = top["strings"]?.dictionaryValue else { return }
    for (key, value) in entries {
      strings[key] = try Self.entry(value, key: key, path: path, bytes: bytes)
    }
  }

  /// The line where `key` appears in the file.
  public func line(of key: String) -> Int? {
    keyLines().line(of: key)
  }

  /// The line of every key, found in one pass: for callers that ask for many.
  public func keyLines() -> KeyLines { KeyLines(json: bytes) }

  /// Every language the catalog has, source language first.
  public var languages: [String] {
    TableLayout.catalogLanguages(
      source: sourceLanguage, keyLanguages: strings.values.map { Array($0.localizations.keys) })
  }

  private static func entry(_ value: PropertyListValue, key: String, path: String, bytes: [UInt8])
    throws(PropertyListError) -> Entry
  {
    guard case .dictionary(let object) = value else {
      throw invalid(path, bytes, key, "must be an object")
    }
    var localizations: OrderedDictionary<String, Localization> = [:]
    if let all = object["localizations"] {
      guard case .dictionary(let byLanguage) = all else {
        throw invalid(path, bytes, key, "\"localizations\" must be an object")
      }
      for (language, localization) in byLanguage {
        guard LanguageName.isValid(language) else {
          throw invalid(
            path, bytes, key, "localization \(quoted(language)) \(notALanguage)")
        }
        localizations[language] = try Self.localization(
          localization, key: key, path: path, bytes: bytes)
      }
    }
    return Entry(
      comment: object["comment"]?.stringValue,
      extractionState: object["extractionState"]?.stringValue,
      shouldTranslate: object["shouldTranslate"]?.boolValue ?? true, localizations: localizations)
  }

  private static func localization(
    _ value: PropertyListValue, key: String, path: String, bytes: [UInt8]
  ) throws(PropertyListError) -> Localization {
    guard case .dictionary(let object) = value else {
      throw invalid(path, bytes, key, "a localization must be an object")
    }
    var result = Localization(stringUnit: nil, variations: nil, substitutions: [:])
    if let unit = object["stringUnit"] {
      guard let value = unit["value"]?.stringValue else {
        throw invalid(path, bytes, key, "a \"stringUnit\" needs a string \"value\"")
      }
      result.stringUnit = StringUnit(
        state: unit["state"]?.stringValue ?? "translated", value: value)
    }
    if let variations = object["variations"] {
      result.variations = try Self.variations(variations, key: key, path: path, bytes: bytes)
    }
    if let substitutions = object["substitutions"] {
      guard case .dictionary(let byName) = substitutions else {
        throw invalid(path, bytes, key, "\"substitutions\" must be an object")
      }
      for (name, substitution) in byName {
        guard case .dictionary(let fields) = substitution else {
          throw invalid(path, bytes, key, "substitution '\(name)' must be an object")
        }
        result.substitutions[name] = Substitution(
          argNum: fields["argNum"]?.int64Value.map { Int($0) },
          formatSpecifier: fields["formatSpecifier"]?.stringValue ?? "lld",
          variations: try fields["variations"].map { (v) throws(PropertyListError) in
            try Self.variations(v, key: key, path: path, bytes: bytes)
          })
      }
    }
    return result
  }

  private static func variations(
    _ value: PropertyListValue, key: String, path: String, bytes: [UInt8]
  ) throws(PropertyListError) -> Variations {
    guard case .dictionary(let object) = value, object.count == 1,
      let (kind, cases) = object.elements.first,
      case .dictionary(let byCase) = cases
    else {
      throw invalid(
        path, bytes, key, "\"variations\" must hold one object, \"plural\" or \"device\"")
    }
    var result = Variations(kind: kind, cases: [:])
    for (name, localization) in byCase {
      result.cases[name] = try Self.localization(localization, key: key, path: path, bytes: bytes)
    }
    return result
  }

  static let notALanguage =
    "is no language (a BCP 47 tag: letters, digits, - and _), and would be a folder name"

  /// `text` in quotes, cut short: a name from a stranger's file in a message.
  static func quoted(_ text: String) -> String {
    let shown = text.unicodeScalars.count <= 40 ? text : String(text.prefix(37)) + "..."
    return "'\(shown)'"
  }

  private static func invalid(_ path: String, _ bytes: [UInt8], _ key: String, _ message: String)
    -> PropertyListError
  {
    .syntax(
      path: path, line: KeyLines(json: bytes).line(of: key) ?? 1, column: 1,
      message: "\"\(key)\": \(message)")
  }
}
