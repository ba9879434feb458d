import Foundation
import PackagePlugin

extension PlannedCommand {
  /// The SwiftPM build command running `tool` as planned.
  func buildCommand(tool: URL) -> Command {
    .buildCommand(
      displayName: displayName, executable: tool, arguments: arguments,
      environment: environment, inputFiles: inputs, outputFiles: outputs)
  }
}
