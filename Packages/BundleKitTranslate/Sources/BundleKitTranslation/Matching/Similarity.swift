/// How alike two normalised texts are, from 0 (nothing shared) to 1 (the same): the
/// Sørensen–Dice coefficient over character bigrams, which is forgiving of word order and
/// small edits and cheap enough to compare a query against every source text in a memory.
public struct BigramProfile: Sendable, Hashable {
  /// The text's bigrams, each packed in 64 bits, sorted (repeats kept).
  let bigrams: [UInt64]

  /// The profile of an already normalised text.
  public init(normalized text: String) {
    // One pass over the scalars with the one before in hand (no array of them first). A text
    // of one scalar is its own profile; an empty one has none.
    var pairs = [UInt64]()
    pairs.reserveCapacity(text.utf8.count)
    var previous: UInt32?
    for scalar in text.unicodeScalars {
      if let previous { pairs.append(UInt64(previous) << 32 | UInt64(scalar.value)) }
      previous = scalar.value
    }
    if pairs.isEmpty {
      bigrams = previous.map { [UInt64($0)] } ?? []
      return
    }
    pairs.sort()
    bigrams = pairs
  }

  /// Dice similarity with `other`: twice the shared bigrams over the total.
  public func similarity(to other: BigramProfile) -> Double {
    other.bigrams.withUnsafeBufferPointer { similarity(toSorted: $0) }
  }

  /// Dice similarity with a text whose sorted bigrams are `other` (a slice of an index).
  func similarity(toSorted other: UnsafeBufferPointer<UInt64>) -> Double {
    similarity(toSorted: other, atLeast: 0) ?? 0
  }

  /// ``similarity(toSorted:)`` when it is at least `minimum`, else nil. The merge stops as
  /// soon as the bigrams left could no longer bring the shared count to what `minimum`
  /// needs: most candidates an index scores fall short, and show it before the end.
  func similarity(toSorted other: UnsafeBufferPointer<UInt64>, atLeast minimum: Double)
    -> Double?
  {
    let total = bigrams.count + other.count
    guard total > 0 else { return 1 >= minimum ? 1 : nil }
    // The fewest shared bigrams whose score, computed as below, reaches `minimum`.
    func reaches(_ shared: Int) -> Bool { Double(2 * shared) / Double(total) >= minimum }
    guard reaches(min(bigrams.count, other.count)) else { return nil }
    var needed = 0
    if minimum > 0 {
      needed = min(bigrams.count, other.count, Int((minimum * Double(total) / 2).rounded(.up)))
      while needed > 0, reaches(needed - 1) { needed -= 1 }
      while !reaches(needed) { needed += 1 }
    }
    var shared = 0
    var left = 0
    var right = 0
    // Both sorted: one merge pass counts the multiset intersection. Without branches on the
    // comparison, which a processor cannot predict: each step moves past the smaller (both
    // when equal). The shared count can grow by at most the steps either side has left.
    let reached = bigrams.withUnsafeBufferPointer { bigrams -> Bool in
      while left < bigrams.count, right < other.count {
        if shared &+ min(bigrams.count &- left, other.count &- right) < needed { return false }
        let a = bigrams[left]
        let b = other[right]
        shared &+= a == b ? 1 : 0
        left &+= a <= b ? 1 : 0
        right &+= a >= b ? 1 : 0
      }
      return shared >= needed
    }
    return reached ? Double(2 * shared) / Double(total) : nil
  }

  /// The best similarity `other` could reach given only the two sizes, to skip hopeless
  /// candidates without comparing.
  func bestPossibleSimilarity(to other: BigramProfile) -> Double {
    bestPossibleSimilarity(toCount: other.bigrams.count)
  }

  /// The best similarity a text of `count` bigrams could reach.
  func bestPossibleSimilarity(toCount count: Int) -> Double {
    let total = bigrams.count + count
    guard total > 0 else { return 1 }
    return Double(2 * min(bigrams.count, count)) / Double(total)
  }
}
