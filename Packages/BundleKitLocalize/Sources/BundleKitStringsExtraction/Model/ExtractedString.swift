/// One localizable string found in Swift source, as Xcode's extraction records it.
public struct ExtractedString: Sendable, Hashable, Encodable {
  /// The key as Xcode writes it in the catalog: the literal's text with each interpolation
  /// replaced by its format specifier (`"%lld files"`), `%` doubled where there are
  /// interpolations.
  public var key: String
  /// The development-language value when the code gives one apart from the key
  /// (`defaultValue:`, `value:`); nil when the key is the value.
  public var defaultValue: String?
  /// The comment for translators (`comment:`).
  public var comment: String?
  /// The table (`table:`, `tableName:`); nil for `Localizable`.
  public var table: String?
  /// The bundle expression as written (`.module`); nil for the main bundle.
  public var bundle: String?
  /// The file.
  public var file: String
  /// The 1-based line of the literal.
  public var line: Int
  /// The 1-based column of the literal.
  public var column: Int
  /// What it was found in: `Text`, `String(localized:)`, `.navigationTitle`, a function of
  /// the target's own ...
  public var source: String
  /// Whether an interpolation's type could not be told, so a `%@` of the key may be another
  /// specifier in Xcode's extraction (sync then takes a catalog key that differs only there).
  public var uncertainSpecifiers = false

  /// A string found at a place.
  public init(
    key: String, defaultValue: String? = nil, comment: String? = nil, table: String? = nil,
    bundle: String? = nil, file: String, line: Int, column: Int, source: String
  ) {
    self.key = key
    self.defaultValue = defaultValue
    self.comment = comment
    self.table = table
    self.bundle = bundle
    self.file = file
    self.line = line
    self.column = column
    self.source = source
  }

  /// The table's name as a catalog file is named: `Localizable` when none is given.
  public var tableName: String { table ?? "Localizable" }

  /// The development-language value: the default value, or the key itself.
  public var value: String { defaultValue ?? key }

  private enum CodingKeys: String, CodingKey {
    case key, value, defaultValue, comment, table, bundle, file, line, column, source
  }

  /// Every field, absent ones as `null`, plus `value` (the development-language text) and
  /// the table by name (`Localizable` when the code names none): the JSON `extract` prints.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(key, forKey: .key)
    try container.encode(value, forKey: .value)
    try container.encode(defaultValue, forKey: .defaultValue)
    try container.encode(comment, forKey: .comment)
    try container.encode(tableName, forKey: .table)
    try container.encode(bundle, forKey: .bundle)
    try container.encode(file, forKey: .file)
    try container.encode(line, forKey: .line)
    try container.encode(column, forKey: .column)
    try container.encode(source, forKey: .source)
  }
}
