import Diagnostics
import FileSystem
import Localization
import Mustache
import OrderedCollections
import PropertyListXML

/// Generates typed Swift accessors for strings tables: a property per plain string, a
/// function with typed, labelled parameters per format string (`%@` String, `%d` Int, `%u`
/// UInt, `%f` Double, plural variables Int), grouped by table and by dotted key segments,
/// with the development-language value as documentation. The code is rendered from a
/// Mustache template and is the same, byte for byte, for the same input.
public struct AccessorGenerator: Sendable {
  /// The language whose values document the accessors and define their arguments.
  public var developmentLanguage = "en"
  /// The name of the top-level enum.
  public var enumName = "L10n"
  /// `internal` or `public`.
  public var accessLevel = "internal"
  /// The expression for the bundle holding the tables.
  public var bundle = "Bundle.module"

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
  func keys(_ loaded: StringsLinter.LoadedTables, warning: (Diagnostic) -> Void = { _ in })
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

  /// Renders the accessors with a template; `partials` are the templates it includes
  /// (`namespace` for the recursive grouping). Keys that get an accessor without arguments
  /// although their text has placeholders are reported to `warning`.
  public func generate(
    _ loaded: StringsLinter.LoadedTables, template: String, partials: [String: String],
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
    let root: [String: Any] = [
      "enumName": enumName, "accessLevel": accessLevel, "bundle": bundle, "tables": tables,
    ]
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

/// Swift identifiers and literals for generated code: names from keys and file names, as
/// SwiftGen forms them.
public enum Identifier {
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init",
    "inout", "internal", "let", "open", "operator", "private", "protocol", "public", "static",
    "struct",
    "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
    "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as",
    "catch", "false", "is", "nil", "rethrows", "super", "self", "Self", "throw", "throws", "true",
    "try",
    "Type", "Protocol", "any", "some",
  ]

  /// Words of a key segment: split at anything not a letter or digit.
  static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    for character in text {
      if character.isLetter || character.isNumber {
        current.append(character)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  static func typeName(_ text: String) -> String {
    let name = words(text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return prefixed(name.isEmpty ? "Key" : name)
  }

  /// A lower-camel-case member name: `welcome.title` → `welcomeTitle`, `URL path` →
  /// `urlPath`; `_` before a leading digit.
  public static func memberName(_ text: String) -> String {
    let parts = words(text)
    guard let first = parts.first else { return "key" }
    let head =
      first == first.uppercased()
      ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
    return prefixed(
      head + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
  }

  private static func prefixed(_ name: String) -> String {
    name.first?.isNumber == true ? "_" + name : name
  }

  /// The name in backticks when it is a Swift keyword.
  public static func escapeKeyword(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// Why `name` cannot name a generated type as it is, or nil when it can: a letter or `_`,
  /// then letters, digits and `_`, and not a keyword.
  public static func typeNameProblem(_ name: String) -> String? {
    if let first = name.first, first.isLetter || first == "_",
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !keywords.contains(name)
    {
      return nil
    }
    return "'\(name)' is not a Swift type name: letters, digits and _, not a digit first, "
      + "not a keyword"
  }

  /// Text as the lines of a `///` comment: split where Swift would end a line (`\n`, `\r`,
  /// `\r\n`), other control characters shown escaped, so no text can end the comment and
  /// become code.
  public static func commentLines(_ text: String) -> [String] {
    text.replacingOccurrences(of: "\r\n", with: "\n").split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }
    ).map { commentText(String($0)) }
  }

  /// Text for one line of a `///` comment: line breaks and other control characters shown
  /// escaped (`\n`, `\u{7}`), everything else as it is.
  public static func commentText(_ text: String) -> String {
    escaped(text, forLiteral: false)
  }

  /// A Swift string literal: quotes, backslashes and control characters escaped.
  public static func stringLiteral(_ text: String) -> String {
    "\"" + escaped(text, forLiteral: true) + "\""
  }

  /// Line breaks and control characters (C0, C1, the Unicode line and paragraph separators)
  /// escaped; for a literal, quotes, backslashes and tabs too.
  private static func escaped(_ text: String, forLiteral: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"" where forLiteral: result += "\\\""
      case "\\" where forLiteral: result += "\\\\"
      case "\t" where forLiteral: result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
          || scalar == "\u{2028}" || scalar == "\u{2029}"
        {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

}
