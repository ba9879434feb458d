import Foundation
import PackagePlugin

/// Runs `bundlekit` for a command plugin: its output goes to the terminal, and a failure
/// fails the command.
enum ToolRunner {
  static func run(_ tool: URL, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Diagnostics.error("bundlekit \(arguments.prefix(2).joined(separator: " ")) failed")
      throw PluginFailure(status: process.terminationStatus)
    }
  }
}

/// A tool run that failed.
struct PluginFailure: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "bundlekit exited with status \(status)" }
}
