import BundleKitMorse
import Foundation

/// The `morse` suite: BundleKit's adaptive decoder against the classic fixed-threshold one
/// (dit length from the first mark, dah threshold twice the last dit), on the same generated
/// keying: speed (characters per second) and characters right.
enum MorseSuite {
  /// A small deterministic generator (SplitMix64), so every run keys the same text.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func gaussian() -> Double {
      let u1 = max(Double.random(in: 0..<1, using: &self), 1e-12)
      let u2 = Double.random(in: 0..<1, using: &self)
      return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
  }

  /// The decoder of earlier attempts: the first mark sets the dit; a mark over twice the last
  /// dit is a dah; a gap over twice the dit ends the letter, over five the word.
  static func naiveDecode(_ durations: [Double]) -> String {
    var dit: Double?
    var symbols = ""
    var text = ""
    func flush() {
      if !symbols.isEmpty { text += MorseCode.decodeTable[symbols].map(String.init) ?? "?" }
      symbols = ""
    }
    for value in durations {
      if value > 0 {
        let last = dit ?? value
        if value > 2 * last {
          symbols += "-"
        } else {
          symbols += "."
          dit = value
        }
        if dit == nil { dit = value }
      } else if let dit, -value > 2 * dit {
        flush()
        if -value > 5 * dit { text += " " }
      }
    }
    flush()
    return text
  }

  static func keying(
    _ generator: inout Generator, words: Int, wpm: (Int) -> Double, jitter: Double
  ) -> (text: String, durations: [Double]) {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    var text: [String] = []
    var durations: [Double] = []
    for index in 0..<words {
      let word = String(
        (0..<Int.random(in: 1...7, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator) ?? "E"
        })
      text.append(word)
      let dit = 1200 / wpm(index)
      var clean = MorseEncoder.durations(word, wpm: wpm(index))
      if index > 0 { clean.insert(-7 * dit, at: 0) }
      for value in clean {
        let noisy = max(abs(value) + jitter * dit * generator.gaussian(), 0.05 * dit)
        durations.append(value > 0 ? noisy : -noisy)
      }
    }
    return (text.joined(separator: " "), durations)
  }

  static func adaptiveDecode(_ durations: [Double]) -> String {
    var decoder = MorseDecoder()
    for value in durations { decoder.feed(value) }
    decoder.finish()
    return decoder.text
  }

  static func run() throws {
    print("## morse: decoding generated keying (random text, Gaussian jitter, seed 1)\n")
    var generator = Generator(state: 1)
    var cases: [(name: String, text: String, durations: [Double])] = []
    for jitter in [0.10, 0.25, 0.35] {
      var text = ""
      var durations: [Double] = []
      for wpm in [5.0, 12, 20, 30, 40] {
        let sample = keying(&generator, words: 60, wpm: { _ in wpm }, jitter: jitter)
        text += (text.isEmpty ? "" : " ") + sample.text
        durations += [-7 * 1200 / wpm] + sample.durations
      }
      cases.append(("5–40 WPM, \(Int(jitter * 100))% jitter", text, durations))
    }
    let change = keying(&generator, words: 200, wpm: { $0 < 100 ? 15 : 30 }, jitter: 0.15)
    cases.append(("15 → 30 WPM mid-stream, 15% jitter", change.text, change.durations))

    print(
      "| keying | characters | BundleKit right | fixed-threshold right | BundleKit chars/s | fixed chars/s | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for item in cases {
      let ours = adaptiveDecode(item.durations)
      let theirs = naiveDecode(item.durations)
      let ourTime = Bench.median { _ = adaptiveDecode(item.durations) }
      let theirTime = Bench.median { _ = naiveDecode(item.durations) }
      let count = Double(item.text.count)
      print(
        "| \(item.name) | \(item.text.count) | \(String(format: "%.2f%%", CopyScore.accuracy(copied: ours, sent: item.text) * 100)) | \(String(format: "%.2f%%", CopyScore.accuracy(copied: theirs, sent: item.text) * 100)) | \(String(format: "%.0f", count / ourTime)) | \(String(format: "%.0f", count / theirTime)) | \(String(format: "%.2fx", ourTime / theirTime)) |"
      )
    }
    print()
  }
}
