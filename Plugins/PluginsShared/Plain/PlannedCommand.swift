import Foundation

/// A build command as the plugins work it out, before it meets SwiftPM's `Command`: plain
/// values, so the logic that computes them is unit-tested without PackagePlugin (which only
/// exists inside a plugin).
struct PlannedCommand: Equatable {
  /// What the build log shows.
  var displayName: String
  /// The arguments of `bundlekit`.
  var arguments: [String]
  /// Environment variables passed on.
  var environment: [String: String] = [:]
  /// Every file read: an edit to any of them reruns the command.
  var inputs: [URL]
  /// Every file written: the build waits for them and keeps them.
  var outputs: [URL]
}
