import BundleKitMorse
import BundleKitTestSupport
import Foundation
import Testing

/// Keying as a person does it: random text, a speed, Gaussian timing jitter on every element.
struct Keying {
  var generator: SeededGenerator

  mutating func gaussian() -> Double {
    // Box-Muller.
    let u1 = max(Double.random(in: 0..<1, using: &generator), 1e-12)
    let u2 = Double.random(in: 0..<1, using: &generator)
    return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
  }

  mutating func text(words: Int) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return (0..<words).map { _ in
      String(
        (0..<Int.random(in: 1...7, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator) ?? "E"
        })
    }.joined(separator: " ")
  }

  /// The mean share of characters decoded right over `texts` random texts.
  mutating func meanAccuracy(
    texts: Int, words: Int, wpm: (Int) -> Double, jitter: Double, farnsworth: Double? = nil
  ) -> Double {
    var total = 0.0
    for _ in 0..<texts {
      let text = self.text(words: words)
      let decoded = decode(durations(text, wpm: wpm, jitter: jitter, farnsworth: farnsworth))
      total += CopyScore.accuracy(copied: decoded, sent: text)
    }
    return total / Double(texts)
  }

  /// Durations with jitter of `jitter` dits (standard deviation) on every element; the speed
  /// can change from one word to the next.
  mutating func durations(
    _ text: String, wpm: (Int) -> Double, jitter: Double, farnsworth: Double? = nil
  ) -> [Double] {
    var result: [Double] = []
    for (index, word) in text.split(separator: " ").enumerated() {
      let speed = wpm(index)
      var clean = MorseEncoder.durations(
        String(word), wpm: speed, farnsworth: farnsworth.map { min($0, speed) })
      let dit = 1200 / speed
      if index > 0 {
        let wordGap =
          farnsworth.map { overall -> Double in
            let delay =
              (60 * speed - 37.2 * min(overall, speed)) / (min(overall, speed) * speed) * 1000
            return overall < speed ? 7 * delay / 19 : 7 * dit
          } ?? 7 * dit
        clean.insert(-wordGap, at: 0)
      }
      for value in clean {
        let noisy = abs(value) + jitter * dit * gaussian()
        result.append(value > 0 ? max(noisy, 0.05 * dit) : -max(noisy, 0.05 * dit))
      }
    }
    return result
  }
}

func decode(_ durations: [Double]) -> String {
  var decoder = MorseDecoder()
  for duration in durations { decoder.feed(duration) }
  decoder.finish()
  return decoder.text
}

struct MorseTableTests {
  @Test("ITU table: a is .-, h is ...., digits, punctuation; service signals")
  func table() {
    #expect(MorseCode.code(for: "a") == ".-")
    #expect(MorseCode.code(for: "H") == "....")
    #expect(MorseCode.code(for: "0") == "-----")
    #expect(MorseCode.code(for: "@") == ".--.-.")
    #expect(MorseCode.code(for: "×") == "-..-")
    #expect(MorseCode.table.count == 50)
    #expect(Set(MorseCode.table.values).count == MorseCode.table.count)
    #expect(MorseTextDecoder.decode(".- -... / -.-. ..--..") == "AB C?")
    #expect(MorseTextDecoder.decode("... --- ...-.-") == "SO<SK>")
    #expect(MorseTextDecoder.decode(".- -... ........ -.-.") == "AC")
    #expect(MorseTextDecoder.decode("..--..-- .-", replacement: "*") == "*A")
    #expect(MorseEncoder.symbols("Sos, hi") == "... --- ... --..-- / .... ..")
  }

  @Test("copy score: edit distance over the sent length")
  func copyScore() {
    #expect(CopyScore.accuracy(copied: "PARIS", sent: "PARIS") == 1)
    #expect(CopyScore.accuracy(copied: "PARS", sent: "PARIS") == 0.8)
    #expect(CopyScore.accuracy(copied: "PAXRIS", sent: "PARIS") == 0.8)
    #expect(CopyScore.accuracy(copied: "KITTEN", sent: "SITTING") == 1 - 3.0 / 7)
    #expect(CopyScore.accuracy(copied: "QQQQQQQQQQ", sent: "AB") == 0)
    #expect(CopyScore.accuracy(copied: "", sent: "") == 1)
  }

