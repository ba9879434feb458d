import Testing

@testable import bundlekit

/// `PlainCommandLine`, the command lines read without the argument parser: each gives the
/// very command the parser gives (every property, as `dump` writes it), and every other
/// command line is left to the parser.
struct PlainCommandLineTests {
  /// Command lines read without the parser: paths in any language, spaces, words the parser
  /// might take for something else (`help`, a command's name), an empty word.
  static let plain: [[String]] = [
    ["bump", "build"], ["bump", "build", "."], ["bump", "build", "App/Info.plist"],
    ["bump", "build", "App", "Widget Extension", "Приложение/Info.plist", "アプリ"],
    ["bump", "build", "help"], ["bump", "build", "version"], ["bump", "build", ""],
    ["bump", "version", "patch"], ["bump", "version", "major", "App"],
    ["bump", "version", "2.1.0", "App", "Tests/Info.plist"], ["bump", "version", "minor", "."],
  ]

  /// Command lines left to the parser: options, help, a `--`, `--config` before the
  /// command, another command, a missing or refused operand.
  static let others: [[String]] = [
    [], ["bump"], ["bump", "build", "--dry-run"], ["bump", "build", "App", "--to", "5"],
    ["bump", "build", "--to=5"], ["bump", "build", "-h"], ["bump", "build", "--help"],
    ["bump", "build", "--", "App"], ["bump", "build", "-"],
    ["--config", "bk.json", "bump", "build"],
    ["bump", "builds"], ["bump", "version"], ["bump", "version", "next"],
    ["bump", "version", "1.2.3.4.5.6"], ["strings", "lint"], ["help", "bump"],
  ]

  @Test("a plain command line gives the command the argument parser gives", arguments: plain)
  func sameCommand(_ arguments: [String]) throws {
    let plain = try #require(PlainCommandLine.command(arguments))
    let parsed = try BundleKit.parseAsRoot(arguments)
    #expect(Self.dumped(plain) == Self.dumped(parsed))
    #expect(type(of: plain) == type(of: parsed))
  }

  @Test("any other command line is left to the argument parser", arguments: others)
  func leftToParser(_ arguments: [String]) {
    #expect(PlainCommandLine.command(arguments) == nil)
  }

  /// `value` as `dump` writes it: the type, then each property's wrapper and value.
  static func dumped(_ value: Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
  }
}
