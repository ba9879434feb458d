import ArgumentParser
import _BundleKitCommandLineTool

/// The command lines a release script runs most, `bump build [PATH...]` and
/// `bump version CHANGE [PATH...]` with no option, read without the argument parser.
///
/// swift-argument-parser learns every command's options by reflection at each start (mirrors
/// of the command types, generic metadata and protocol conformances looked up one by one),
/// and looks for completion-script requests with two more parsers: 5.6 ms of a `bump build`
/// on this project's machines, against 2.4 ms for all the rest of its start. Here each of
/// these forms is one comparison of words. Any other command line (an option, `--help`,
/// `--`, a word starting with `-`, `--config` before the command ...) is the parser's, and
/// so is every usage error: a command whose `validate()` refuses goes to it too, to be
/// refused there in its words. `PlainCommandLineTests` checks that each form gives the very
/// command the parser gives.
enum PlainCommandLine {
  /// The command `arguments` (the command line without the program) names, or nil to leave
  /// them to the argument parser.
  static func command(_ arguments: [String]) -> (any ParsableCommand)? {
    guard arguments.count >= 2, arguments[0] == "bump",
      !arguments.contains(where: { $0.hasPrefix("-") })
    else { return nil }
    let operands = Array(arguments.dropFirst(2))
    var command: any ParsableCommand
    switch arguments[1] {
    case "build": command = bumpBuild(paths: operands)
    case "version":
      guard let change = operands.first else { return nil }
      command = bumpVersion(change, paths: Array(operands.dropFirst()))
    default: return nil
    }
    // What the parser would refuse, it refuses, with its message and usage.
    let options = plainBumpOptions
    guard (try? command.validate()) != nil, (try? options.validate()) != nil else { return nil }
    return command
  }

  /// `bump build PATH...`: every option at its default.
  private static func bumpBuild(paths: [String]) -> BumpBuild {
    var command = BumpBuild()
    command.paths = paths.isEmpty ? ["."] : paths
    command.to = nil
    command.scheme = .increment
    command.sync = false
    command.claim = nil
    command.claimRef = "refs/tags/build/*"
    command.allowJump = false
    command.options = plainBumpOptions
    return command
  }

  /// `bump version CHANGE PATH...`: every option at its default.
  private static func bumpVersion(_ change: String, paths: [String]) -> BumpVersion {
    var command = BumpVersion()
    command.change = change
    command.paths = paths.isEmpty ? ["."] : paths
    command.resetBuild = false
    command.options = plainBumpOptions
    return command
  }

  /// The options every bump shares, at their defaults.
  private static var plainBumpOptions: BumpOptions {
    var options = BumpOptions()
    options.dryRun = false
    options.includeTests = false
    options.target = []
    options.allowLower = false
    options.allowOutside = false
    var format = FormatOptions()
    format.given = nil
    options.formatOptions = format
    options.commit = false
    options.tag = false
    options.allowDetached = false
    return options
  }
}
