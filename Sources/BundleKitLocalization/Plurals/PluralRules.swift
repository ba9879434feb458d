import Foundation

/// The CLDR plural categories.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
  /// Zero items, in languages that name it (Arabic, Welsh, Latvian ...).
  case zero
  /// One item (and, in some languages, more: French "0" and "1", Russian "21" ...).
  case one
  /// Two items (Arabic, Welsh, Slovenian ...).
  case two
  /// A few items (Russian and Polish "2-4", Arabic "3-10" ...).
  case few
  /// Many items (Russian and Polish "5-20", Arabic "11-99", French millions ...).
  case many
  /// Everything else; every language has it.
  case other
}

/// The operands CLDR plural rules test, taken from a number as written.
///
/// `n` is the absolute value, `i` its integer digits, `v` the number of visible fraction
/// digits and `f` those digits as an integer, `w` and `t` the same without trailing zeros, `e`
/// the compact exponent. "1" and "1.0" differ: in English the first is `one`, the second
/// `other`.
public struct PluralOperands: Sendable, Hashable {
  /// The absolute value.
  public var n: Double
  /// The integer digits.
  public var i: Int
  /// The number of visible fraction digits, trailing zeros included.
  public var v: Int
  /// The number of visible fraction digits, without trailing zeros.
  public var w: Int
  /// The visible fraction digits, trailing zeros included.
  public var f: Int
  /// The visible fraction digits, without trailing zeros.
  public var t: Int
  /// The compact decimal exponent (always 0 for plain numbers).
  public var e: Int = 0

  /// The operands of an integer.
  public init<Integer: BinaryInteger>(_ value: Integer) {
    let magnitude = value.magnitude
    i = Int(clamping: magnitude)
    n = Double(magnitude)
    v = 0
    w = 0
    f = 0
    t = 0
  }

  /// The operands of a floating-point number, written in its shortest form: a whole number
  /// counts as an integer (2.0 behaves like 2), others by their digits (1.5 has `v` = 1).
  public init(_ value: Double) {
    let magnitude = abs(value)
    if magnitude.rounded(.towardZero) == magnitude || !magnitude.isFinite {
      self.init(Int(exactly: magnitude.rounded(.towardZero)) ?? Int.max)
      n = magnitude
    } else {
      self.init(decimal: magnitude.description)
    }
  }

  /// The operands of a number written in decimal ("1", "1.50", "-3.2"); invalid text reads as 0.
  public init(decimal text: String) {
    var digits = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
    if digits.contains("e") || digits.contains("E") {
      // Exponent notation: expand through Double.
      digits = Decimal(string: digits).map { "\($0)" } ?? "0"
    }
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = parts.first.map(String.init) ?? "0"
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
    i = Int(integer.isEmpty ? "0" : integer) ?? Int.max
    v = fraction.count
    w = trimmed.count
    f = Int(fraction.prefix(18)) ?? 0
    t = Int(trimmed.prefix(18)) ?? 0
    n = Double(digits) ?? 0
  }
}

/// CLDR plural rules: which category a number falls in, per language.
public enum PluralRules {
  /// The category of `operands` in `language` (a BCP 47 or Apple code: `pt-PT`, `pt_BR`,
  /// `zh-Hans`). Languages without rules (Japanese, Chinese ...) always give `other`.
  public static func category(for operands: PluralOperands, language: String) -> PluralCategory {
    rule(for: language)(operands)
  }

  /// The category of an integer.
  public static func category<Integer: BinaryInteger>(for value: Integer, language: String)
    -> PluralCategory
  {
    category(for: PluralOperands(value), language: language)
  }

  /// The categories `language` uses, in CLDR order (`zero one two few many other`): what a
  /// plural rule dictionary for it should hold. Found by evaluating its rule on integers up
  /// to 1,000, a million and common decimals, which reach every category CLDR's samples do.
  public static func categories(for language: String) -> [PluralCategory] {
    let rule = rule(for: language)
    var found: Set<PluralCategory> = [.other]
    for value in 0...1000 { found.insert(rule(PluralOperands(value))) }
    for value in [1_000_000, 2_000_000, 1_000_001] { found.insert(rule(PluralOperands(value))) }
    for text in ["0.0", "0.1", "0.5", "1.0", "1.5", "2.5", "1.25", "1e6", "1.5c6"] {
      found.insert(rule(PluralOperands(decimal: text)))
    }
    return PluralCategory.allCases.filter(found.contains)
  }

  /// The categories `language` uses for whole numbers alone (Russian: one, few, many; its
  /// `other` is for fractions), with a whole number that falls in each.
  public static func integerCategories(for language: String) -> [PluralCategory: Int] {
    let rule = rule(for: language)
    var found: [PluralCategory: Int] = [:]
    for value in Array(0...1000) + [1_000_000, 2_000_000, 1_000_001] {
      let category = rule(PluralOperands(value))
      if found[category] == nil { found[category] = value }
    }
    return found
  }

  /// The rule function for a language: the most specific tag CLDR defines, else its language.
  static func rule(for language: String) -> @Sendable (PluralOperands) -> PluralCategory {
    let tag = language.replacingOccurrences(of: "_", with: "-")
    var candidate = tag
    while true {
      if let rule = byLanguage[candidate] { return rule }
      guard let dash = candidate.lastIndex(of: "-") else { break }
      candidate = String(candidate[..<dash])
    }
    return { _ in .other }
  }

  // Helpers for the generated rules.

  /// `x mod m` on the absolute value, as CLDR defines `mod`.
  @inline(__always)
  static func mod(_ x: Double, _ m: Double) -> Double { x.truncatingRemainder(dividingBy: m) }

  /// `x in lo..hi`: an integer value within the range.
  @inline(__always)
  static func isIntegral(_ x: Double, in range: ClosedRange<Int>) -> Bool {
    x.rounded(.towardZero) == x && x >= Double(range.lowerBound) && x <= Double(range.upperBound)
  }

  /// `x within lo..hi`: any value within the range.
  @inline(__always)
  static func isWithin(_ x: Double, _ range: ClosedRange<Int>) -> Bool {
    x >= Double(range.lowerBound) && x <= Double(range.upperBound)
  }
}
