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
/// The most common trigrams (a word's first letter, its common endings) are in a large share
/// of all texts; they are kept as bitmaps, and the counters are read eight at a time for the
/// few that reach the bound. On a million texts, that took a query from 5.2 to 3.0 ms (`perf`
/// had put most of it in those lists' sweeps and in the byte-by-byte read of the counters).
/// The bitmaps were then added to the counters; for most queries they are now counted 64
/// texts at a time where the counters are read (`scanLanes`): 2.36-2.46 -> 1.75 ms a query.
///
/// Skipping the most common lists (prefix filtering) was tried and measured 2.4 times slower on
/// a million texts: it reads fewer postings, but completing the count of each text that might
/// still pass is a cache miss or two, for tens of thousands of texts.
package struct FuzzyIndex: Sendable {
  /// The texts, in ascending order of bigram count.
  private let texts: [String]
  /// Each text's bigram count, ascending as `texts`.
  private let bigramCounts: [Int32]
  /// Every text's sorted bigrams, one after another.
  private let bigrams: [UInt64]
  /// Text `i`'s place in `bigrams` and its distinct trigram count in one word, what a
  /// candidate's check and score read (one cache miss, where two arrays cost two): its
  /// bigrams are `bigrams[spans[i] >> 16 ..< spans[i + 1] >> 16]`, its trigram count
  /// `spans[i] & 0xFFFF` (at most 37³ distinct trigrams: ``TrigramFilter/denseCount``).
  private let spans: [UInt64]
  /// The fewest distinct trigrams of the eight texts `8i..<8i + 8`: a text passes only if it
  /// shares `n/(d + n)` of the query's trigrams and its own (threshold `n/d`), so this gives
  /// the eight a bound on their shared count well above the one the query alone gives, and
  /// most texts are ruled out from their counter alone, before their own count is read (on a
  /// million texts, 48,000 counters reached the query's bound a query, and 1,000 passed).
  private let groupTrigramFloors: [UInt16]
  /// The fewest distinct trigrams of the 64 texts `64i..<64i + 64`, the bound of a whole
  /// bitmap word's texts.
  private let wordTrigramFloors: [UInt16]
  /// The posting lists: the texts holding dense trigram `t` are
  /// `postings[postingStarts[t]..<postingStarts[t + 1]]`, ascending. A common trigram's list
  /// is empty here: its texts are a bitmap.
  private let postings: [UInt32]
  private let postingStarts: [Int]
  /// The common trigrams' texts as bitmaps, one bit a text (text `i` is bit `i % 64` of word
  /// `i / 64`): trigram `t`'s are `bitmaps[w * bitmapWords..<(w + 1) * bitmapWords]` where
  /// `w = bitmapSlots[t]`, which is -1 for a trigram kept as a list.
  private let bitmaps: [UInt64]
  private let bitmapSlots: [Int32]
  private let bitmapWords: Int
  /// Every text's hash value, ascending: ``mayHold(_:)`` in a binary search, 8 bytes a text.
  private let textHashes: [Int]

  /// A trigram held by at least one text in this many is kept as a bitmap: at that density a
  /// bitmap is at most half the list's bytes, and adding it to the counters eight texts at a
  /// time (``byteLanes``) beats one increment per posting. (On a million texts, one in 8, 16
  /// and 32 measured alike; one in 128 slower.)
  static let bitmapDensity = 16

  package init(texts unsorted: [String]) {
    let profiles = unsorted.map(BigramProfile.init(normalized:))
    let order = unsorted.indices.sorted {
      profiles[$0].bigrams.count != profiles[$1].bigrams.count
        ? profiles[$0].bigrams.count < profiles[$1].bigrams.count : $0 < $1
    }
    texts = order.map { unsorted[$0] }
    textHashes = unsorted.map(\.hashValue).sorted()
    bigramCounts = order.map { Int32(profiles[$0].bigrams.count) }
    var bigrams: [UInt64] = []
    var bigramStarts = [0]
    bigramStarts.reserveCapacity(order.count + 1)
    for index in order {
      bigrams += profiles[index].bigrams
      bigramStarts.append(bigrams.count)
    }
    self.bigrams = bigrams

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
    let bitmapWords = (texts.count + 63) / 64
    var bitmapSlots = [Int32](repeating: -1, count: TrigramFilter.denseCount)
    var slots: Int32 = 0
    for dense in bitmapSlots.indices
    where listSizes[dense + 1] > 0 && listSizes[dense + 1] * Self.bitmapDensity >= texts.count {
      bitmapSlots[dense] = slots
      slots += 1
      listSizes[dense + 1] = 0
    }
    for index in 1..<listSizes.count { listSizes[index] += listSizes[index - 1] }
    postingStarts = listSizes
    var next = listSizes
    var postings = [UInt32](repeating: 0, count: listSizes[listSizes.count - 1])
    var bitmaps = [UInt64](repeating: 0, count: Int(slots) * bitmapWords)
    for textIndex in texts.indices {
      for position in trigramStarts[textIndex]..<trigramStarts[textIndex + 1] {
        let dense = Int(trigrams[position])
        let slot = Int(bitmapSlots[dense])
        if slot >= 0 {
          bitmaps[slot * bitmapWords + textIndex / 64] |= 1 << UInt64(textIndex % 64)
        } else {
          postings[next[dense]] = UInt32(textIndex)
          next[dense] += 1
        }
      }
    }
    self.postings = postings
    self.bitmaps = bitmaps
    self.bitmapSlots = bitmapSlots
    self.bitmapWords = bitmapWords
    let textCount = texts.count
    groupTrigramFloors = stride(from: 0, to: texts.count, by: 8).map { first in
      (first..<min(first + 8, textCount)).map { trigramStarts[$0 + 1] - trigramStarts[$0] }
        .min().map { UInt16(clamping: $0) } ?? 0
    }
    wordTrigramFloors = stride(from: 0, to: groupTrigramFloors.count, by: 8).map {
      [groupTrigramFloors] first in
      groupTrigramFloors[first..<min(first + 8, groupTrigramFloors.count)].min() ?? 0
    }
    spans = bigramStarts.indices.map { index in
      UInt64(bigramStarts[index]) << 16
        | (index < textCount
          ? UInt64(trigramStarts[index + 1] - trigramStarts[index]) & 0xFFFF : 0)
    }
  }

  /// Whether `text` may be one of the texts: false only when it is none of them (a text
  /// sharing another's hash value is answered true).
  package func mayHold(_ text: String) -> Bool {
    let hash = text.hashValue
    var low = 0
    var high = textHashes.count
    while low < high {
      let middle = (low + high) / 2
      if textHashes[middle] < hash { low = middle + 1 } else { high = middle }
    }
    return low < textHashes.count && textHashes[low] == hash
  }

  /// How many trigrams are held as bitmaps.
  var bitmapCount: Int { bitmapSlots.count { $0 >= 0 } }

  /// How many of `trigrams` (a query's, encoded) are held as bitmaps.
  func commonCount(of trigrams: [UInt32]) -> Int {
    trigrams.count { bitmapSlots[TrigramFilter.dense($0)] >= 0 }
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
    let queryCount = queryTrigrams.count
    // Passing needs shared·(d + n) ≥ n·(query + own) ≥ n·(query + shared) for the threshold
    // n/d, so shared ≥ ⌈n·query/d⌉: one comparison rules out most texts before their own
    // count is read.
    let numerator = TrigramFilter.thresholdNumerator
    let denominator = TrigramFilter.thresholdDenominator
    let least = (numerator * queryCount + denominator - 1) / denominator
    // Byte counters are read eight at a time (`scanLanes`), and for most queries the common
    // trigrams' bitmaps are not added to the counters at all, but counted where they are read.
    let inLanes = Counter.self == UInt8.self && least >= 1 && least <= 128
    let bitmapsInLanes = inLanes && commonCount(of: queryTrigrams) <= Self.laneBitmapLimit
    // Shared trigrams of every text in the window, from the query's posting lists (and, for
    // other queries, bitmaps). (Counting block by block, to keep the counters in the nearest
    // cache, measured slower: each list is one forward sweep, which the prefetcher already
    // follows.) The counters cover whole bitmap words, the window's first text rounded down
    // to a multiple of 64 and its end rounded up: the texts around the window get counts from
    // the bitmaps only, and are not read.
    let base = window.lowerBound & ~63
    let end = (window.upperBound + 63) & ~63
    var shared = [Counter](repeating: 0, count: end - base)
    var bitmapStarts: [Int] = []
    postings.withUnsafeBufferPointer { postings in
      shared.withUnsafeMutableBufferPointer { shared in
        for trigram in queryTrigrams {
          let dense = TrigramFilter.dense(trigram)
          let slot = Int(bitmapSlots[dense])
          if slot >= 0 {
            if bitmapsInLanes {
              bitmapStarts.append(slot * bitmapWords)
            } else {
              add(bitmap: slot, words: base / 64..<end / 64, to: shared)
            }
            continue
          }
          let list = postingStarts[dense]..<postingStarts[dense + 1]
          let start = Self.firstPosting(atLeast: window.lowerBound, in: postings, list)
          let end = Self.firstPosting(atLeast: window.upperBound, in: postings, list)
          for position in start..<end { shared[Int(postings[position]) &- base] &+= 1 }
        }
      }
    }

    var found: [FuzzyCandidate] = []
    let survivors = (window.lowerBound - base)..<(window.upperBound - base)
    spans.withUnsafeBufferPointer { spans in
      bigrams.withUnsafeBufferPointer { bigrams in
        /// The bigrams of the text at `offset` when its shared count `common` lets it pass.
        func passing(_ offset: Int, common: Int) -> Range<Int>? {
          let index = base + offset
          let span = spans[index]
          let union = queryCount + Int(span & 0xFFFF) - common
          guard common * denominator >= union * numerator else { return nil }
          return Int(span >> 16)..<Int(spans[index + 1] >> 16)
        }
        /// Scores the text at `offset`, whose bigrams are `range`.
        func score(_ offset: Int, _ range: Range<Int>) {
          if let score = profile.similarity(
            toSorted: UnsafeBufferPointer(rebasing: bigrams[range]), atLeast: minimumScore)
          {
            found.append(FuzzyCandidate(text: texts[base + offset], score: score))
          }
        }
        shared.withUnsafeBufferPointer { shared in
          guard inLanes else {
            let least = Counter(least)
            for offset in survivors where shared[offset] >= least {
              if let range = passing(offset, common: Int(shared[offset])) { score(offset, range) }
            }
            return
          }
          // The texts that reach their bound are checked, then scored, each in a loop of its
          // own after the scan: each check reads a text's span and each score its bigrams, a
          // cache miss apiece on a large index, and short loops let the misses overlap.
          var reaching: [(offset: Int, common: Int)] = []
          scanLanes(
            UnsafeRawBufferPointer(shared), base: base, survivors: survivors,
            bitmapStarts: bitmapStarts, queryCount: queryCount, least: least
          ) { reaching.append(($0, $1)) }
          var checked: [(offset: Int, range: Range<Int>)] = []
          for (offset, common) in reaching {
            if let range = passing(offset, common: common) { checked.append((offset, range)) }
          }
          for (offset, range) in checked { score(offset, range) }
        }
      }
    }
    return FuzzyCandidate.best(found, limit: limit)
  }

  /// Reads byte counters (`counters` starts at text `base`) eight at a time, with the bitmaps
  /// at `bitmapStarts` counted in place (none when the caller added them to the counters, for
  /// a query with more than `laneBitmapLimit` common trigrams), and calls `consider` with
  /// each text in `survivors` (offsets from `base`) whose count reaches its group's bound, and
  /// that count.
  ///
  /// Adding each bitmap to every counter in the window was most of a query: a read and a write
  /// of every counter (a megabyte on a million texts) for each common trigram, 18 on average
  /// in the benchmark's queries. Now a word of 64 texts at a time: its bitmaps' words are summed
  /// bit-sliced (five planes, bit `k` of every text's count in plane `k`), which gives the most
  /// any of the 64 shares through bitmaps; one lanes' test over its counters then says whether
  /// any of them shares enough through lists to reach the word's bound beside that most. Most
  /// words cannot, and are left there (a quarter of them could in the benchmark); the others
  /// have each eight counters' lanes topped up from the planes and tested against the eight
  /// texts' bound, as every word was before.
  private func scanLanes(
    _ counters: UnsafeRawBufferPointer, base: Int, survivors: Range<Int>, bitmapStarts: [Int],
    queryCount: Int, least: Int, consider: (Int, Int) -> Void
  ) {
    let numerator = TrigramFilter.thresholdNumerator
    let denominator = TrigramFilter.thresholdDenominator
    /// The bound of texts whose fewest trigrams are `floor`: common·(d + n) ≥ n·(query +
    /// floor), never below the query's and at most 128, which the lanes can test.
    func bound(_ floor: UInt16) -> Int {
      min(
        128,
        max(
          least,
          (numerator * (queryCount + Int(floor)) + numerator + denominator - 1)
            / (numerator + denominator)))
    }
    let low = UInt64(0x7F7F_7F7F_7F7F_7F7F)
    let high = UInt64(0x8080_8080_8080_8080)
    let ones = UInt64(0x0101_0101_0101_0101)
    let firstWord = base / 64
    let planeCount = UInt64.bitWidth - UInt64(bitmapStarts.count).leadingZeroBitCount
    bitmaps.withUnsafeBufferPointer { bitmaps in
      Self.byteLanes.withUnsafeBufferPointer { byteLanes in
        // Each of the query's bitmaps from the window's first word, in pairs (an odd one last,
        // alone). An index without bitmaps has no storage for them, and the query none.
        let rows =
          bitmaps.baseAddress.map { first in
            bitmapStarts.map { UnsafePointer(first + $0 + firstWord) }
          } ?? []
        let pairs = rows.count / 2
        let odd = rows.count % 2 == 1 ? rows.last : nil
        rows.withUnsafeBufferPointer { rows in
          for word in survivors.lowerBound / 64..<(survivors.upperBound + 63) / 64 {
            // Each text's count through bitmaps, bit-sliced: bit `k` of text `i`'s count is
            // bit `i` of `pk`. Two bitmaps at a time through a full adder into `p0`, its
            // carry rippled up (no branch: at most `laneBitmapLimit` bitmaps fill five planes).
            let at = firstWord + word
            var (p0, p1, p2, p3, p4) = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            func add(_ carry: UInt64) {
              let up1 = p1 & carry
              p1 ^= carry
              let up2 = p2 & up1
              p2 ^= up1
              let up3 = p3 & up2
              p3 ^= up2
              p4 ^= up3
            }
            for pair in 0..<pairs {
              let first = rows[pair &* 2][word]
              let second = rows[pair &* 2 &+ 1][word]
              let half = p0 ^ first
              add((p0 & first) | (half & second))
              p0 = half ^ second
            }
            if let odd {
              let bits = odd[word]
              add(p0 & bits)
              p0 ^= bits
            }
            // The most any text of the word shares through bitmaps: its planes' highest bits,
            // top down, among the texts that have every higher one.
            var most = 0
            var holders = ~UInt64(0)
            for (weight, plane) in [(16, p4), (8, p3), (4, p2), (2, p1), (1, p0)] {
              let set = plane & holders
              if set != 0 {
                most += weight
                holders = set
              }
            }
            // Whether a text of the word shares enough through lists to reach the word's
            // bound beside that most (the lanes' test, below); most words do not.
            let counted = word * 64
            let needed = bound(wordTrigramFloors[at]) - most
            if needed > 0 {
              let lift = UInt64(128 - min(needed, 128)) &* ones
              var reached: UInt64 = 0
              for lane in stride(from: counted, to: counted + 64, by: 8) {
                let lanes = counters.loadUnaligned(fromByteOffset: lane, as: UInt64.self)
                reached |= ((lanes & low) &+ lift) | lanes
              }
              if reached & high == 0 { continue }
            }
            for chunk in stride(
              from: max(counted, survivors.lowerBound & ~7), to: counted + 64, by: 8)
            {
              if chunk >= survivors.upperBound { break }
              let shift = UInt64(chunk - counted)
              func spread(_ plane: UInt64) -> UInt64 {
                byteLanes[Int(truncatingIfNeeded: plane >> shift) & 0xFF]
              }
              var lanes =
                UInt64(
                  littleEndian: counters.loadUnaligned(fromByteOffset: chunk, as: UInt64.self))
                &+ spread(p0) &+ spread(p1) << 1
              if planeCount > 2 { lanes &+= spread(p2) << 2 &+ spread(p3) << 3 &+ spread(p4) << 4 }
              // A byte's high bit is set in `reached` when the count is at least the bound,
              // from its low seven bits plus 128 - bound (no carry into the next byte), or its
              // own high bit.
              let lift = UInt64(128 - bound(groupTrigramFloors[(base + chunk) / 8])) &* ones
              var reached = (((lanes & low) &+ lift) | lanes) & high
              while reached != 0 {
                let lane = reached.trailingZeroBitCount / 8
                reached &= reached - 1
                let offset = chunk + lane
                if survivors.contains(offset) {
                  consider(offset, Int(truncatingIfNeeded: lanes >> UInt64(lane * 8)) & 0xFF)
                }
              }
            }
          }
        }
      }
    }
  }

  /// The most common trigrams a query may have for `scanLanes`: their counts fill five
  /// bit planes.
  static let laneBitmapLimit = 31

  /// Adds one to the counter of every text in bitmap `slot`'s `words`; `shared` starts at
  /// the first of them.
  private func add<Counter: FixedWidthInteger & UnsignedInteger>(
    bitmap slot: Int, words: Range<Int>, to shared: UnsafeMutableBufferPointer<Counter>
  ) {
    let first = slot * bitmapWords
    bitmaps.withUnsafeBufferPointer { bitmaps in
      guard Counter.self == UInt8.self else {
        for word in words {
          var bits = bitmaps[first + word]
          let at = (word - words.lowerBound) * 64
          while bits != 0 {
            shared[at + bits.trailingZeroBitCount] &+= 1
            bits &= bits - 1
          }
        }
        return
      }
      // Eight byte counters at a time: a counter never passes 255 (a text shares at most
      // the query's trigrams, and byte counters are used for queries of 255 or fewer), so no
      // lane carries into the next.
      let counters = UnsafeMutableRawBufferPointer(shared)
      Self.byteLanes.withUnsafeBufferPointer { lanes in
        for word in words {
          let bits = bitmaps[first + word]
          if bits == 0 { continue }
          let at = (word - words.lowerBound) * 64
          for byte in 0..<8 {
            let offset = at + byte * 8
            let sum =
              UInt64(littleEndian: counters.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
              &+ lanes[Int(truncatingIfNeeded: bits >> UInt64(byte * 8)) & 0xFF]
            counters.storeBytes(of: sum.littleEndian, toByteOffset: offset, as: UInt64.self)
          }
        }
      }
    }
  }

  /// For each byte of a bitmap, the eight byte counters to add: byte `i` is bit `i`.
  private static let byteLanes: [UInt64] = (0..<256).map { byte in
    (0..<8).reduce(0) { lanes, bit in lanes | UInt64(byte >> bit & 1) << UInt64(bit * 8) }
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
    FuzzyScan(texts: texts).best(for: query, minimumScore: minimumScore, limit: limit)
  }
}

/// Texts scored one by one against a query as
/// ``FuzzyCandidate/score(_:against:minimumScore:limit:)`` scores them, with each text's
/// bigrams and trigrams made once for every query asked of them: the tests ask one list
/// hundreds of queries, to check ``FuzzyIndex`` against it (in a debug build, making them
/// again for each query was 16 of the fuzzy index tests' 22 CPU-s).
package struct FuzzyScan: Sendable {
  /// The distinct texts, each with its profile and its encoded trigrams.
  private let texts: [(text: String, profile: BigramProfile, trigrams: [UInt32])]

  package init(texts: [String]) {
    self.texts = Set(texts).map { text in
      (
        text, BigramProfile(normalized: text),
        TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(text))
      )
    }
  }

  /// Up to `limit` texts scoring at least `minimumScore` against `query`, best first.
  package func best(for query: String, minimumScore: Double, limit: Int) -> [FuzzyCandidate] {
    let profile = BigramProfile(normalized: query)
    let queryTrigrams = TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(query))
    var found: [FuzzyCandidate] = []
    for (text, candidate, trigrams) in texts {
      guard profile.bestPossibleSimilarity(to: candidate) >= minimumScore,
        TrigramFilter.passes(queryTrigrams, trigrams)
      else { continue }
      let score = profile.similarity(to: candidate)
      if score >= minimumScore { found.append(FuzzyCandidate(text: text, score: score)) }
    }
    return FuzzyCandidate.best(found, limit: limit)
  }
}
