import ArgumentParser
import BundleKitArchiving
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitReleasing
import BundleKitStringsTable
import BundleKitVersioning
import Foundation
import _BundleKitCommandLineTool

#if canImport(Glibc)
  import Glibc
#endif

extension ArchiveFormat: ExpressibleByArgument {}

/// `bundlekit archive create PATH... -o OUT`.
struct ArchiveCreate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "create",
    abstract: "Archive files and folders: tar, tar.gz, tar.xz, tar.zst, tar.bz2, zip, 7z, cpio.",
    discussion: """
      Reproducible by default: the same bytes on every run, machine and time zone (sorted \
      entries, owner 0 and no owner names, one modification time from SOURCE_DATE_EPOCH or \
      1980-01-01, no access or change times, no gzip timestamp, zip dates in UTC). Symbolic \
      links are stored as links, permissions and empty folders kept; .DS_Store and .git are \
      left out. The archive is written to a temporary file and renamed when complete.
      """
  )

  @Argument(help: "Files and folders to archive; each is stored under its own name.")
  var paths: [String]

  @Option(name: .shortAndLong, help: "The archive to write.")
  var output: String

  @Option(help: "The format (default: from the extension of --output).")
  var format: ArchiveFormat?

  @Flag(help: "Keep real owners and times instead of reproducible metadata.")
  var noReproducible = false

  @Option(help: "Leave out names or paths matching this glob (repeatable).")
  var exclude: [String] = []

  @Flag(help: "Store extended attributes.")
  var xattrs = false

  @Option(help: "Compression level (format-specific, e.g. 1-9 for gzip).")
  var level: Int?

  @Flag(help: "Also write OUTPUT.sha256 with the SHA-256 of every file (sha256sum format).")
  var manifest = false

  @Flag(help: "Compile strings tables to binary plists in the archive (catalogs to <lang>.lproj).")
  var compileStrings = false

  @Option(
    help:
      "Add the version and build number of this Info.plist (or Xcode project, with --version-target) to the archive's name."
  )
  var versionFrom: String?

  @Option(help: "The target of --version-from's Xcode project whose version names the archive.")
  var versionTarget: String?

  @Flag(help: "Print the archive written, with its size and entries (what plugins show).")
  var printPath = false

  func run() throws {
    guard let chosen = format ?? ArchiveFormat(fileName: output) else {
      throw ToolError.invalidValue(
        value: output, kind: "archive name",
        reason: "give --format or an extension such as .tar.gz, .zip or .7z")
    }
    let output = try ResourceArchive.name(
      self.output, format: chosen, versionFrom: versionFrom, target: versionTarget)
    try FileIO.createFolders(for: output)
    var sources = paths
    var staging: ResourceStaging?
    if compileStrings {
      let stage = try ResourceStaging(copying: paths)
      staging = stage
      sources = stage.paths
    }
    defer { staging?.remove() }
    var options = ArchiveCreateOptions(format: chosen)
    options.reproducible = !noReproducible
    options.excludes = exclude
    options.extendedAttributes = xattrs
    options.level = level
    let bar = ProgressBar(label: Paths.lastComponent(output))
    let files = try ArchiveCreator.create(sources, to: output, options: options) { done, total in
      bar.update(done, total)
    }
    bar.finish()
    if printPath {
      var info = stat()
      let size = stat(output, &info) == 0 ? Int64(info.st_size) : 0
      StandardStreams.printLine("wrote \(output) (\(size) bytes, \(files.count) entries)")
    }
    if manifest {
      var lines = ""
      for file in files where file.type == .file {
        let bytes = try FileIO.read(file.source)
        lines += "\(SHA256.hex(bytes))  \(file.path)\n"
      }
      try FileIO.writeAtomically(Array(lines.utf8), to: output + ".sha256")
    }
  }
}

/// A one-line progress bar on standard error, only when it is a terminal.
final class ProgressBar {
  private let label: String
  private let enabled = StandardStreams.colorsAllowed(on: STDERR_FILENO)
  private var lastPercent = -1

  init(label: String) { self.label = label }

  func update(_ done: Int64, _ total: Int64) {
    guard enabled, total > 0 else { return }
    let percent = Int(done * 100 / total)
    guard percent != lastPercent else { return }
    lastPercent = percent
    let width = 30
    let filled = width * percent / 100
    let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    StandardStreams.writeToStandardError("\r\(label) [\(bar)] \(percent)%")
  }

  func finish() {
    if enabled, lastPercent >= 0 { StandardStreams.writeToStandardError("\n") }
  }
}
