import Foundation

/// Decodes a single key pressed short (dit) and long (dah) into text, learning the speed as it
/// goes.
///
/// Feed it durations (`feed(_:)`: positive = key down, negative = key up, in milliseconds)
/// or key events with timestamps (`keyDown(at:)`, `keyUp(at:)`). Characters come out as soon
/// as a letter gap is certain: when the next key press ends the gap, or when `idle(for:)`
/// reports silence long enough; `finish()` flushes the rest.
///
/// Timing is adaptive: the unit (one dit) is fitted to the recent marks and gaps, so speed
/// changes (5 to 60 WPM, a doubling mid-stream) are followed within a few characters; the
/// keying of a character is kept until its end, and read again with the new unit when the
/// speed has changed. Gaps between characters and between words are told apart from the
/// recent long gaps, so stretched (Farnsworth) spacing reads right. The first characters
/// wait until six marks have shown the speed; none is lost.
public struct MorseDecoder: Sendable {
  /// Decoded so far; the error signal (eight dots) removes the last character.
  public private(set) var text = ""
  /// Written for a sequence that is no character or signal.
  public var replacement = "\u{FFFD}"
  /// The learned length of a dit, in milliseconds (nil until learned).
  public private(set) var unit: Double?
  /// Marks shorter than this share of a dit are spikes (contact bounce, noise) and count as
  /// part of the gap around them. Half a dit is the textbook figure; a quarter is the default
  /// because hand keying with a quarter-dit jitter makes 2% of real dits shorter than half a
  /// dit (and 0.1% shorter than a quarter), while contact bounce and noise are far shorter.
  public var spikeThreshold = 0.25

  private var estimator = SpeedEstimator()
  /// The keying since the last character boundary: marks positive, gaps negative.
  private var pending: [Double] = []
  private var pendingGap: Double = 0
  /// The recent gaps between characters or words, in units.
  private var recentLongGaps: [Double] = []
  /// The unit when `recentLongGaps` was last cleared.
  private var gapHistoryUnit = 1.0
  private var lastEvent: Double?
  private var keyIsDown = false
  /// The gap before the next character, once it is known to be at least a letter gap:
  /// whether it was a word gap is decided when that character comes out, with the unit of
  /// then. (After a change of speed, the gap between the two speeds is read at the new one.)
  private var gapBefore: Double?
  private var withdrew = false

  /// A decoder with no speed assumed.
  public init() {}

  /// Feeds one duration: positive for the key held down, negative for the key up.
  /// Returns the text added (characters and spaces, or nothing yet).
  @discardableResult
  public mutating func feed(_ duration: Double) -> String {
    guard duration != 0, duration.isFinite else { return "" }
    let before = text.utf8.count
    withdrew = false
    if duration < 0 {
      pendingGap += -duration
      return ""
    }
    if let unit, duration < spikeThreshold * unit, pendingGap > 0 || pending.isEmpty {
      // A spike: the gap goes on through it.
      pendingGap += duration
      return ""
    }
    if pendingGap > 0, !pending.isEmpty {
      closeGap(pendingGap)
    } else if pendingGap > 0, gapBefore != nil {
      // `idle(for:)` emitted the character early; the whole gap is known now.
      gapBefore = pendingGap
    }
    pendingGap = 0
    estimator.add(duration, isMark: true)
    pending.append(duration)
    if unit == nil, estimator.markCount >= 6 {
      unit = estimator.estimate(near: nil)
      gapHistoryUnit = unit ?? 1
      removeSpikes()
      segment(complete: false)
    }
    return diff(before)
  }

  /// The key went down at `time` (milliseconds).
  @discardableResult
  public mutating func keyDown(at time: Double) -> String {
    defer {
      lastEvent = time
      keyIsDown = true
    }
    guard let last = lastEvent, !keyIsDown else { return "" }
    return feed(-(time - last))
  }

  /// The key came up at `time` (milliseconds).
  @discardableResult
  public mutating func keyUp(at time: Double) -> String {
    defer {
      lastEvent = time
      keyIsDown = false
    }
    guard let last = lastEvent, keyIsDown else { return "" }
    return feed(time - last)
  }

  /// The key has been up for `silence` milliseconds since the last event: emits the
  /// character once the gap is long enough to be certain. (The word space follows with the
  /// next character, so the text never ends in a space.)
  @discardableResult
  public mutating func idle(for silence: Double) -> String {
    guard !pending.isEmpty else { return "" }
    let before = text.utf8.count
    withdrew = false
    if unit == nil { unit = estimator.estimate(near: nil) }
    guard let unit, silence >= 2 * unit else { return "" }
    segment(complete: true)
    gapBefore = silence
    return diff(before)
  }

  /// Flushes what is left at the end of the input.
  @discardableResult
  public mutating func finish() -> String {
    let before = text.utf8.count
    withdrew = false
    if unit == nil { unit = estimator.estimate(near: nil) }
    segment(complete: true)
    pendingGap = 0
    return diff(before)
  }

  /// The dots and dashes of the character being keyed.
  public var pendingSymbols: String {
    guard let unit else { return "" }
    var symbols = ""
    for value in pending.reversed() {
      if value < 0, -value >= 2 * unit { break }
      if value > 0 { symbols.insert(value < 2 * unit ? "." : "-", at: symbols.startIndex) }
    }
    return symbols
  }

