/// The first cut of a fuzzy lookup, the same on every backend: a text is a candidate when its
/// trigram similarity to the query, as PostgreSQL's `pg_trgm` computes it, is at least
/// ``threshold``. Candidates are then scored by ``BigramProfile``.
///
/// `pg_trgm` splits words by the database's locale, which differs between servers (a `C`
/// database sees no letters outside ASCII at all). Both backends therefore read an ASCII
/// spelling of the normalised text (``encode(_:)``): ASCII letters and digits as they are,
/// every other letter, mark or number as four base-36 digits. On ASCII every locale agrees, so
/// the SQLite path, which computes the same similarity here, and PostgreSQL's index pick the
/// same candidates.
package enum TrigramFilter {
  /// The least trigram similarity of a candidate, as a fraction: 1/5.
  package static let thresholdNumerator = 1
  package static let thresholdDenominator = 5
  /// ``thresholdNumerator`` / ``thresholdDenominator``, for `pg_trgm.similarity_threshold`
  /// lowered a little, since PostgreSQL computes in single precision; the exact test is
  /// ``passes(_:_:)`` on what it returns.
  package static let databaseThreshold = 0.19

  private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

  /// The ASCII spelling of a normalised text that both backends take trigrams of.
  package static func encode(_ normalized: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(normalized.utf8.count)
    for scalar in normalized.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x30...0x39, 0x61...0x7A: bytes.append(UInt8(value))
      case 0x41...0x5A: bytes.append(UInt8(value + 0x20))
      case 0x20: bytes.append(0x20)
      case 0..<0x80: bytes.append(0x20)  // ASCII punctuation: a word break, as in pg_trgm
      default:
        var rest = Int(value)
        var encoded = [UInt8](repeating: 0x30, count: 4)
        for index in stride(from: 3, through: 0, by: -1) {
          encoded[index] = digits[rest % 36]
          rest /= 36
        }
        bytes += encoded
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The distinct trigrams of an encoded text, sorted, as `pg_trgm` makes them: each word
  /// padded with two spaces before and one after.
  ///
  /// One pass over the bytes with the two before each in hand, and the repeats dropped in
  /// place: no array a word (indexing a language's texts makes the trigrams of every one).
  package static func trigrams(ofEncoded text: String) -> [UInt32] {
    let space: UInt32 = 0x20
    var result: [UInt32] = []
    result.reserveCapacity(text.utf8.count + 1)
    // The two bytes before the next, packed (`space` twice at a word's start); a word is
    // under way when the last of them is not a space.
    var before = space << 8 | space
    for byte in text.utf8 {
      if byte == 0x20 {
        // A word's end: its last trigram, padded with one space.
        if before & 0xFF != space { result.append(before << 8 | space) }
        before = space << 8 | space
      } else {
        result.append(before << 8 | UInt32(byte))
        before = (before << 8 | UInt32(byte)) & 0xFFFF
      }
    }
    if before & 0xFF != space { result.append(before << 8 | space) }
    result.sort()
    var kept = 0
    for index in result.indices where kept == 0 || result[kept - 1] != result[index] {
      result[kept] = result[index]
      kept += 1
    }
    result.removeLast(result.count - kept)
    return result
  }

  /// How many dense trigram numbers there are: an encoded text has 37 characters (space,
  /// digits, letters), so a trigram packs into one of 37³ numbers, the index of its posting list.
  static let denseCount = 37 * 37 * 37

  /// The dense number of a trigram of an encoded text, below ``denseCount``.
  static func dense(_ trigram: UInt32) -> Int {
    func code(_ byte: UInt32) -> Int {
      switch byte {
      case 0x30...0x39: Int(byte - 0x30) + 1
      case 0x61...0x7A: Int(byte - 0x61) + 11
      default: 0  // the space that pads words
      }
    }
    return (code(trigram >> 16 & 0xFF) * 37 + code(trigram >> 8 & 0xFF)) * 37 + code(trigram & 0xFF)
  }

  /// Whether two trigram sets are alike enough: shared / (all distinct) ≥ the threshold,
  /// in whole numbers.
  package static func passes(_ left: [UInt32], _ right: [UInt32]) -> Bool {
    var shared = 0
    var l = 0
    var r = 0
    while l < left.count, r < right.count {
      if left[l] == right[r] {
        shared += 1
        l += 1
        r += 1
      } else if left[l] < right[r] {
        l += 1
      } else {
        r += 1
      }
    }
    let union = left.count + right.count - shared
    guard union > 0 else { return false }
    return shared * thresholdDenominator >= union * thresholdNumerator
  }
}
