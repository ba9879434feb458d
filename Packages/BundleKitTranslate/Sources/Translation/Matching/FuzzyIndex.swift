/// The normalised texts of one language with their bigram profiles, to find the texts most
/// like a query.
struct FuzzyIndex: Sendable {
  private let texts: [String]
  private let profiles: [BigramProfile]

  init(texts: [String]) {
    self.texts = texts
    profiles = texts.map(BigramProfile.init(normalized:))
  }

  /// Up to `limit` texts scoring at least `minimumScore` against `query`, best first.
  func best(for query: String, minimumScore: Double, limit: Int) -> [(String, Double)] {
    let profile = BigramProfile(normalized: query)
    var found: [(String, Double)] = []
    for index in profiles.indices {
      let candidate = profiles[index]
      // Sizes alone rule most texts out before any comparison.
      guard profile.bestPossibleSimilarity(to: candidate) >= minimumScore else { continue }
      let score = profile.similarity(to: candidate)
      if score >= minimumScore { found.append((texts[index], score)) }
    }
    found.sort { ($1.1, $0.0) < ($0.1, $1.0) }
    return Array(found.prefix(limit))
  }
}
