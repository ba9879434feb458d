/// The normalised texts of one language with their trigram sets and bigram profiles, to find
/// the texts most like a query by scanning them all (the embedded backends' way; PostgreSQL
/// asks its `pg_trgm` index for the same candidates).
struct FuzzyIndex: Sendable {
  private let texts: [String]
  private let trigrams: [[UInt32]]
  private let profiles: [BigramProfile]

  init(texts: [String]) {
    self.texts = texts
    trigrams = texts.map { TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode($0)) }
    profiles = texts.map(BigramProfile.init(normalized:))
  }

  /// Up to `limit` texts scoring at least `minimumScore` against `query`, best first.
  func best(for query: String, minimumScore: Double, limit: Int) -> [FuzzyCandidate] {
    let profile = BigramProfile(normalized: query)
    let queryTrigrams = TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(query))
    var found: [FuzzyCandidate] = []
    for index in profiles.indices {
      let candidate = profiles[index]
      // Sizes alone rule most texts out before any comparison.
      guard profile.bestPossibleSimilarity(to: candidate) >= minimumScore,
        TrigramFilter.passes(queryTrigrams, trigrams[index])
      else { continue }
      let score = profile.similarity(to: candidate)
      if score >= minimumScore { found.append(FuzzyCandidate(text: texts[index], score: score)) }
    }
    return FuzzyCandidate.best(found, limit: limit)
  }
}

/// A text found by a fuzzy lookup and its similarity to the query.
package struct FuzzyCandidate: Sendable, Hashable {
  package var text: String
  package var score: Double

  package init(text: String, score: Double) {
    self.text = text
    self.score = score
  }

  /// The first `limit` of `candidates`, best score first, then by text: the one order every
  /// backend gives.
  package static func best(_ candidates: [FuzzyCandidate], limit: Int) -> [FuzzyCandidate] {
    Array(
      candidates.sorted {
        $0.score != $1.score
          ? $0.score > $1.score : $0.text.utf8.lexicographicallyPrecedes($1.text.utf8)
      }.prefix(limit))
  }

  /// Scores `texts` (candidates from an index) against `query` as ``FuzzyIndex`` does.
  package static func score(
    _ texts: [String], against query: String, minimumScore: Double, limit: Int
  ) -> [FuzzyCandidate] {
    let profile = BigramProfile(normalized: query)
    let queryTrigrams = TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(query))
    var found: [FuzzyCandidate] = []
    for text in Set(texts) {
      let candidate = BigramProfile(normalized: text)
      guard profile.bestPossibleSimilarity(to: candidate) >= minimumScore,
        TrigramFilter.passes(
          queryTrigrams, TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(text)))
      else { continue }
      let score = profile.similarity(to: candidate)
      if score >= minimumScore { found.append(FuzzyCandidate(text: text, score: score)) }
    }
    return best(found, limit: limit)
  }
}
