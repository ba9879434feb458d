import Foundation
import Testing

@testable import BundleKitTranslation
@testable import BundleKitTranslationPostgres

/// Concurrent fuzzy lookups' candidate rows asked together (``CandidateRowBatches``), with a
/// question that answers from a table in memory and records what it was asked: each lookup
/// gets exactly the rows it would have got alone, lookups that wait share a question, a
/// failure reaches the lookups it was asked for and no others, and a cancelled asker's
/// lookups are asked for again.
@Suite("Candidate rows asked together")
struct CandidateRowBatchesTests {
  /// Rows of 40 texts (`t0`...`t39`): two units each, the first with a target row.
  static let table: CandidateRowBatches.Rows = {
    var table = CandidateRowBatches.Rows()
    for index in 0..<40 {
      let text = "t\(index)"
      for copy in 0..<2 {
        let unit = Int64(index * 2 + copy)
        table.rows[text, default: []].append(
          StoredTranslation(
            unit: unit, language: "en", value: text, comment: nil, state: .translated))
        guard copy == 0 else { continue }
        table.targetRows.append(
          StoredTranslation(
            unit: unit, language: "de", value: "de \(text)", comment: nil, state: .translated))
        table.units[unit] = StoredUnit(
          project: "p", bundle: "b", table: "T", key: "k\(unit)", variant: "", source: nil)
      }
    }
    return table
  }()

  /// What a question answers: the table's rows of `texts`, as PostgreSQL would.
  static func answer(_ texts: [String]) -> CandidateRowBatches.Rows { table.of(texts) }

  /// The questions asked, each as the texts it was asked for, and a gate that holds the first
  /// question until opened.
  final class Questions: Sendable {
    let asked = Guarded<[[String]]>([])
    let gate = Guarded<CheckedContinuation<Void, Never>?>(nil)
    let gateOpen = Guarded(false)

    func ask(_ texts: [String]) async throws -> CandidateRowBatches.Rows {
      let first = asked.withLock {
        $0.append(texts)
        return $0.count == 1
      }
      if first {
        await withCheckedContinuation { continuation in
          let open = gateOpen.withLock { open in
            if !open { gate.withLock { $0 = continuation } }
            return open
          }
          if open { continuation.resume() }
        }
      }
      return CandidateRowBatchesTests.answer(texts)
    }

    func open() {
      let waiting = gateOpen.withLock { open in
        open = true
        return gate.withLock { gate in
          defer { gate = nil }
          return gate
        }
      }
      waiting?.resume()
    }
  }

  /// Each lookup's texts: three of the table's and one it lacks, overlapping the next lookup's.
  static func texts(of lookup: Int) -> [String] {
    ["t\(lookup % 40)", "t\((lookup + 1) % 40)", "t\((lookup * 7) % 40)", "absent\(lookup)"]
  }

  @Test("lookups waiting on a question share the next; each gets the rows it would alone")
  func waitingLookupsShareOneQuestion() async throws {
    let batches = CandidateRowBatches()
    let questions = Questions()
    let lookups = 30
    let answers = try await withThrowingTaskGroup(of: (Int, CandidateRowBatches.Rows).self) {
      group in
      group.addTask {
        (
          0,
          try await batches.rows(
            for: Self.texts(of: 0), language: "en", target: "de", ask: questions.ask)
        )
      }
      // The first question is out (and held): every other lookup now waits.
      while questions.asked.withLock({ $0.isEmpty }) { await Task.yield() }
      for lookup in 1..<lookups {
        group.addTask {
          (
            lookup,
            try await batches.rows(
              for: Self.texts(of: lookup), language: "en", target: "de", ask: questions.ask)
          )
        }
      }
      // Give the others time to queue, then let the first question answer.
      try await Task.sleep(for: .milliseconds(200))
      questions.open()
      var answers: [Int: CandidateRowBatches.Rows] = [:]
      for try await (lookup, rows) in group { answers[lookup] = rows }
      return answers
    }
    #expect(answers.count == lookups)
    for lookup in 0..<lookups {
      let expected = Self.answer(Self.texts(of: lookup))
      let got = try #require(answers[lookup])
      #expect(got.rows == expected.rows, "lookup \(lookup)")
      #expect(Set(got.targetRows) == Set(expected.targetRows), "lookup \(lookup)")
      #expect(got.units == expected.units, "lookup \(lookup)")
      #expect(got.rows.keys.allSatisfy(Self.texts(of: lookup).contains), "lookup \(lookup)")
    }
    let asked = questions.asked.withLock { $0 }
    // The first question, then the 29 that waited in one (fewer than the batch's limit).
    #expect(asked.count == 2, "\(asked.count) questions")
    #expect(asked.first == Self.texts(of: 0))
    let second = asked.last ?? []
    #expect(second.count == Set(second).count, "a text asked twice in one question")
    let wanted = Set((1..<lookups).flatMap(Self.texts(of:)))
    #expect(Set(second) == wanted)
  }

