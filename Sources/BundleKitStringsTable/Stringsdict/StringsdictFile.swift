import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList

/// A `.stringsdict` file: for each key, a format with `%#@variable@` placeholders and the
/// plural (or width, or device) rules that fill them.
public struct StringsdictFile: Sendable {
  /// The file's path, for diagnostics.
  public var path: String
  /// The entries as stored: key to rule dictionary.
  public var entries: PropertyListDictionary
  /// The file's bytes, kept to point diagnostics at a key's line.
  private var bytes: [UInt8]

  /// The plural categories CLDR defines.
  public static let pluralCategories: Set<String> = ["zero", "one", "two", "few", "many", "other"]

  /// Reads a `.stringsdict` file (XML or binary).
  public init(contentsOfFile path: String) throws(PropertyListError) {
    let bytes = try PropertyListError.file { () throws(FileSystemError) in try FileIO.read(path) }
    try self.init(bytes: bytes, path: path)
  }

  /// Parses a `.stringsdict` file's bytes.
  public init(bytes: [UInt8], path: String) throws(PropertyListError) {
    self.path = path
    self.bytes = bytes
    let value: PropertyListValue
    do {
      value = try PropertyListValue(bytes: bytes)
    } catch {
      throw error.inFile(path)
    }
    guard case .dictionary(let entries) = value else {
      throw .syntax(
        path: path, line: 1, column: 1,
        message: "a .stringsdict must hold a dictionary, not a \(value.typeName)")
    }
    self.entries = entries
  }

  /// The line of `key`'s `<key>` element, when the file is XML.
  public func line(of key: String) -> Int? {
    keyLines().line(of: key)
  }

  /// The line of every key, found in one pass: for callers that ask for many.
  public func keyLines() -> KeyLines { KeyLines(xml: bytes) }

