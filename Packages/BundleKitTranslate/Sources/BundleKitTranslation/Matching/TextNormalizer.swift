/// Text reduced to what a person reads as the same words: lower case, punctuation and symbols
/// dropped, runs of white space made one space, trimmed. `"Hello,  World!"` and `"hello world"`
/// normalise alike.
public enum TextNormalizer {
  /// The normalised form of `text`.
  public static func normalize(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.lowercased().unicodeScalars {
      let properties = scalar.properties
      if properties.isWhitespace {
        pendingSpace = !result.isEmpty
        continue
      }
      // Letters, marks and digits are the words; everything else (punctuation, symbols,
      // format characters such as `%@`'s `%`) is noise for matching.
      let category = properties.generalCategory
      switch category {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber,
        .otherNumber:
        if pendingSpace {
          result.append(" ")
          pendingSpace = false
        }
        result.append(scalar)
      default:
        // Punctuation between words still separates them ("on/off" → "on off").
        pendingSpace = !result.isEmpty
      }
    }
    return String(result)
  }
}