  @Test("a lookup alone asks at once; language pairs do not share questions")
  func pairsAskApart() async throws {
    let batches = CandidateRowBatches()
    let questions = Questions()
    questions.open()
    let alone = try await batches.rows(
      for: ["t1", "t2"], language: "en", target: "de", ask: questions.ask)
    #expect(alone.rows.keys.sorted() == ["t1", "t2"])
    _ = try await batches.rows(for: ["t3"], language: "en", target: "fr", ask: questions.ask)
    _ = try await batches.rows(for: ["t4"], language: "en", target: "de", ask: questions.ask)
    #expect(questions.asked.withLock { $0 } == [["t1", "t2"], ["t3"], ["t4"]])
  }

  @Test("more lookups waiting than one question takes: the rest wait for the next")
  func largestBatch() async throws {
    let batches = CandidateRowBatches()
    let questions = Questions()
    let lookups = CandidateRowBatches.largestBatch * 2 + 10
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        let rows = try await batches.rows(
          for: ["t0"], language: "en", target: "de", ask: questions.ask)
        #expect(rows.rows.keys.sorted() == ["t0"])
      }
      while questions.asked.withLock({ $0.isEmpty }) { await Task.yield() }
      for lookup in 1..<lookups {
        group.addTask {
          let rows = try await batches.rows(
            for: ["t\(lookup % 40)", "x\(lookup)"], language: "en", target: "de",
            ask: questions.ask)
          #expect(rows.rows.keys.sorted() == ["t\(lookup % 40)"])
        }
      }
      try await Task.sleep(for: .milliseconds(300))
      questions.open()
      try await group.waitForAll()
    }
    let asked = questions.asked.withLock { $0 }
    // Each waiting lookup brings one text no other asks for ("xN").
    let sizes = asked.dropFirst().map { $0.filter { $0.hasPrefix("x") }.count }
    #expect(sizes.allSatisfy { $0 <= CandidateRowBatches.largestBatch }, "\(sizes)")
    #expect(sizes.reduce(0, +) == lookups - 1)
    #expect(asked.count == 4, "\(sizes)")
  }

  struct Refused: Error {}

  @Test("a failed question fails the lookups it was asked for; the next asks afresh")
  func failureReachesItsBatchOnly() async throws {
    let batches = CandidateRowBatches()
    let started = Guarded(0)
    let release = Guarded(false)
    // The first question waits for the others to queue, then fails; later ones answer.
    let ask: @Sendable ([String]) async throws -> CandidateRowBatches.Rows = { texts in
      let number = started.withLock {
        $0 += 1
        return $0
      }
      if number == 1 {
        while !release.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        throw Refused()
      }
      return Self.answer(texts)
    }
    let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
      for lookup in 0..<5 {
        group.addTask {
          if lookup > 0 {
            while started.withLock({ $0 == 0 }) { await Task.yield() }
          }
          do {
            _ = try await batches.rows(
              for: ["t\(lookup)"], language: "en", target: "de", ask: ask)
            return false
          } catch is Refused {
            return true
          }
        }
      }
      try await Task.sleep(for: .milliseconds(200))
      release.withLock { $0 = true }
      var failures = 0
      for try await failed in group where failed { failures += 1 }
      return failures
    }
    // The first question failed for its asker alone; the four that waited were asked for in
    // the second, which answered.
    #expect(failures == 1)
    #expect(started.withLock { $0 } == 2)
    let after = try await batches.rows(for: ["t9"], language: "en", target: "de", ask: ask)
    #expect(after.rows.keys.sorted() == ["t9"])
  }

  @Test("an asker cancelled under its question hands the waiting lookups to the next")
  func cancelledAskerHandsOn() async throws {
    let batches = CandidateRowBatches()
    let asked = Guarded<[[String]]>([])
    let ask: @Sendable ([String]) async throws -> CandidateRowBatches.Rows = { texts in
      let first = asked.withLock {
        $0.append(texts)
        return $0.count == 1
      }
      if first {
        // Held until cancelled, as a question whose lookup's request went away.
        while true { try await Task.sleep(for: .milliseconds(5)) }
      }
      return Self.answer(texts)
    }
    let asker = Task {
      try await batches.rows(for: ["t0"], language: "en", target: "de", ask: ask)
    }
    while asked.withLock({ $0.isEmpty }) { await Task.yield() }
    let others = (1..<4).map { lookup in
      Task {
        try await batches.rows(for: ["t\(lookup)"], language: "en", target: "de", ask: ask)
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    asker.cancel()
    await #expect(throws: CancellationError.self) { try await asker.value }
    for (index, other) in others.enumerated() {
      let rows = try await other.value
      #expect(rows.rows.keys.sorted() == ["t\(index + 1)"])
    }
    let questions = asked.withLock { $0 }
    #expect(questions.count == 2)
    #expect(Set(questions.last ?? []) == ["t1", "t2", "t3"])
  }
}

/// A value behind a lock (the tests' shared records; `Mutex` needs macOS 15).
final class Guarded<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}
