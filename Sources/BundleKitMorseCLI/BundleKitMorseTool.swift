import ArgumentParser
import _BundleKitCommandLineTool

/// `bundlekit-morse`: the one-key Morse decoder and encoder from the command line. `bundlekit
/// morse ...` runs it, so the `bundlekit` that plugin users build carries no Morse.
struct BundleKitMorseTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundlekit morse",
    abstract: "Decode one-key Morse keying (durations or dots and dashes); encode text.",
    version: "0.1.0",
    subcommands: [MorseDecode.self, MorseEncode.self]
  )
}

/// Runs the tool with BundleKit's exit codes: 0 success, 1 user error, 2 usage error.
@main
enum Main {
  static func main() {
    ToolMain.run(BundleKitMorseTool.self)
  }
}
