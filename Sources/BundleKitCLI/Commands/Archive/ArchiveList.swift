import ArgumentParser
import BundleKitArchiving
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit archive list ARCHIVE`.
struct ArchiveList: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List an archive's entries: type, mode, size, modification time (UTC), name."
  )

  @Argument(help: "The archive.")
  var archive: String

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) throws {
    // What could be read is shown; damage is reported after it, and fails the command.
    let listing = try ArchiveReader.listing(archive)
    let (entries, damage) = (listing.entries, listing.damage)
    defer { if let damage { run.diagnostics.emit(.error(archive, damage)) } }
    switch formatOptions.format(in: run) {
    case .text:
      var rows = [["TYPE", "MODE", "SIZE", "MODIFIED", "NAME"]]
      for entry in entries {
        let date =
          PropertyListValue.date(Date(timeIntervalSince1970: TimeInterval(entry.modificationTime)))
          .scalarText ?? ""
        rows.append([
          entry.type.rawValue, String(entry.mode, radix: 8), String(entry.size), date,
          entry.path + (entry.linkTarget.map { " -> \($0)" } ?? ""),
        ])
      }
      StandardStreams.writeToStandardOutput(Array(TextTable.render(rows).utf8))
    case .json:
      StandardStreams.writeJSON(entries)
    }
  }
}