  /// What a call added to the text: the new characters, or the whole text when the error
  /// signal withdrew a character (compare lengths, not contents: streams are long).
  private func diff(_ before: Int) -> String {
    if withdrew || text.utf8.count < before { return text }
    return String(decoding: text.utf8.dropFirst(before), as: UTF8.self)
  }

  // MARK: Decoding

  /// Spikes keyed while the speed was unknown become part of the gap around them.
  private mutating func removeSpikes() {
    guard let unit else { return }
    var cleaned: [Double] = []
    for value in pending {
      if value > 0, value < spikeThreshold * unit, let last = cleaned.last, last < 0 {
        cleaned[cleaned.count - 1] = last - value
      } else if value < 0, let last = cleaned.last, last < 0 {
        cleaned[cleaned.count - 1] = last + value
      } else {
        cleaned.append(value)
      }
    }
    pending = cleaned
  }

  /// A gap has ended (the key went down again). A gap that may end a character (or pending
  /// keying too long for one) makes the unit be fitted again before the keying is read.
  private mutating func closeGap(_ gap: Double) {
    estimator.add(gap, isMark: false)
    pending.append(-gap)
    guard let unit else { return }
    let marks = pending.lazy.filter { $0 > 0 }.count
    if gap >= 1.6 * unit || marks > 8 {
      let estimate = estimator.estimate(near: unit)
      self.unit = estimate
      if let estimate, abs(log(estimate / gapHistoryUnit)) > 0.25 {
        // The speed has changed: gaps measured while the unit lagged behind mislead.
        recentLongGaps.removeAll()
        gapHistoryUnit = estimate
      }
      segment(complete: false)
    }
  }

  /// Reads the pending keying with the current unit: every character that a long gap has
  /// ended is emitted; the rest stays pending (all of it when `complete`).
  private mutating func segment(complete: Bool) {
    guard let unit else { return }
    var symbols = ""
    var consumed = 0
    // All the long gaps first: the first segmenting sees several, which tells stretched
    // spacing from word gaps.
    for value in pending where value < 0 && -value >= 2 * unit {
      recentLongGaps.append(-value / unit)
    }
    if recentLongGaps.count > 16 { recentLongGaps.removeFirst(recentLongGaps.count - 16) }
    for (index, value) in pending.enumerated() {
      if value > 0 {
        symbols.append(value < 2 * unit ? "." : "-")
        continue
      }
      let gap = -value
      guard gap >= 2 * unit else { continue }
      if !symbols.isEmpty { emit(symbols) }
      symbols = ""
      gapBefore = gap
      consumed = index + 1
    }
    if complete {
      if !symbols.isEmpty { emit(symbols) }
      pending.removeAll()
    } else {
      pending.removeFirst(consumed)
    }
  }

  /// Thresholds between a letter gap and a word gap, from the recent long gaps (in units of
  /// their time, so a change of speed does not mix them up): two groups when there are two
  /// (Farnsworth spacing stretches both), else the standard 3 and 7 units.
  private func gapThresholds(_ unit: Double) -> (letter: Double, word: Double) {
    let (letter, word) = gapThresholdsInUnits()
    return (letter * unit, word * unit)
  }

  private func gapThresholdsInUnits() -> (letter: Double, word: Double) {
    let unit = 1.0
    let letter = 2 * unit
    let gaps = recentLongGaps.sorted()
    guard gaps.count >= 3 else {
      // Standard spacing has letter gaps of 3 units and word gaps of 7; a shortest gap beyond
      // 8 units is a stretched (Farnsworth) letter gap.
      let shortest = gaps.first ?? 0
      return (letter, shortest > 8 * unit ? 1.6 * shortest : 5 * unit)
    }
    // Two groups when the gaps split cleanly in the log domain (letter and word gaps are
    // 3 : 7, 0.85 apart): the split with the least spread within the groups.
    let logs = gaps.map { log($0) }
    var best: (spread: Double, threshold: Double)?
    for index in 1..<logs.count {
      let low = logs[..<index]
      let high = logs[index...]
      let lowMean = low.reduce(0, +) / Double(low.count)
      let highMean = high.reduce(0, +) / Double(high.count)
      guard highMean - lowMean > 0.55 else { continue }
      let spread =
        low.reduce(0) { $0 + ($1 - lowMean) * ($1 - lowMean) }
        + high.reduce(0) { $0 + ($1 - highMean) * ($1 - highMean) }
      if spread < (best?.spread ?? .infinity) {
        best = (spread, (gaps[index - 1] * gaps[index]).squareRoot())
      }
    }
    if let best { return (letter, max(best.threshold, 4 * unit)) }
    // One group: these are letter gaps (far more common); words are 7/3 as long.
    let median = gaps[gaps.count / 2]
    return (letter, max(median * 1.55, 4 * unit))
  }

  private mutating func emit(_ symbols: String) {
    if symbols == MorseCode.Signal.error.rawValue {
      // Withdraw the last character (and the space before it).
      gapBefore = nil
      withdrew = true
      if !text.isEmpty { text.removeLast() }
      if text.hasSuffix(" ") { text.removeLast() }
      return
    }
    if let gap = gapBefore, let unit, gap >= gapThresholds(unit).word, !text.isEmpty {
      text.append(" ")
    }
    gapBefore = nil
    if let character = MorseCode.decodeTable[symbols] {
      text.append(character)
    } else if let signal = MorseCode.Signal(rawValue: symbols) {
      text += signal.text
    } else {
      text += replacement
    }
  }
}
