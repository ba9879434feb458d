/// The normalised texts of one language behind an inverted trigram index: the embedded
/// backends' fuzzy lookup, and a PostgreSQL replica's once it has built one (`pg_trgm` finds
/// the same candidates).
///
/// A query reads only the posting lists of its own trigrams, and of those only the texts whose
/// size could still reach the minimum score: texts are kept in order of their bigram count, so
/// that window is one range and every posting list is sorted by it. Counting the query's
/// trigrams over those lists gives each text's exact shared-trigram count, which decides
/// ``TrigramFilter/passes(_:_:)`` without comparing sets; the survivors are scored by
/// ``BigramProfile``. The answers are those of scanning every text (``FuzzyCandidate/score``),
/// which the tests check.
///
/// Skipping the most common lists (prefix filtering) was tried and measured 2.4 times slower on
/// a million texts: it reads fewer postings, but completing the count of each text that might
/// still pass is a cache miss or two, for tens of thousands of texts.
package struct FuzzyIndex: Sendable {
  /// The texts, in ascending order of bigram count.
  private let texts: [String]
  /// Each text's bigram count, ascending as `texts`.
  private let bigramCounts: [Int32]
  /// Each text's distinct trigram count.
  private let trigramCounts: [UInt16]
  /// Every text's sorted bigrams, one after another; text `i`'s are
  /// `bigrams[bigramStarts[i]..<bigramStarts[i + 1]]`.
  private let bigrams: [UInt64]
  private let bigramStarts: [Int]
  /// The posting lists: the texts holding dense trigram `t` are
  /// `postings[postingStarts[t]..<postingStarts[t + 1]]`, ascending.
  private let postings: [UInt32]
  private let postingStarts: [Int]

  package init(texts unsorted: [String]) {
    let profiles = unsorted.map(BigramProfile.init(normalized:))
    let order = unsorted.indices.sorted {
      profiles[$0].bigrams.count != profiles[$1].bigrams.count
        ? profiles[$0].bigrams.count < profiles[$1].bigrams.count : $0 < $1
    }
    texts = order.map { unsorted[$0] }
    bigramCounts = order.map { Int32(profiles[$0].bigrams.count) }
    var bigrams: [UInt64] = []
    var bigramStarts = [0]
    bigramStarts.reserveCapacity(order.count + 1)
    for index in order {
      bigrams += profiles[index].bigrams
      bigramStarts.append(bigrams.count)
    }
    self.bigrams = bigrams
    self.bigramStarts = bigramStarts

    // Two passes, counting then filling, so each list comes out in text order.
    var trigrams: [UInt16] = []
    var trigramStarts = [0]
    trigramStarts.reserveCapacity(texts.count + 1)
    var listSizes = [Int](repeating: 0, count: TrigramFilter.denseCount + 1)
    for text in texts {
      for trigram in TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(text)) {
        let dense = TrigramFilter.dense(trigram)
        trigrams.append(UInt16(dense))
        listSizes[dense + 1] += 1
      }
      trigramStarts.append(trigrams.count)
    }
    for index in 1..<listSizes.count { listSizes[index] += listSizes[index - 1] }
    postingStarts = listSizes
    var next = listSizes
    var postings = [UInt32](repeating: 0, count: trigrams.count)
    for textIndex in texts.indices {
      for position in trigramStarts[textIndex]..<trigramStarts[textIndex + 1] {
        let dense = Int(trigrams[position])
        postings[next[dense]] = UInt32(textIndex)
        next[dense] += 1
      }
    }
    self.postings = postings
    trigramCounts = texts.indices.map { UInt16(trigramStarts[$0 + 1] - trigramStarts[$0]) }
  }

  /// Up to `limit` texts scoring at least `minimumScore` against `query`, best first.
  package func best(for query: String, minimumScore: Double, limit: Int) -> [FuzzyCandidate] {
    let profile = BigramProfile(normalized: query)
    let queryTrigrams = TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(query))
    guard !queryTrigrams.isEmpty else { return [] }  // nothing passes the trigram filter
    let window = sizeWindow(for: profile, minimumScore: minimumScore)
    guard !window.isEmpty else { return [] }
    // A byte counts the shared trigrams of most queries: half the memory to sweep.
    return queryTrigrams.count <= Int(UInt8.max)
      ? best(profile, queryTrigrams, window, minimumScore, limit, counter: UInt8.self)
      : best(profile, queryTrigrams, window, minimumScore, limit, counter: UInt16.self)
  }

  private func best<Counter: FixedWidthInteger & UnsignedInteger>(
    _ profile: BigramProfile, _ queryTrigrams: [UInt32], _ window: Range<Int>,
    _ minimumScore: Double, _ limit: Int, counter: Counter.Type
  ) -> [FuzzyCandidate] {
    // Shared trigrams of every text in the window, from the query's posting lists. (Counting
    // block by block, to keep the counters in the nearest cache, measured slower: each list is
    // one forward sweep, which the prefetcher already follows.)
    var shared = [Counter](repeating: 0, count: window.count)
    let base = window.lowerBound
    postings.withUnsafeBufferPointer { postings in
      shared.withUnsafeMutableBufferPointer { shared in
        for trigram in queryTrigrams {
          let dense = TrigramFilter.dense(trigram)
          let list = postingStarts[dense]..<postingStarts[dense + 1]
          let start = Self.firstPosting(atLeast: window.lowerBound, in: postings, list)
          let end = Self.firstPosting(atLeast: window.upperBound, in: postings, list)
          for position in start..<end { shared[Int(postings[position]) - base] &+= 1 }
        }
      }
    }

    var found: [FuzzyCandidate] = []
    let queryCount = queryTrigrams.count
    // Passing needs shared·(d + n) ≥ n·(query + own) ≥ n·(query + shared) for the threshold
    // n/d, so shared ≥ ⌈n·query/d⌉: one comparison rules out most texts before their own
    // count is read.
    let numerator = TrigramFilter.thresholdNumerator
    let denominator = TrigramFilter.thresholdDenominator
    let least = Counter((numerator * queryCount + denominator - 1) / denominator)
    trigramCounts.withUnsafeBufferPointer { trigramCounts in
      bigrams.withUnsafeBufferPointer { bigrams in
        for offset in shared.indices where shared[offset] >= least {
          let index = base + offset
          let common = Int(shared[offset])
          let union = queryCount + Int(trigramCounts[index]) - common
          guard
            common * TrigramFilter.thresholdDenominator
              >= union * TrigramFilter.thresholdNumerator
          else { continue }
          let score = profile.similarity(
            toSorted: UnsafeBufferPointer(
              rebasing: bigrams[bigramStarts[index]..<bigramStarts[index + 1]]))
          if score >= minimumScore {
            found.append(FuzzyCandidate(text: texts[index], score: score))
          }
        }
      }
    }
    return FuzzyCandidate.best(found, limit: limit)
  }

  /// The texts whose size alone lets them reach `minimumScore`: one range, since the texts are
  /// in order of size and the best possible score rises to the query's size, then falls.
  private func sizeWindow(for profile: BigramProfile, minimumScore: Double) -> Range<Int> {
    let size = profile.bigrams.count
    func possible(_ count: Int32) -> Bool {
      profile.bestPossibleSimilarity(toCount: Int(count)) >= minimumScore
    }
    let lower = bigramCounts.partitionPoint { $0 >= size || possible($0) }
    let upper = bigramCounts.partitionPoint { $0 > size && !possible($0) }
    return lower..<max(lower, upper)
  }

  /// The first position in `list` whose text is at least `text` (lists are ascending).
  private static func firstPosting(
    atLeast text: Int, in postings: UnsafeBufferPointer<UInt32>, _ list: Range<Int>
  ) -> Int {
    var low = list.lowerBound
    var high = list.upperBound
    while low < high {
      let middle = (low + high) / 2
      if Int(postings[middle]) < text { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

extension Array {
  /// The first index whose element satisfies `predicate`, which must be false then true along
  /// the array.
  fileprivate func partitionPoint(where predicate: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if predicate(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
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

  /// Scores `texts` (candidates from an index, or a whole language) against `query` one by
  /// one: the definition ``FuzzyIndex`` answers by.
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
