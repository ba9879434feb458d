import ArgumentParser
import CommandLineTool
import Diagnostics
import FileSystem
import Foundation
import PropertyListXML

/// `bundlekit plist lint FILE...`: check that files parse.
struct PlistLint: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check that property lists are well formed (like plutil -lint).",
    discussion:
      "Prints 'FILE: OK' for each good file; errors go to standard error in compiler style."
  )

  @Argument(help: "The property lists to check.")
  var files: [String]

  @OptionGroup var formatOptions: FormatOptions

  func run() throws {
    var failures = 0
    var report: [PropertyListValue] = []
    for file in files {
      do {
        let document = try PropertyListDocument(contentsOfFile: file)
        if formatOptions.format == .text {
          StandardStreams.printLine("\(file): OK")
        } else {
          report.append([
            "path": .string(file), "ok": true, "format": .string(document.format.rawValue),
          ])
        }
      } catch {
        failures += 1
        if formatOptions.format == .text {
          StandardStreams.report(Diagnostic.of(error))
        } else {
          report.append(["path": .string(file), "ok": false, "error": .string(error.description)])
        }
      }
    }
    if formatOptions.format == .json {
      StandardStreams.writeToStandardOutput(try PropertyListValue.array(report).encoded(as: .json))
    }
    if failures > 0 {
      throw ExitCode(1)
    }
  }
}
