import BundleKitCodeGeneration
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import Mustache
import OrderedCollections

/// Generates typed Swift accessors for strings tables: a property per plain string, a
/// function with typed, labelled parameters per format string (`%@` String, `%d` Int, `%u`
/// UInt, `%f` Double, plural variables Int), grouped by table and by dotted key segments,
/// with the development-language value as documentation. The code is rendered from a
/// Mustache template and is the same, byte for byte, for the same input.
public struct AccessorGenerator: Sendable {
  /// The access level of generated declarations.
  public enum AccessLevel: String, Sendable, CaseIterable {
    /// Visible in the module only.
    case `internal`
    /// Visible to the module's clients.
    case `public`
  }

  /// The language whose values document the accessors and define their arguments.
  public var developmentLanguage = "en"
  /// The name of the top-level enum.
  public var enumName = "L10n"
  /// The access level of the generated declarations.
  public var accessLevel = AccessLevel.internal
  /// The expression for the bundle holding the tables.
  public var bundle = "Bundle.module"
  /// A private class the template declares for `bundle` to find its module's bundle with
  /// `Bundle(for:)` (Xcode targets, which have no `Bundle.module`); nil for none.
  public var bundleToken: String?

  /// A generator with the default settings.
  public init() {}

  /// One key of one table, ready for the template.
  struct Key {
    var table: String
    var key: String
    var value: String
    var arguments: [FormatSpecifier.Kind]
    var comment: String?
  }

  /// The keys of the development language of every table in `loaded`, in table and file order.
  /// A key whose value has a placeholder Swift cannot pass (`%s` an app feeds to its own
  /// parser), or that is marked as text (`bundlekit:not-format`), gets an accessor without
  /// arguments that returns the text as it is; the first kind is reported to `warning`.
  func keys(_ loaded: StringsTableSet, warning: (Diagnostic) -> Void = { _ in })
    -> [Key]
  {
    var byTable: OrderedDictionary<String, OrderedDictionary<String, Key>> = [:]
    func add(_ key: Key, path: String, line: Int?, notFormat: Bool = false) {
      var key = key
      if notFormat {
        key.arguments = []
      } else if let unsupported = key.arguments.first(where: {
        StringsLinter.unsafeKinds.contains($0)
      }) {
        warning(
          Diagnostic(
            .warning, .unsafePlaceholder, path, line: line,
            "\"\(key.key)\": a \(unsupported) placeholder cannot be passed from Swift: the accessor returns the text unformatted (mark the key /* bundlekit:not-format */ to say so)"
          ))
        key.arguments = []
      }
      byTable[key.table, default: [:]][key.key] = key
    }
    for location in loaded.locations
    where location.language == nil || location.language == developmentLanguage
      || location.language == "Base"
    {
      if let file = loaded.strings[location] {
        let notFormat = file.notFormatKeys
        for entry in file.entries {
          guard case .string(let value) = entry.value else { continue }
          add(
            Key(
              table: location.table, key: entry.key, value: value,
              arguments: Self.arguments(of: value), comment: entry.comment), path: file.path,
            line: entry.line, notFormat: notFormat(entry.key))
        }
      }
      if let file = loaded.stringsdicts[location] {
        let lines = file.keyLines()
        for (key, rules) in file.entries {
          let format = rules["NSStringLocalizedFormatKey"]?.stringValue ?? ""
          add(
            Key(
              table: location.table, key: key, value: format,
              arguments: Self.arguments(of: format, rules: rules.dictionaryValue ?? [:]),
              comment: nil), path: file.path, line: lines.line(of: key))
        }
      }
    }
    for location in loaded.locations {
      guard let catalog = loaded.catalogs[location] else { continue }
      let lines = catalog.keyLines()
      for (key, entry) in catalog.strings {
        let localization = entry.localizations[catalog.sourceLanguage]
        let signature = StringsLinter.signature(of: localization, key: key) ?? FormatSignature(key)
        let value =
          localization?.stringUnit?.value ?? localization?.variations?.cases["other"]?.stringUnit?
          .value ?? key
        let kinds = (1...max(signature.count, 1)).compactMap {
          signature.arguments[$0]?.first?.kind
        }
        add(
          Key(
            table: location.table, key: key, value: value,
            arguments: signature.count == 0 ? [] : kinds, comment: entry.comment),
          path: catalog.path, line: lines.line(of: key),
          notFormat: StringsLinter.marksNotFormat(entry.comment))
      }
    }
    return byTable.values.flatMap(\.values)
  }

  /// The argument kinds by position (plural variables are integers or doubles as their
  /// value type says).
  static func arguments(of format: String, rules: PropertyListDictionary = [:]) -> [FormatSpecifier
    .Kind]
  {
    var kinds: [Int: FormatSpecifier.Kind] = [:]
    for specifier in FormatSpecifier.parse(format) {
      if let name = specifier.variable {
        let valueType = rules[name]?["NSStringFormatValueTypeKey"]?.stringValue ?? "d"
        kinds[specifier.position] =
          FormatSpecifier.parse("%" + valueType).first?.kind ?? .signedInteger
      } else if kinds[specifier.position] == nil {
        kinds[specifier.position] = specifier.kind
      }
    }
    guard let last = kinds.keys.max() else { return [] }
    return (1...last).map { kinds[$0] ?? .object }
  }

