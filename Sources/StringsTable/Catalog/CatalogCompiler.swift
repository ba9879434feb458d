import FileSystem
import Foundation
import Localization
import OrderedCollections
import PropertyListXML

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
    var result: PropertyListDictionary = [
      "NSStringLocalizedFormatKey": .string(localization.stringUnit?.value ?? key)
    ]
    for (name, substitution) in localization.substitutions {
      guard let variations = substitution.variations else { continue }
      result[name] = .dictionary(
        pluralVariable(
          variations, specifier: substitution.formatSpecifier, argument: substitution.argNum))
    }
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
