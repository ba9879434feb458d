import BundleKitPropertyListCore
import Foundation

/// Pseudo-localization: a made-up language whose text is visibly transformed while every
/// placeholder, plural form and key stays as the development language has it, so a tester
/// sees untranslated (hard-coded) text, truncation and right-to-left layout before any
/// translator is involved. The default language is `qps-ploc`, the pseudo-locale Windows and
/// Android use.
public struct Pseudolocalizer: Sendable {
  /// How text is transformed.
  public enum Style: String, Sendable, CaseIterable {
    /// Letters accented, the text bracketed: `[Šéţţîñĝš]` (a bracket missing on screen is
    /// text cut off).
    case accented
    /// Accented and 40% longer, as German and Finnish often are: `[Šéţţîñĝš ~~~~]`.
    case long
    /// Each run of text between placeholders wrapped in a right-to-left override, so the
    /// layout mirrors as in Arabic or Hebrew.
    case rtl
  }

  /// The style.
  public var style: Style

  /// A pseudo-localizer of `style`.
  public init(style: Style) { self.style = style }

  /// `text` transformed; placeholders (`%@`, `%1$lld`, `%#@files@`, `%%`) kept as they are.
  public func transform(_ text: String) -> String {
    guard !text.isEmpty else { return text }
    var output = ""
    var letters = 0
    for segment in Self.segments(text) {
      switch segment {
      case .placeholder(let placeholder): output += placeholder
      case .text(let run):
        switch style {
        case .accented, .long:
          for scalar in run.unicodeScalars {
            if let accented = Self.accents[scalar] {
              output.unicodeScalars.append(accented)
              letters += 1
            } else {
              output.unicodeScalars.append(scalar)
              if CharacterSet.letters.contains(scalar) { letters += 1 }
            }
          }
        case .rtl:
          output += "\u{202E}" + run + "\u{202C}"
        }
      }
    }
    switch style {
    case .accented: return "[" + output + "]"
    case .long:
      let padding = max(1, (letters * 2 + 4) / 5)
      return "[" + output + " " + String(repeating: "~", count: padding) + "]"
    case .rtl: return output
    }
  }

  /// A piece of a format string.
  enum Segment: Equatable {
    case text(String)
    case placeholder(String)
  }

  /// `text` cut into runs of text and placeholders (printf's grammar, `%#@name@`, `%%`).
  static func segments(_ text: String) -> [Segment] {
    let scalars = Array(text.unicodeScalars)
    var segments: [Segment] = []
    var run = String.UnicodeScalarView()
    var index = 0
    func flush() {
      if !run.isEmpty { segments.append(.text(String(run))) }
      run = String.UnicodeScalarView()
    }
    while index < scalars.count {
      if scalars[index] == "%", let end = placeholderEnd(scalars, from: index) {
        flush()
        var placeholder = String.UnicodeScalarView()
        placeholder.append(contentsOf: scalars[index..<end])
        segments.append(.placeholder(String(placeholder)))
        index = end
      } else {
        run.append(scalars[index])
        index += 1
      }
    }
    flush()
    return segments
  }

  /// Where the placeholder starting at `start` (a `%`) ends, or nil when it is none.
  static func placeholderEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    var index = start + 1
    func at(_ offset: Int) -> Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }
    if at(index) == "%" { return index + 1 }
    if at(index) == "#", at(index + 1) == "@" {
      var end = index + 2
      while let scalar = at(end), scalar != "@" { end += 1 }
      return at(end) == "@" ? end + 1 : nil
    }
    func digits() { while let scalar = at(index), ("0"..."9").contains(scalar) { index += 1 } }
    // Position: digits and `$`.
    let beforePosition = index
    digits()
    if at(index) == "$" { index += 1 } else { index = beforePosition }
    while let scalar = at(index), "-+ #0'".unicodeScalars.contains(scalar) { index += 1 }
    if at(index) == "*" { index += 1 } else { digits() }
    if at(index) == "." {
      index += 1
      if at(index) == "*" { index += 1 } else { digits() }
    }
    for length in ["hh", "ll", "h", "l", "q", "L", "z", "t", "j"] {
      let lengthScalars = Array(length.unicodeScalars)
      if index + lengthScalars.count <= scalars.count,
        Array(scalars[index..<(index + lengthScalars.count)]) == lengthScalars
      {
        index += lengthScalars.count
        break
      }
    }
    guard let conversion = at(index), "@dDiuUxXoOfFeEgGcCsSpaA".unicodeScalars.contains(conversion)
    else { return nil }
    return index + 1
  }

  /// ASCII letters and their accented forms.
  static let accents: [Unicode.Scalar: Unicode.Scalar] = {
    let plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    let accented = "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
    var map: [Unicode.Scalar: Unicode.Scalar] = [:]
    for (from, to) in zip(plain.unicodeScalars, accented.unicodeScalars) { map[from] = to }
    return map
  }()
}