  /// Renders the accessors with a template.
  ///
  /// - Parameters:
  ///   - loaded: The tables, read once by ``StringsTableSet/load(_:)``.
  ///   - template: The main Mustache template.
  ///   - partials: The templates it includes (`namespace` for the recursive grouping).
  ///   - warning: Hears keys that get an accessor without arguments although their text has
  ///     placeholders (`%s`, which Swift cannot pass safely).
  /// - Returns: The Swift source.
  /// - Throws: ``DiagnosticsError`` for a template that does not parse or render.
  public func generate(
    _ loaded: StringsTableSet, template: String, partials: [String: String],
    warning: (Diagnostic) -> Void = { _ in }
  ) throws(DiagnosticsError) -> String {
    let keys = keys(loaded, warning: warning)
    var library = MustacheLibrary()
    do {
      for (name, text) in partials.sorted(by: { $0.key < $1.key }) {
        try library.register(text, named: name)
      }
      try library.register(template, named: "main")
    } catch {
      throw DiagnosticsError([Diagnostic(.error, .template, "template", "\(error)")])
    }
    var tables: [[String: Any]] = []
    var grouped: OrderedDictionary<String, [Key]> = [:]
    for key in keys { grouped[key.table, default: []].append(key) }
    for (table, tableKeys) in grouped {
      var context: [String: Any] = ["table": table, "typeName": Identifier.typeName(table)]
      context.merge(namespace(tableKeys, depth: 0, indent: "    ")) { $1 }
      tables.append(context)
    }
    var root: [String: Any] = [
      "enumName": enumName, "accessLevel": accessLevel.rawValue, "bundle": bundle, "tables": tables,
    ]
    if let bundleToken { root["bundleToken"] = bundleToken }
    guard let output = library.render(root, withTemplate: "main") else {
      throw DiagnosticsError([
        Diagnostic(.error, .template, "template", "the template could not be rendered")
      ])
    }
    return Self.tidy(output)
  }

  /// Entries and child namespaces for keys grouped by their dotted segments.
  private func namespace(_ keys: [Key], depth: Int, indent: String) -> [String: Any] {
    var entries: [[String: Any]] = []
    var children: OrderedDictionary<String, [Key]> = [:]
    var usedNames: Set<String> = []
    for key in keys {
      let segments = key.key.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
      if segments.count > depth + 1, depth < 6 {
        children[Identifier.typeName(segments[depth]), default: []].append(key)
      } else {
        let rest = segments.count > depth ? segments[depth...].joined(separator: "_") : key.key
        var name = Identifier.memberName(rest)
        while usedNames.contains(name) { name += "_" }
        usedNames.insert(name)
        var fields = entry(key, name: name)
        fields["indent"] = indent
        entries.append(fields)
      }
    }
    return [
      "entries": entries,
      "children": children.map { child in
        ["typeName": child.key, "indent": indent].merging(
          namespace(child.value, depth: depth + 1, indent: indent + "  ")
        ) { $1 }
      },
    ]
  }

  private func entry(_ key: Key, name: String) -> [String: Any] {
    let types = key.arguments.map(Self.swiftType)
    var doc = Identifier.commentLines(key.value)
    if let comment = key.comment, !comment.isEmpty {
      doc += [""] + Identifier.commentLines(comment).filter { !$0.isEmpty }.map { "- Note: " + $0 }
    }
    return [
      "name": Identifier.escapeKeyword(name),
      "docLines": doc,
      "hasArguments": !types.isEmpty,
      "parameters": types.enumerated().map { "_ p\($0.offset + 1): \($0.element)" }.joined(
        separator: ", "),
      "arguments": types.indices.map { "p\($0 + 1)" }.joined(separator: ", "),
      "tableLiteral": Identifier.stringLiteral(key.table),
      "keyLiteral": Identifier.stringLiteral(key.key),
    ]
  }

  static func swiftType(_ kind: FormatSpecifier.Kind) -> String {
    switch kind {
    case .signedInteger, .variable: "Int"
    case .unsignedInteger: "UInt"
    case .double: "Double"
    default: "String"
    }
  }

  /// Trailing spaces off every line, and no run of blank lines, whatever the template does.
  static func tidy(_ text: String) -> String {
    var lines: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var trimmed = line
      while trimmed.last == " " { trimmed = trimmed.dropLast() }
      if trimmed.isEmpty, lines.last?.isEmpty == true { continue }
      lines.append(trimmed)
    }
    while lines.first?.isEmpty == true { lines.removeFirst() }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n") + "\n"
  }
}
