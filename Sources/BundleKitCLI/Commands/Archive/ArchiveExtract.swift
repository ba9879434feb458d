import ArgumentParser
import BundleKitArchiving
import BundleKitDiagnostics
import _BundleKitCommandLineTool

/// `bundlekit archive extract ARCHIVE -C DIR`.
struct ArchiveExtract: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract",
    abstract: "Extract an archive safely into a folder.",
    discussion: """
      Refuses '..' and absolute paths, links leading out of the folder and device files; \
      stops at the size, entry and compression-ratio limits (archive bombs). Everything is \
      extracted into a temporary folder beside DIR and moved into place only when complete: \
      into an existing DIR, files the archive holds replace those there and folders merge, \
      as with bsdtar, all or none. Links are judged on the final tree, with what DIR already \
      holds. Set-user-ID, set-group-ID and world-write bits are cleared unless \
      --preserve-permissions is given. A name that is not UTF-8 is extracted with its \
      bytes escaped as %XX.
      """
  )

  @Argument(help: "The archive.")
  var archive: String

  @Option(name: .customShort("C"), help: "The folder to extract into (created when missing).")
  var directory: String

  @Option(help: "The most bytes to extract.")
  var maxSize: Int64 = ExtractionLimits().maximumTotalSize

  @Option(help: "The most entries.")
  var maxEntries: Int = ExtractionLimits().maximumEntries

  @Option(help: "The most bytes extracted per byte of archive.")
  var maxRatio: Double = ExtractionLimits().maximumRatio

  @Flag(help: "Keep set-user-ID, set-group-ID and world-write bits as the archive has them.")
  var preservePermissions = false

  func run() throws {
    var limits = ExtractionLimits()
    limits.preservePermissions = preservePermissions
    limits.maximumTotalSize = maxSize
    limits.maximumEntries = maxEntries
    limits.maximumRatio = maxRatio
    try SafeExtractor.extract(archive, to: directory, limits: limits) {
      StandardStreams.printToStandardError($0)
    }
  }
}
