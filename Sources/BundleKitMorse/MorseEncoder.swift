/// Text to Morse: durations for a given speed (optionally with Farnsworth spacing) or
/// dots and dashes.
public enum MorseEncoder {
  /// Dots and dashes: letters split by spaces, words by ` / `. Characters without a code
  /// are left out.
  public static func symbols(_ text: String) -> String {
    words(text).map { $0.joined(separator: " ") }.joined(separator: " / ")
  }

  /// Signed durations in milliseconds (+ key down, - key up) at `wpm` words per minute (PARIS
  /// timing: a dit is 1200 / wpm ms). With `farnsworth` (a lower overall speed), characters
  /// keep `wpm` and the gaps between them stretch.
  public static func durations(_ text: String, wpm: Double, farnsworth: Double? = nil) -> [Double] {
    let dit = 1200 / wpm
    var letterGap = 3 * dit
    var wordGap = 7 * dit
    if let overall = farnsworth, overall < wpm {
      // ARRL: the extra delay per standard word, spread over 19 gap units.
      let delay = (60 * wpm - 37.2 * overall) / (overall * wpm) * 1000
      letterGap = 3 * delay / 19
      wordGap = 7 * delay / 19
    }
    var result: [Double] = []
    for (wordIndex, word) in words(text).enumerated() {
      if wordIndex > 0 { result.append(-wordGap) }
      for (letterIndex, code) in word.enumerated() {
        if letterIndex > 0 { result.append(-letterGap) }
        for (symbolIndex, symbol) in code.enumerated() {
          if symbolIndex > 0 { result.append(-dit) }
          result.append(symbol == "." ? dit : 3 * dit)
        }
      }
    }
    return result
  }

  private static func words(_ text: String) -> [[String]] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map { word in
      word.compactMap { MorseCode.code(for: $0) }
    }.filter { !$0.isEmpty }
  }
}

/// Decodes dots-and-dashes text (`.- -...`, letters split by spaces, words by ` / `).
public enum MorseTextDecoder {
  /// The text of `symbols`; unknown sequences become `replacement`.
  public static func decode(_ symbols: String, replacement: String = "\u{FFFD}") -> String {
    var words: [String] = []
    for word in symbols.split(separator: "/") {
      var decoded = ""
      for code in word.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
        if let character = MorseCode.decodeTable[String(code)] {
          decoded.append(character)
        } else if code == MorseCode.Signal.error.rawValue {
          if !decoded.isEmpty { decoded.removeLast() }
        } else if let signal = MorseCode.Signal(rawValue: String(code)) {
          decoded += signal.text
        } else {
          decoded += replacement
        }
      }
      words.append(decoded)
    }
    return words.filter { !$0.isEmpty }.joined(separator: " ")
  }
}
