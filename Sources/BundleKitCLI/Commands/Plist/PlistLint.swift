import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit plist lint FILE...`: check that files parse.
struct PlistLint: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check that property lists are well formed (like plutil -lint).",
    discussion:
      "Prints 'FILE: OK' for each good file; errors go to standard error in compiler style."
  )

  @Argument(help: "The property lists to check.")
  var files: [String]

  @OptionGroup var formatOptions: FormatOptions

  /// One file as `--format json` prints it.
  struct Row: Encodable {
    var path: String
    var ok: Bool
    var format: String?
    var error: String?
  }

  func run(_ run: ToolRun) throws {
    var report: [Row] = []
    run.diagnostics.checked(files)
    for file in files {
      do {
        let document = try PropertyListDocument(contentsOfFile: file)
        if formatOptions.format(in: run) == .text {
          StandardStreams.printLine("\(file): OK")
        } else {
          report.append(Row(path: file, ok: true, format: document.format.rawValue))
        }
      } catch {
        if formatOptions.format(in: run) == .text {
          run.diagnostics.emit(error: error)
        } else {
          run.diagnostics.record(Diagnostic.of(error))
          report.append(Row(path: file, ok: false, error: error.description))
        }
      }
    }
    if formatOptions.format(in: run) == .json { StandardStreams.writeJSON(report) }
  }
}

extension PlistLint: ReportsFindingsInFormat {}