  /// Checks every entry the way Foundation will use it: the format key and its variables,
  /// plural rule dictionaries (`other` required, only CLDR categories), value types that
  /// plural rules can take, placeholder positions that agree, and width rules.
  /// `language` (the table's, nil when unknown) decides which plural forms are needed.
  public func validate(language: String? = nil) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let lines = keyLines()
    for (key, value) in entries {
      let line = lines.line(of: key)
      func report(_ severity: Diagnostic.Severity, _ message: String) {
        diagnostics.append(
          Diagnostic(severity, .pluralRules, path, line: line, "\"\(key)\": \(message)"))
      }
      guard case .dictionary(let rules) = value else {
        report(.error, "expected a dictionary of rules, found a \(value.typeName)")
        continue
      }
      let hasFormat = rules["NSStringLocalizedFormatKey"] != nil
      if let widths = rules["NSStringVariableWidthRuleType"] {
        if hasFormat {
          report(
            .error,
            "has both NSStringVariableWidthRuleType and NSStringLocalizedFormatKey; use one or the other"
          )
        }
        guard case .dictionary(let byWidth) = widths else {
          report(.error, "NSStringVariableWidthRuleType must be a dictionary of widths to strings")
          continue
        }
        for (width, text) in byWidth {
          if Int(width) == nil {
            report(.error, "width '\(width)' in NSStringVariableWidthRuleType is not a number")
          }
          if text.stringValue == nil { report(.error, "width \(width) must map to a string") }
        }
        continue
      }
      if let devices = rules["NSStringDeviceSpecificRuleType"] {
        if devices.dictionaryValue == nil {
          report(
            .error, "NSStringDeviceSpecificRuleType must be a dictionary of devices to strings")
        }
        continue
      }
      guard let format = rules["NSStringLocalizedFormatKey"]?.stringValue else {
        report(.error, "missing NSStringLocalizedFormatKey (a string such as \"%#@count@\")")
        continue
      }
      diagnostics += validateFormat(
        format, rules: rules, key: key, line: line, language: language)
    }
    return diagnostics
  }

  private func validateFormat(
    _ format: String, rules: PropertyListDictionary, key: String, line: Int?, language: String?
  ) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    func report(
      _ severity: Diagnostic.Severity, _ message: String, _ rule: StringsRule = .pluralRules
    ) {
      diagnostics.append(Diagnostic(severity, rule, path, line: line, "\"\(key)\": \(message)"))
    }
    var effective: [FormatSpecifier] = []
    var used: Set<String> = []
    // Variables may nest: a form can hold `%#@another@`. Walk them all, each once.
    var pending = FormatSpecifier.parse(format).map { ($0, true) }
    while !pending.isEmpty {
      let (specifier, isTopLevel) = pending.removeFirst()
      guard let name = specifier.variable else {
        if isTopLevel { effective.append(specifier) }
        continue
      }
      guard used.insert(name).inserted else { continue }
      guard case .dictionary(let variable)? = rules[name] else {
        report(.error, "the format uses %#@\(name)@ but no variable '\(name)' is defined")
        continue
      }
      let type = variable["NSStringFormatSpecTypeKey"]?.stringValue
      guard type == "NSStringPluralRuleType" else {
        report(
          .error,
          "variable '\(name)' has NSStringFormatSpecTypeKey \(type.map { "'\($0)'" } ?? "missing"); expected NSStringPluralRuleType"
        )
        continue
      }
      guard let valueType = variable["NSStringFormatValueTypeKey"]?.stringValue else {
        report(
          .error, "variable '\(name)' has no NSStringFormatValueTypeKey (such as d, ld or lld)")
        continue
      }
      var argument = FormatSpecifier.parse("%" + valueType).first
      if let kind = argument?.kind, [.signedInteger, .unsignedInteger, .double].contains(kind) {
        argument?.position = specifier.position
        argument?.isPositional = specifier.isPositional
        argument?.text = "%#@\(name)@"
        if isTopLevel, let argument { effective.append(argument) }
      } else {
        report(
          .error,
          "variable '\(name)' has NSStringFormatValueTypeKey '\(valueType)'; plural rules need a number (d, ld, lld, u, f ...)"
        )
        argument = nil
      }
      let categories = Set(variable.keys).subtracting([
        "NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey",
      ])
      for category in categories.sorted() where !Self.pluralCategories.contains(category) {
        report(
          .error,
          "variable '\(name)' has '\(category)', which is not a plural category (zero, one, two, few, many, other)",
          .pluralForms)
      }
      let integersOnly = argument.map { $0.kind != .double } ?? false
      if let problem = PluralForms.problem(
        categories, language: language, integersOnly: integersOnly)
      {
        report(problem.severity, "variable '\(name)' \(problem.message)", .pluralForms)
      }
      for category in categories.sorted() where Self.pluralCategories.contains(category) {
        guard let text = variable[category]?.stringValue else {
          report(.error, "variable '\(name)' form '\(category)' must be a string")
          continue
        }
        // An unnumbered placeholder in a form ("%d items") stands for the variable's own
        // argument; a numbered one for that argument of the whole format.
        for inner in FormatSpecifier.parse(text) {
          if inner.variable != nil {
            pending.append((inner, false))
          } else if inner.isPositional {
            if isTopLevel { effective.append(inner) }
          } else if let argument, !inner.isCompatible(with: argument) {
            report(
              .error,
              "variable '\(name)' form '\(category)' uses \(inner.typeName) but NSStringFormatValueTypeKey is '\(valueType)'",
              .placeholderTypeConflict)
          }
        }
      }
    }
    let signature = FormatSignature(specifiers: effective)
    for conflict in signature.conflicts {
      let (position, first, other) = (conflict.position, conflict.first, conflict.other)
      report(
        .error, "argument \(position) is used as \(first.typeName) and as \(other.typeName)",
        .placeholderTypeConflict)
    }
    for message in signature.gapMessages {
      report(.warning, message + StringsLinter.literalPercentHint, .unusedArgument)
    }
    let unused = Set(rules.keys).subtracting(used).subtracting(["NSStringLocalizedFormatKey"])
    for name in unused.sorted() {
      report(
        .warning, "variable '\(name)' is defined but the format does not use it", .unusedVariable)
    }
    return diagnostics
  }
}
