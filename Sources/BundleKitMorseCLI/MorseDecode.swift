import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitMorse
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit morse decode [FILE|-]`: keying to text.
struct MorseDecode: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "decode",
    abstract: "Decode signed durations or dots and dashes into text.",
    discussion: """
      Durations are milliseconds, positive while the key is down and negative while it is \
      up, separated by spaces, commas or new lines; the speed is learned from the keying. \
      Dots and dashes ('.-' text) split letters by spaces and words by ' / '.
      """
  )

  @Argument(help: "The input file, or - for standard input (the default).")
  var input = "-"

  @Option(help: "Written for a sequence that is no character.")
  var replacement = "\u{FFFD}"

  func run() throws {
    let name = input == "-" ? "<stdin>" : input
    let bytes =
      input == "-"
      ? [UInt8](FileHandle.standardInput.readDataToEndOfFile())
      : try FileIO.read(input, allowingStreams: true)
    guard let text = UTF8Text.validated(bytes) else {
      throw MorseInputError.notUTF8(file: name)
    }
    StandardStreams.printLine(try MorseInput.decode(text, file: name, replacement: replacement))
  }
}
