/// A value read from a checkout, as tables, JSON and messages show it.
///
/// A version (`2.4.1`), or references to settings around version text (`$(inherited)`,
/// `1.$(BUILD)`), is shown whole: digits and setting names are no secrets. Anything else is
/// cut to a short excerpt, whatever file it came from: an `#include` or a `configFiles:` may
/// have brought in someone's credentials, and what is printed ends up in CI logs.
public enum ShownValue {
  /// How many characters of a value that is no version are shown.
  public static let excerptLength = 8

  /// `text` as it may be printed.
  public static func of(_ text: String) -> String {
    if isVersionLike(text) || isPrerelease(text) { return text }
    let count = text.count
    guard count > excerptLength else { return text }
    return String(text.prefix(excerptLength)) + "… (\(count) characters)"
  }

  /// Whether `text` reads as a version with a pre-release or build part (`2.7.0-beta.1`,
  /// `1.0b3`): at most 24 characters, a digit first, a period in it, only letters, digits,
  /// `.`, `-` and `+`.
  static func isPrerelease(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count <= 24, let first = bytes.first, first >= 0x30, first <= 0x39,
      bytes.contains(UInt8(ascii: "."))
    else { return false }
    return bytes.allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
        || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
    }
  }

  /// Whether `text` is version text around setting references, each part at most 64
  /// characters: `12`, `2.4.1`, `$(MARKETING_VERSION)`, `1.$(BUILD)`.
  static func isVersionLike(_ text: String) -> Bool {
    guard text.utf8.count <= 256, case .success(let expression) = SettingExpression.parse(text)
    else { return false }
    return expression.isVersionLike
  }
}

extension SettingExpression {
  /// Whether every text part is version text (digits, `.`, `-`, spaces) and every reference
  /// names a setting (letters, digits, `_`) with no operator.
  fileprivate var isVersionLike: Bool {
    parts.allSatisfy { part in
      switch part {
      case .text(let text):
        text.utf8.count <= 64
          && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
              || $0 == 0x20
          }
      case .reference(let name, let operators):
        operators.isEmpty && name.parts.count == 1
          && {
            guard case .text(let setting) = name.parts[0] else { return false }
            return !setting.isEmpty && setting.utf8.count <= 64
              && setting.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39)
                  || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
              }
          }()
      }
    }
  }
}