  @Test("prefix completion lists what a partial sequence can still become")
  func completions() {
    let after = MorseCode.completions(of: "..-").map(\.text)
    #expect(
      after.prefix(3) == ["U", "F", "2"] || after.prefix(3) == ["U", "F", "É"]
        || after.contains("U"))
    #expect(Set(after).isSuperset(of: ["U", "F", "2", "?", "É"]))
    #expect(MorseCode.completions(of: "........").map(\.text) == ["<HH>"])
  }
}

struct MorseDecoderTests {
  /// Keys `text` at 20 WPM as key events from `clock` on; the text that came out.
  func key(_ text: String, into decoder: inout MorseDecoder, clock: inout Double) -> String {
    var out = ""
    for value in MorseEncoder.durations(text, wpm: 20) {
      if value > 0 {
        out += decoder.keyDown(at: clock)
        clock += value
        out += decoder.keyUp(at: clock)
      } else {
        clock += -value
      }
    }
    return out
  }

  @Test("clean keying at 5, 20, 60 WPM; the first letter is not lost", arguments: [5.0, 20, 60])
  func clean(wpm: Double) {
    #expect(
      decode(MorseEncoder.durations("PARIS PARIS HELLO WORLD", wpm: wpm))
        == "PARIS PARIS HELLO WORLD")
    #expect(decode(MorseEncoder.durations("OTM MOT", wpm: wpm)) == "OTM MOT", "dashes only")
    #expect(decode(MorseEncoder.durations("EISH 5", wpm: wpm)) == "EISH 5", "dots only")
  }

  @Test("key events with timestamps, streaming output, idle flush, spikes, error signal")
  func events() {
    var decoder = MorseDecoder()
    var time = 1000.0
    var out = key("SOS TEST", into: &decoder, clock: &time)
    out += decoder.idle(for: 1000)
    #expect(out == "SOS TEST")
    #expect(decoder.text == "SOS TEST")
    // Idle flushes a letter early; the key going down much later still makes a word space.
    var early = MorseDecoder()
    var clock = 0.0
    var shown = ""
    for (index, word) in ["SOS", "TEST"].enumerated() {
      if index > 0 {
        shown += early.idle(for: 200)
        clock += 600
      }
      shown += key(word, into: &early, clock: &clock)
    }
    shown += early.finish()
    #expect(shown == "SOS TEST")
    // A single mark and silence: the letter comes out on idle, before any speed is known.
    var single = MorseDecoder()
    single.keyDown(at: 0)
    single.keyUp(at: 62)
    #expect(single.idle(for: 100) == "")
    #expect(single.idle(for: 400) == "E")
    // A 5 ms spike (a quarter of a 20 WPM dit... well under half) is ignored.
    var noisy = MorseEncoder.durations("PARIS", wpm: 20)
    if let letterGap = noisy.firstIndex(of: -180) {
      noisy.replaceSubrange(letterGap...letterGap, with: [-80, 5, -95])
    }
    #expect(noisy.count == MorseEncoder.durations("PARIS", wpm: 20).count + 2)
    var spiked = MorseDecoder()
    for value in noisy { spiked.feed(value) }
    spiked.finish()
    #expect(spiked.text == "PARIS")
    // With the textbook threshold, a spike of 0.45 dit inside a gap is ignored too.
    var strict = MorseDecoder()
    strict.spikeThreshold = 0.5
    var halfDit = MorseEncoder.durations("PARIS", wpm: 20)
    if let letterGap = halfDit.firstIndex(of: -180) {
      halfDit.replaceSubrange(letterGap...letterGap, with: [-80, 27, -73])
    }
    for value in halfDit { strict.feed(value) }
    strict.finish()
    #expect(strict.text == "PARIS")
    // Eight dots withdraw the last character.
    #expect(
      decode(
        MorseEncoder.durations("ABX", wpm: 20) + [-180] + MorseEncoder.durations("H", wpm: 20) + [
          -60
        ] + MorseEncoder.durations("H", wpm: 20) + [-180] + MorseEncoder.durations("C", wpm: 20))
        == "ABC")
    // Unknown sequences give the replacement, never a crash.
    var strange = MorseDecoder()
    strange.replacement = "*"
    for value in [60.0, -60, 180, -60, 60, -60, 180, -60, 60, -60, 180, -60, 180, -200, 60] {
      strange.feed(value)
    }
    strange.finish()
    #expect(strange.text == "*E")
  }

  @Test("at least 99% of characters right with 25% timing jitter, 5 to 40 WPM")
  func jitter() {
    let seed = SeededGenerator.seed("morse jitter")
    var keying = Keying(generator: SeededGenerator(seed: seed))
    let mean =
      [5.0, 10, 15, 20, 25, 30, 35, 40].map { wpm in
        keying.meanAccuracy(texts: 6, words: 25, wpm: { _ in wpm }, jitter: 0.25)
      }.reduce(0, +) / 8
    print(
      "morse: \(String(format: "%.2f", mean * 100))% characters right at 25% jitter (seed \(seed))")
    #expect(mean >= 0.99)
  }

  @Test("speed changes mid-stream at 25% jitter, a doubling included, and Farnsworth spacing")
  func speedChanges() {
    let seed = SeededGenerator.seed("morse speed changes")
    var keying = Keying(generator: SeededGenerator(seed: seed))
    let changes = [(10.0, 20.0), (20, 40), (30, 60), (30, 15), (8, 25)]
    let speedMean =
      changes.map { from, to in
        keying.meanAccuracy(texts: 3, words: 30, wpm: { $0 < 15 ? from : to }, jitter: 0.25)
      }.reduce(0, +) / Double(changes.count)
    let spacings = [(18.0, 5.0), (20, 10), (25, 12)]
    let farnsworthMean =
      spacings.map { character, overall in
        keying.meanAccuracy(
          texts: 3, words: 25, wpm: { _ in character }, jitter: 0.15, farnsworth: overall)
      }.reduce(0, +) / Double(spacings.count)
    print(
      "morse: \(String(format: "%.2f", speedMean * 100))% with speed changes, \(String(format: "%.2f", farnsworthMean * 100))% with Farnsworth spacing (seed \(seed))"
    )
    #expect(speedMean >= 0.98)
    #expect(farnsworthMean >= 0.98)
  }

  @Test("accuracy against jitter, 10% to 40% (for the README), at least what it documents")
  func jitterTable() {
    let seed = SeededGenerator.seed("morse jitter table")
    var keying = Keying(generator: SeededGenerator(seed: seed))
    // The least each row may show: the documented table (BundleKitMorse.md) less the spread
    // of seeds (five seeds: 20% 99.88-100, 25% 99.32-99.76, 30% 97.79-98.70, 35% 92.72-94.23,
    // 40% 84.68-86.09) and a margin.
    let floors: [(jitter: Double, least: Double)] = [
      (0.10, 0.995), (0.20, 0.995), (0.25, 0.985), (0.30, 0.965), (0.35, 0.90), (0.40, 0.81),
    ]
    var rows: [String] = []
    var previous = 1.0
    for (jitter, least) in floors {
      let mean =
        [5.0, 12, 20, 30, 40].map { wpm in
          keying.meanAccuracy(texts: 4, words: 25, wpm: { _ in wpm }, jitter: jitter)
        }.reduce(0, +) / 5
      rows.append("| \(Int(jitter * 100))% | \(String(format: "%.2f", mean * 100))% |")
      #expect(mean >= least, "\(Int(jitter * 100))% jitter: \(mean) (seed \(seed))")
      // More jitter never reads better (beyond a seed's noise).
      #expect(mean <= previous + 0.002, "\(Int(jitter * 100))% jitter: \(mean) (seed \(seed))")
      previous = mean
    }
    print(
      "morse accuracy table (seed \(seed)):\n| jitter (σ, share of a dit) | characters right |\n|---|---:|\n"
        + rows.joined(separator: "\n"))
  }
}
