import ArgumentParser
import BundleKitDiagnostics
import BundleKitMorse
import _BundleKitCommandLineTool

/// `bundlekit morse encode TEXT`: text to keying.
struct MorseEncode: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "encode",
    abstract: "Encode text as signed durations (ms) or as dots and dashes."
  )

  /// What to print.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case timings, text
  }

  @Argument(help: "The text (letters, digits, punctuation of ITU-R M.1677-1).")
  var text: String

  @Option(help: "Character speed in words per minute (PARIS timing).")
  var wpm = 20.0

  @Option(help: "A lower overall speed: characters keep --wpm, the gaps stretch.")
  var farnsworth: Double?

  @Option(help: "timings (signed milliseconds) or text (dots and dashes).")
  var format = Format.timings

  func validate() throws {
    guard wpm.isFinite, wpm >= 1, wpm <= 200 else {
      throw ValidationError("--wpm must be between 1 and 200.")
    }
    if let farnsworth, !(farnsworth.isFinite && farnsworth >= 1 && farnsworth <= wpm) {
      throw ValidationError("--farnsworth must be between 1 and --wpm (\(wpm)).")
    }
  }

  func run() throws {
    try MorseInput.checkEncodable(text)
    switch format {
    case .text:
      StandardStreams.printLine(MorseEncoder.symbols(text))
    case .timings:
      let durations = MorseEncoder.durations(text, wpm: wpm, farnsworth: farnsworth)
      StandardStreams.printLine(durations.map(Self.format).joined(separator: " "))
    }
  }

  /// Whole milliseconds without a fraction; otherwise to a tenth.
  static func format(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int(tenths / 10)) }
    return String(tenths / 10)
  }
}
