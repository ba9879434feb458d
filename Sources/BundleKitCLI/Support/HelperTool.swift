import BundleKitDiagnostics
import Foundation
import _BundleKitCommandLineTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program of BundleKit's built in a package of its own, so that `bundlekit`, which every
/// plugin user builds, carries none of its dependencies: `bundlekit-translate` (SQLite,
/// Hummingbird), `bundlekit-localize` (swift-syntax). The command that needs one replaces
/// itself with it, arguments passed on.
struct HelperTool {
  /// The program's name.
  var name: String
  /// The package that builds it (`Packages/BundleKitTranslate`).
  var package: String
  /// The command that runs it (`bundlekit translate`).
  var command: String
  /// How to build it, when not with its package (`swift build -c release --product ...`).
  var build: String? = nil

  /// `bundlekit-localize`, which `command` runs.
  static func localize(command: String) -> HelperTool {
    HelperTool(
      name: "bundlekit-localize", package: "Packages/BundleKitLocalize", command: command)
  }

  /// One line: how to get the helper.
  var howToGet: String {
    if let build {
      return
        "\(command) runs \(name): `make install` installs it beside bundlekit, or build it with `\(build)`"
    }
    return
      "\(command) runs \(name): `make install` installs it beside bundlekit, or build it with `swift build -c release --package-path \(package)` and use that package's .build/release/bundlekit"
  }

  /// The helper in this executable's folder (links resolved), else on `PATH`.
  func path() throws -> String {
    var candidates: [String] = []
    if let executable = Bundle.main.executablePath {
      let resolved = (executable as NSString).resolvingSymlinksInPath
      candidates.append(
        ((resolved as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name))
    }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      candidates.append("\(folder)/\(name)")
    }
    if let found = candidates.first(where: { access($0, X_OK) == 0 }) { return found }
    throw ToolError.invalidValue(
      value: name, kind: "program", reason: "not found beside bundlekit or on PATH; " + howToGet)
  }

  /// Replaces this process with the helper run with `arguments`; when the helper is missing,
  /// prints `overview` and how to get the helper if `asksForHelp`, and fails otherwise.
  func run(_ arguments: [String], asksForHelp: Bool, overview: String) throws {
    let path: String
    do {
      path = try self.path()
    } catch {
      // Help works without the helper, and says how to get it.
      guard asksForHelp else { throw error }
      StandardStreams.writeToStandardOutput(Array((overview + "NOTE: \(howToGet)\n").utf8))
      return
    }
    throw exec(path, arguments)
  }

  /// Replaces this process with the helper at `path`, run with `arguments`; returns only
  /// when that fails, with the reason.
  func exec(_ path: String, _ arguments: [String]) -> ToolError {
    let argv = [path] + arguments
    var cArguments = argv.map { strdup($0) }
    cArguments.append(nil)
    defer { for argument in cArguments { free(argument) } }
    execv(path, cArguments)
    return ToolError.invalidValue(
      value: path, kind: "program", reason: String(cString: strerror(errno)))
  }
}
