import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import Foundation
import OrderedCollections

/// The tables a catalog compiles to in one language, as `xcstringstool compile` writes them.
public struct CompiledTables: Sendable, Hashable {
  /// Plain strings: `<lang>.lproj/<Table>.strings`.
  public var strings: PropertyListDictionary = [:]
  /// Plural and device variations, substitutions: `<lang>.lproj/<Table>.stringsdict`.
  public var stringsdict: PropertyListDictionary = [:]
}

extension StringCatalog {
  /// Compiles the catalog for every language it has. A key with no localization in a
  /// language falls back to the source language, and without one there to the key itself;
  /// keys marked `shouldTranslate: false` use the source value everywhere.
  public func compile() -> OrderedDictionary<String, CompiledTables> {
    var result: OrderedDictionary<String, CompiledTables> = [:]
    for language in languages {
      var tables = CompiledTables()
      for (key, entry) in strings {
        let localization =
          entry.shouldTranslate
          ? entry.localizations[language] ?? entry.localizations[sourceLanguage]
          : entry.localizations[sourceLanguage]
        guard let localization else {
          tables.strings[key] = .string(key)
          continue
        }
        if localization.variations == nil, localization.substitutions.isEmpty {
          tables.strings[key] = .string(localization.stringUnit?.value ?? key)
        } else {
          tables.stringsdict[key] = .dictionary(Self.rules(for: localization, key: key))
        }
      }
      result[language] = tables
    }
    return result
  }

  /// The `.stringsdict` rule dictionary for a varied localization.
  static func rules(for localization: Localization, key: String) -> PropertyListDictionary {
    if let variations = localization.variations {
      switch variations.kind {
      case "device":
        var devices = PropertyListDictionary()
        for (device, variant) in variations.cases {
          if variant.variations == nil, variant.substitutions.isEmpty {
            devices[device] = .string(variant.stringUnit?.value ?? key)
          } else {
            devices[device] = .dictionary(rules(for: variant, key: key))
          }
        }
        return ["NSStringDeviceSpecificRuleType": .dictionary(devices)]
      default:
        let specifier = inferredSpecifier(variations) ?? "lld"
        return [
          "NSStringLocalizedFormatKey": "%#@format@",
          "format": .dictionary(pluralVariable(variations, specifier: specifier, argument: nil)),
        ]
      }
    }
    var arguments: [String: Int] = [:]
    for (name, substitution) in localization.substitutions {
      if let argument = substitution.argNum { arguments[name] = argument }
    }
    var result: PropertyListDictionary = [
      "NSStringLocalizedFormatKey": .string(
        positioned(localization.stringUnit?.value ?? key, arguments: arguments))
    ]
    for (name, substitution) in localization.substitutions {
      guard let variations = substitution.variations else { continue }
      result[name] = .dictionary(
        pluralVariable(
          variations, specifier: substitution.formatSpecifier, argument: substitution.argNum))
    }
    return result
  }

  /// The format with explicit positions when its substitutions are not in their arguments'
  /// order: Foundation gives `%#@name@` the next argument in turn, so in
  /// `%#@participants@ %#@posts@` with `participants` argNum 2, each variable would choose
  /// its plural form by the other number. Written then as Xcode does,
  /// `%2$#@participants@ %1$#@posts@`, every placeholder with its position. A format already
  /// in order, or that numbers its own placeholders, is left as it is.
  static func positioned(_ format: String, arguments: [String: Int]) -> String {
    guard !arguments.isEmpty else { return format }
    // Each placeholder: its range, whether it names its position, its variable, and the
    // argument it takes in turn.
    var placeholders: [(range: Range<String.Index>, explicit: Bool, variable: String?, next: Int)] =
      []
    var next = 0
    var index = format.startIndex
    while let percent = format[index...].firstIndex(of: "%") {
      var cursor = format.index(after: percent)
      guard cursor < format.endIndex else { break }
      if format[cursor] == "%" {
        index = format.index(after: cursor)
        continue
      }
      let digits = format[cursor...].prefix { $0.isASCII && $0.isNumber }
      var explicit = false
      if !digits.isEmpty, format[format.index(cursor, offsetBy: digits.count)...].hasPrefix("$") {
        explicit = true
        cursor = format.index(cursor, offsetBy: digits.count + 1)
      }
      next += 1
      if format[cursor...].hasPrefix("#@"),
        let close = format[format.index(cursor, offsetBy: 2)...].firstIndex(of: "@")
      {
        let name = String(format[format.index(cursor, offsetBy: 2)..<close])
        let end = format.index(after: close)
        placeholders.append((percent..<end, explicit, name, next))
        index = end
        continue
      }
      // An ordinary conversion: flags, width, precision, length, then its letter.
      let modifiers: Set<Character> = Set("-+ #0'123456789.*hlqLztj")
      while cursor < format.endIndex, modifiers.contains(format[cursor]) {
        cursor = format.index(after: cursor)
      }
      guard cursor < format.endIndex, format[cursor].isLetter || format[cursor] == "@" else {
        index = cursor
        continue
      }
      let end = format.index(after: cursor)
      placeholders.append((percent..<end, explicit, nil, next))
      index = end
    }
    guard !placeholders.contains(where: \.explicit) else { return format }
    let inOrder = placeholders.allSatisfy { placeholder in
      placeholder.variable.flatMap { arguments[$0] }.map { $0 == placeholder.next } ?? true
    }
    guard !inOrder else { return format }
    var result = ""
    var last = format.startIndex
    for placeholder in placeholders {
      result += format[last..<placeholder.range.lowerBound]
      let position = placeholder.variable.flatMap { arguments[$0] } ?? placeholder.next
      result +=
        "%\(position)$"
        + format[format.index(after: placeholder.range.lowerBound)..<placeholder.range.upperBound]
      last = placeholder.range.upperBound
    }
    result += format[last...]
    return result
  }

  /// A plural variable; `%arg` in the cases becomes the substitution's own argument.
  private static func pluralVariable(_ variations: Variations, specifier: String, argument: Int?)
    -> PropertyListDictionary
  {
    var variable: PropertyListDictionary = [
      "NSStringFormatSpecTypeKey": "NSStringPluralRuleType",
      "NSStringFormatValueTypeKey": .string(specifier),
    ]
    let placeholder = argument.map { "%\($0)$\(specifier)" } ?? "%\(specifier)"
    for (category, variant) in variations.cases {
      let text = variant.stringUnit?.value ?? ""
      variable[category] = .string(text.replacingOccurrences(of: "%arg", with: placeholder))
    }
    return variable
  }

  /// The numeric placeholder of a plural variation's `other` case (`lld` in "%lld items").
  private static func inferredSpecifier(_ variations: Variations) -> String? {
    let sample =
      variations.cases["other"]?.stringUnit?.value ?? variations.cases.values.first?.stringUnit?
      .value ?? ""
    guard
      let number = FormatSpecifier.parse(sample).first(where: {
        $0.kind == .signedInteger || $0.kind == .unsignedInteger || $0.kind == .double
      })
    else {
      return nil
    }
    return number.length + String(number.text.last ?? "d")
  }
}
