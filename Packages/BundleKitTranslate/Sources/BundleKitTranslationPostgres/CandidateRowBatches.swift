import BundleKitTranslation
import Foundation

/// Fuzzy lookups' candidate rows (``PostgresStore/translations(withNormalized:language:target:)``)
/// asked of PostgreSQL together: while one question of a language pair is out, the lookups that
/// need rows of the same pair wait, and the first of them asks, when it returns, for all the
/// texts they wait for in one question; each then takes its own rows from the answer.
///
/// Why: on a host whose cores the server fills, each question wakes a PostgreSQL backend that
/// must wait for a core (a backend is a scheduling group of its own under the kernel's
/// session groups), and that wait was most of a fuzzy lookup's tail. A lookup alone asks at
/// once, as before; under load a lookup waits for at most the question before its own, and the
/// backends wake a fraction as often. The rows of a text do not depend on the other texts asked
/// with it (the question selects by each text; a unit has one row a language), so every lookup
/// gets the rows it would have got alone.
final class CandidateRowBatches: @unchecked Sendable {
  /// One question's rows: the candidates' rows by normalised text, and their units' rows in
  /// the target language with those units.
  struct Rows: Sendable {
    var rows: [String: [StoredTranslation]] = [:]
    var targetRows: [StoredTranslation] = []
    var units: [Int64: StoredUnit] = [:]

    /// The rows one lookup asking for `texts` alone would have got: its texts' rows, and the
    /// target rows and units of those rows' units.
    func of(_ texts: [String]) -> Rows {
      var mine = Rows()
      var kept = Set<Int64>()
      for text in texts where mine.rows[text] == nil {
        guard let found = rows[text] else { continue }
        mine.rows[text] = found
        for row in found { kept.insert(row.unit) }
      }
      mine.targetRows = targetRows.filter { kept.contains($0.unit) }
      for row in mine.targetRows { mine.units[row.unit] = units[row.unit] }
      return mine
    }
  }

  /// A lookup's turn: ask (for its own texts and those of the lookups handed to it), or its
  /// rows, asked by another.
  private enum Turn {
    case ask(with: [Waiter])
    case answered(Rows)
  }

  private struct Waiter {
    let texts: [String]
    let continuation: CheckedContinuation<Turn, any Error>
  }

  /// A language pair's lookups: whether a question is out, and who waits for the next one.
  private struct Queue {
    var asking = false
    var waiting: [Waiter] = []
  }

  /// At most this many lookups share one question; the others wait for the next.
  static let largestBatch = 64

  private let lock = NSLock()
  private var queues: [String: Queue] = [:]

  /// The rows of `texts` in `language` with their units' rows in `target`, through `ask`, which
  /// is given every text of the lookups asking together (each once).
  func rows(
    for texts: [String], language: String, target: String,
    ask: @escaping @Sendable ([String]) async throws -> Rows
  ) async throws -> Rows {
    let key = language + "\u{0}" + target
    let turn: Turn = try await withCheckedThrowingContinuation { continuation in
      let first: Bool = lock.withLock {
        if queues[key, default: Queue()].asking {
          queues[key, default: Queue()].waiting.append(
            Waiter(texts: texts, continuation: continuation))
          return false
        }
        queues[key, default: Queue()].asking = true
        return true
      }
      if first { continuation.resume(returning: .ask(with: [])) }
    }
    switch turn {
    case .answered(let rows):
      return rows
    case .ask(let others):
      return try await askTogether(texts, others, key: key, ask: ask)
    }
  }

  /// Asks for `texts` and those of `others`, answers `others`, then hands the next question to
  /// the first lookup waiting (or ends the pair's run of questions), whatever the outcome.
  private func askTogether(
    _ texts: [String], _ others: [Waiter], key: String,
    ask: @Sendable ([String]) async throws -> Rows
  ) async throws -> Rows {
    var union = texts
    var seen = Set(texts)
    for other in others {
      for text in other.texts where seen.insert(text).inserted { union.append(text) }
    }
    let outcome: Result<Rows, any Error>
    do {
      outcome = .success(try await ask(union))
    } catch {
      outcome = .failure(error)
    }
    var handed = false
    switch outcome {
    case .success(let rows):
      for other in others { other.continuation.resume(returning: .answered(rows.of(other.texts))) }
    case .failure(let error):
      if Task.isCancelled {
        // This lookup was cancelled, not the others: they go to the next question, whose
        // asker is not this one.
        handed = true
        handOn(key: key, before: others)
      } else {
        for other in others { other.continuation.resume(throwing: error) }
      }
    }
    if !handed { handOn(key: key, before: []) }
    return try outcome.get().of(texts)
  }

  /// The next question of the pair: `first` (lookups whose question failed for a reason of
  /// the asker's own) and then the waiting, up to ``largestBatch``, go to the first of them,
  /// which asks for them all; with none, the pair has no question out.
  private func handOn(key: String, before first: [Waiter]) {
    let next: [Waiter] = lock.withLock {
      var queue = queues[key, default: Queue()]
      let all = first + queue.waiting
      let batch = Array(all.prefix(Self.largestBatch))
      queue.waiting = Array(all.dropFirst(batch.count))
      queue.asking = !batch.isEmpty
      if queue.asking || !queue.waiting.isEmpty {
        queues[key] = queue
      } else {
        queues[key] = nil
      }
      return batch
    }
    guard let asker = next.first else { return }
    asker.continuation.resume(returning: .ask(with: Array(next.dropFirst())))
  }
}
