import ArgumentParser

/// `bundlekit morse`: the one-key Morse decoder and encoder from the command line.
struct MorseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "morse",
    abstract: "Decode one-key Morse keying (durations or dots and dashes); encode text.",
    subcommands: [MorseDecode.self, MorseEncode.self]
  )
}
