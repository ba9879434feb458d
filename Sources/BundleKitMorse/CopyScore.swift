/// How well a copy matches what was sent: for practice apps scoring a learner, and for
/// measuring a decoder.
public enum CopyScore {
  /// The share of characters right: 1 minus the edit distance (insertions, deletions,
  /// substitutions) over the length of `sent`; 0 at worst.
  public static func accuracy(copied: String, sent: String) -> Double {
    let a = Array(copied)
    let b = Array(sent)
    guard !b.isEmpty else { return a.isEmpty ? 1 : 0 }
    var previous = Array(0...b.count)
    var current = previous
    for (i, x) in a.enumerated() {
      current[0] = i + 1
      for (j, y) in b.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return max(0, 1 - Double(previous[b.count]) / Double(b.count))
  }
}
