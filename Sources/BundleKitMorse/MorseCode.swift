/// The Morse code of ITU-R M.1677-1: letters, digits, punctuation and service signals.
public enum MorseCode {
  /// Characters and their codes (dots and dashes).
  public static let table: [Character: String] = [
    "A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.", "H": "....",
    "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.", "O": "---", "P": ".--.",
    "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-", "V": "...-", "W": ".--", "X": "-..-",
    "Y": "-.--", "Z": "--..", "É": "..-..",
    "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....",
    "7": "--...",
    "8": "---..", "9": "----.", "0": "-----",
    ".": ".-.-.-", ",": "--..--", ":": "---...", "?": "..--..", "'": ".----.", "-": "-....-",
    "/": "-..-.", "(": "-.--.", ")": "-.--.-", "\"": ".-..-.", "=": "-...-", "+": ".-.-.",
    "@": ".--.-.",
  ]

  /// The service signals of ITU-R M.1677-1 (those that are not also characters).
  public enum Signal: String, Sendable, CaseIterable {
    /// Error: eight dots; the last character is withdrawn.
    case error = "........"
    /// Understood: ...-.
    case understood = "...-."
    /// Wait: .-...
    case wait = ".-..."
    /// End of work: ...-.-
    case endOfWork = "...-.-"
    /// Starting signal: -.-.-
    case startingSignal = "-.-.-"

    /// How the signal is written in decoded text (prosign notation).
    public var text: String {
      switch self {
      case .error: "<HH>"
      case .understood: "<SN>"
      case .wait: "<AS>"
      case .endOfWork: "<SK>"
      case .startingSignal: "<KA>"
      }
    }
  }

  /// Codes to characters.
  public static let decodeTable: [String: Character] = {
    var result: [String: Character] = [:]
    for (character, code) in table { result[code] = character }
    return result
  }()

  /// The code of a character (case-insensitive; `×` is `x`, `é` and `É` alike); nil when it
  /// has none.
  public static func code(for character: Character) -> String? {
    if character == "×" { return table["X"] }
    return table[Character(String(character).uppercased())]
  }

  /// What a code can still become: every character or signal whose code starts with `prefix`,
  /// shortest first.
  public static func completions(of prefix: String) -> [(code: String, text: String)] {
    var result: [(String, String)] = table.filter { $0.value.hasPrefix(prefix) }.map {
      ($0.value, String($0.key))
    }
    result += Signal.allCases.filter { $0.rawValue.hasPrefix(prefix) }.map {
      ($0.rawValue, $0.text)
    }
    return result.sorted { ($0.0.count, $0.0) < ($1.0.count, $1.0) }
  }
}
