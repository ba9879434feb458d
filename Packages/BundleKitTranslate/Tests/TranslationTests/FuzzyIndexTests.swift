import BundleKitTestSupport
import Testing

@testable import BundleKitTranslation

@Suite("Fuzzy index", .offThePool)
struct FuzzyIndexTests {
  /// Words with and without letters outside ASCII, so the index sees encoded trigrams too.
  static let words = [
    "open", "opens", "settings", "setting", "the", "door", "garage", "light", "lights", "on",
    "off", "tür", "türen", "öffnen", "licht", "設定", "ドア", "a", "x", "42", "über", "ça", "va",
  ]

  @Test("The inverted index answers as scanning every text does")
  func sameAsScanning() {
    let seed = SeededGenerator.seed("fuzzy index")
    var random = SeededGenerator(seed: seed)
    for round in 0..<25 {
      var texts = Set<String>()
      for _ in 0..<Int.random(in: 1...400, using: &random) {
        let count = Int.random(in: 1...8, using: &random)
        let text = (0..<count).map { _ in Self.words.randomElement(using: &random) ?? "" }
          .joined(separator: Bool.random(using: &random) ? " " : ", ")
        texts.insert(TextNormalizer.normalize(text))
      }
      texts.remove("")
      let list = Array(texts)
      let index = FuzzyIndex(texts: list)
      let scan = FuzzyScan(texts: list)
      for _ in 0..<50 {
        var query = (list.randomElement(using: &random) ?? "open").split(separator: " ").map(
          String.init)
        if !query.isEmpty, Bool.random(using: &random) {
          query[Int.random(in: 0..<query.count, using: &random)] =
            Self.words.randomElement(using: &random) ?? ""
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
          query.append(Self.words.randomElement(using: &random) ?? "")
        }
        let text = TextNormalizer.normalize(query.joined(separator: " "))
        let minimumScore = [0, 0.3, 0.6, 0.75, 0.9, 1][Int.random(in: 0..<6, using: &random)]
        let limit = Int.random(in: 1...20, using: &random)
        let indexed = index.best(for: text, minimumScore: minimumScore, limit: limit)
        let scanned = scan.best(for: text, minimumScore: minimumScore, limit: limit)
        #expect(
          indexed == scanned,
          "round \(round) (seed \(seed)): \(text) ≥ \(minimumScore) over \(list.count) texts")
      }
    }
  }

  @Test(
    "Common trigrams counted from bitmaps answer as scanning does, for short queries and for queries of over 255 trigrams"
  )
  func bitmapsAndWideCounters() {
    let seed = SeededGenerator.seed("fuzzy bitmaps")
    var random = SeededGenerator(seed: seed)
    // Words from few letters, so that many trigrams are common enough to be bitmaps; some
    // letters outside ASCII, which encode to other trigrams.
    let letters = Array("abcdefgiorstuü")
    let words = (0..<300).map { _ in
      String(
        (0..<Int.random(in: 1...7, using: &random)).map { _ in
          letters.randomElement(using: &random) ?? "a"
        })
    }
    func text(_ count: ClosedRange<Int>) -> String {
      TextNormalizer.normalize(
        (0..<Int.random(in: count, using: &random)).map { _ in
          words.randomElement(using: &random) ?? ""
        }.joined(separator: " "))
    }
    for round in 0..<4 {
      // Long texts in some rounds: their queries have more trigrams than a byte counts.
      let long = round % 2 == 1
      var texts = Set<String>()
      for _ in 0..<Int.random(in: long ? 100...200 : 200...1_200, using: &random) {
        texts.insert(text(long ? 80...160 : 1...12))
      }
      texts.remove("")
      let list = Array(texts)
      let index = FuzzyIndex(texts: list)
      let scan = FuzzyScan(texts: list)
      #expect(index.bitmapCount > 20, "round \(round): \(index.bitmapCount) bitmaps")
      var wide = 0
      // Byte-counted queries with few enough common trigrams for the lanes' own count of
      // the bitmaps, and with more (their bitmaps added to the counters).
      var (fewCommon, manyCommon) = (0, 0)
      for number in 0..<25 {
        var query = (list.randomElement(using: &random) ?? "a").split(separator: " ").map(
          String.init)
        // Every other short query six texts long: more common trigrams than five bit planes
        // count.
        if !long && number % 2 == 1 {
          for _ in 0..<5 {
            query += (list.randomElement(using: &random) ?? "a").split(separator: " ").map(
              String.init)
          }
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) where !query.isEmpty {
          query[Int.random(in: 0..<query.count, using: &random)] =
            words.randomElement(using: &random) ?? ""
        }
        let text = TextNormalizer.normalize(query.joined(separator: " "))
        let trigrams = TrigramFilter.trigrams(ofEncoded: TrigramFilter.encode(text))
        if trigrams.count > 255 {
          wide += 1
        } else if index.commonCount(of: trigrams) <= FuzzyIndex.laneBitmapLimit {
          fewCommon += 1
        } else {
          manyCommon += 1
        }
        let minimumScore = [0, 0.3, 0.5, 0.6, 0.8][Int.random(in: 0..<5, using: &random)]
        let indexed = index.best(for: text, minimumScore: minimumScore, limit: 30)
        let scanned = scan.best(for: text, minimumScore: minimumScore, limit: 30)
        #expect(
          indexed == scanned,
          "round \(round) (seed \(seed)): \(text) ≥ \(minimumScore) over \(list.count) texts")
      }
      if long {
        #expect(wide > 10, "round \(round): too few queries of over 255 trigrams: \(wide)")
      } else {
        #expect(
          fewCommon >= 5 && manyCommon >= 5,
          "round \(round): \(fewCommon) queries with few common trigrams, \(manyCommon) with many"
        )
      }
    }
  }

  @Test("A score with a floor gives up only when the floor cannot be reached")
  func scoreWithFloor() {
    let seed = SeededGenerator.seed("score with a floor")
    var random = SeededGenerator(seed: seed)
    // Texts from few letters, repeats included, so that profiles share many bigrams.
    let letters = Array("abcab ü")
    func text() -> String {
      String(
        (0..<Int.random(in: 0...40, using: &random)).map { _ in
          letters[Int.random(in: 0..<letters.count, using: &random)]
        })
    }
    var gaveUp = 0
    for round in 0..<500 {
      let profile = BigramProfile(normalized: text())
      let other = BigramProfile(normalized: text())
      let full = profile.similarity(to: other)
      // The exact score and the floats either side of it, and floors far from it.
      for minimum in [
        full, full.nextUp, full.nextDown, 0, -1, 0.3, 0.6, 1, 1.5,
        Double.random(in: 0...1, using: &random),
      ] {
        let floored = other.bigrams.withUnsafeBufferPointer {
          profile.similarity(toSorted: $0, atLeast: minimum)
        }
        #expect(
          floored == (full >= minimum ? full : nil),
          "round \(round) (seed \(seed)): \(profile.bigrams.count) and \(other.bigrams.count) bigrams, \(full) against \(minimum)"
        )
        if floored == nil { gaveUp += 1 }
      }
    }
    #expect(gaveUp > 0)
  }

  @Test("A concordance search's byte search finds what the UTF-8 view's search finds")
  func concordanceByteSearch() {
    let seed = SeededGenerator.seed("concordance bytes")
    var random = SeededGenerator(seed: seed)
    let pieces = ["a", "aa", "ab", "b", "ü", "ö", "設", "定", " ", "x", "\u{0}", "é", "e\u{301}"]
    func text(_ count: Int) -> String {
      (0..<count).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }
    var found = 0
    for _ in 0..<5_000 {
      let haystack = text(Int.random(in: 0...12, using: &random))
      let needle = text(Int.random(in: 1...3, using: &random))
      let expected = haystack.utf8.firstRange(of: needle.utf8) != nil
      if expected { found += 1 }
      #expect(
        SnapshotStore.bytes(of: haystack, contain: needle) == expected,
        "\(haystack.debugDescription) contains \(needle.debugDescription): \(expected)")
    }
    #expect(found > 500, "too few matches to mean anything: \(found)")
    // The edges: at the very start and end, longer than the text, the whole text, repeated
    // first bytes before the match.
    #expect(SnapshotStore.bytes(of: "aaab", contain: "aab"))
    #expect(SnapshotStore.bytes(of: "tür", contain: "ür"))
    #expect(SnapshotStore.bytes(of: "tür", contain: "tür"))
    #expect(!SnapshotStore.bytes(of: "tü", contain: "tür"))
    #expect(!SnapshotStore.bytes(of: "", contain: "a"))
    #expect(SnapshotStore.bytes(of: "設定", contain: "定"))
  }

  @Test("A concordance search keeps the first rows of the whole order, as sorting every match")
  func firstInOrder() {
    let seed = SeededGenerator.seed("first in order")
    var random = SeededGenerator(seed: seed)
    // Few distinct texts per field, so that rows tie on their first fields and the later
    // ones decide; some rows without a unit.
    func text() -> String {
      ["", "a", "b", "ä", "ab", "設"][Int.random(in: 0..<6, using: &random)]
    }
    var refusedByRoot = 0
    for round in 0..<300 {
      var hits: [SearchHit] = []
      for index in 0..<Int.random(in: 0...120, using: &random) {
        let unit =
          Int.random(in: 0..<8, using: &random) == 0
          ? nil
          : StoredUnit(
            project: text(), bundle: text(), table: text(), key: text(), variant: text(),
            source: nil)
        hits.append(
          SearchHit(
            row: StoredTranslation(
              unit: Int64(index), language: text(), value: text(), comment: nil),
            unit: unit))
      }
      let limit = Int.random(in: -1...(hits.count + 2), using: &random)
      var first = FirstInOrder(limit: limit)
      for hit in hits {
        let wasFull = first.heap.count == max(0, limit)
        let root = first.heap.first
        first.offer(hit)
        if wasFull, let root, first.heap.first?.row.unit == root.row.unit { refusedByRoot += 1 }
      }
      // The whole order, as the sort before this gave it. Rows here may tie on every field
      // (a real memory's cannot: a unit and a language are one row), so their fields are
      // compared, not which of two equal rows was kept.
      func fields(_ hit: SearchHit) -> [String] {
        [
          hit.row.value, hit.row.language, hit.table, hit.key, hit.bundle, hit.variant,
          hit.project,
        ]
      }
      let expected = hits.sorted(by: SearchHit.precedes).prefix(max(0, limit))
      #expect(
        first.sorted.map(fields) == expected.map(fields),
        "round \(round) (seed \(seed)): \(hits.count) hits, limit \(limit)")
    }
    #expect(refusedByRoot > 1_000, "too few hits refused to mean anything: \(refusedByRoot)")
  }

  @Test("An index whose trigrams are all rare (no bitmaps) answers as scanning does")
  func withoutBitmaps() {
    let seed = SeededGenerator.seed("fuzzy without bitmaps")
    var random = SeededGenerator(seed: seed)
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    func word(startingWith first: Character) -> String {
      String(
        [first]
          + (1..<Int.random(in: 6...10, using: &random)).map { _ in
            letters.randomElement(using: &random) ?? "a"
          })
    }
    // One random word of many letters a text, the first letters taken in turn: no trigram
    // is in one text of 16. (Drawn at random too, a first letter's trigram, two spaces and
    // the letter, is in 11 texts on average and now and then in the 25 that make a bitmap.)
    let list = Array(Set((0..<400).map { word(startingWith: letters[$0 % letters.count]) }))
    let index = FuzzyIndex(texts: list)
    #expect(index.bitmapCount == 0, "\(index.bitmapCount) bitmaps (seed \(seed))")
    for round in 0..<40 {
      var query = Array(list.randomElement(using: &random) ?? "a")
      if round % 2 == 1, !query.isEmpty {
        query[Int.random(in: 0..<query.count, using: &random)] =
          letters.randomElement(using: &random) ?? "a"
      }
      let text = String(query)
      let minimumScore = [0, 0.3, 0.6][round % 3]
      let indexed = index.best(for: text, minimumScore: minimumScore, limit: 30)
      #expect(
        indexed
          == FuzzyCandidate.score(list, against: text, minimumScore: minimumScore, limit: 30),
        "round \(round) (seed \(seed)): \(text) ≥ \(minimumScore)")
      if round % 2 == 0 {
        #expect(indexed.first?.text == text, "round \(round): \(text) does not find itself")
      }
    }
  }

  @Test("An index holds every one of its texts, and holds no other but by a shared hash value")
  func holds() {
    let seed = SeededGenerator.seed("fuzzy index holds")
    var random = SeededGenerator(seed: seed)
    let letters = Array("abcdeéß设 ")
    func text() -> String {
      String(
        (0..<Int.random(in: 1...8, using: &random)).map { _ in
          letters.randomElement(using: &random) ?? "a"
        })
    }
    let texts = Array(Set((0..<2_000).map { _ in text() }))
    let index = FuzzyIndex(texts: texts)
    let held = Set(texts)
    for text in texts { #expect(index.mayHold(text), "seed \(seed): \(text)") }
    var absent = 0
    var sharing = 0
    for _ in 0..<2_000 {
      let other = text() + "·"
      guard !held.contains(other) else { continue }
      absent += 1
      if index.mayHold(other) {
        sharing += 1
        #expect(held.contains { $0.hashValue == other.hashValue }, "seed \(seed): \(other)")
      }
    }
    #expect(absent == 2_000 && sharing == 0, "seed \(seed): \(sharing) of \(absent) held")
    #expect(!FuzzyIndex(texts: []).mayHold(""))
  }

  @Test("Queries without trigrams and empty indexes find nothing, and do not trap")
  func edges() {
    #expect(FuzzyIndex(texts: []).best(for: "open", minimumScore: 0, limit: 5).isEmpty)
    let index = FuzzyIndex(texts: ["open", "o", "设"])
    #expect(index.best(for: "", minimumScore: 0, limit: 5).isEmpty)
    #expect(index.best(for: "open", minimumScore: 0.5, limit: 5).map(\.text) == ["open"])
    #expect(index.best(for: "设", minimumScore: 1, limit: 5).map(\.text) == ["设"])
  }
}
