import CArchive
import Foundation
import PropertyList

/// Limits that keep a hostile archive from filling the disk.
public struct ExtractionLimits: Sendable {
  /// The most bytes extracted in all.
  public var maximumTotalSize: Int64 = 8 << 30
  /// The most entries.
  public var maximumEntries = 200_000
  /// The most bytes extracted per byte of archive, checked once 64 MiB are out (zip bombs).
  public var maximumRatio: Double = 200

  /// The defaults: 8 GiB, 200,000 entries, 200:1.
  public init() {}
}

/// Extracts archives safely: no `..`, no absolute paths, no links that lead out of the
/// destination, no device files, limits on size, entries and compression ratio. Everything
/// lands in a temporary folder beside the destination and moves into place only when the
/// whole archive has been extracted.
public enum SafeExtractor {
  /// Extracts `archive` into `destination` (created when missing). Returns the entries.
  @discardableResult
  public static func extract(
    _ archive: String, to destination: String, limits: ExtractionLimits = ExtractionLimits()
  ) throws(ArchiveError) -> [ArchiveEntry] {
    var info = stat()
    guard stat(archive, &info) == 0 else {
      throw .file(path: archive, message: String(cString: strerror(errno)))
    }
    let archiveSize = max(Int64(info.st_size), 1)
    var destinationInfo = stat()
    let destinationExists = stat(destination, &destinationInfo) == 0
    if destinationExists, destinationInfo.st_mode & S_IFMT != S_IFDIR {
      throw .file(path: destination, message: "exists and is not a folder")
    }
    let parent = Paths.parent(destination)
    var template = Array(
      "\(parent)/.\(Paths.lastComponent(destination)).extracting-XXXXXX".utf8CString)
    guard
      template.withUnsafeMutableBufferPointer({ $0.baseAddress.map { mkdtemp($0) } ?? nil }) != nil
    else {
      throw .file(path: destination, message: "cannot create a temporary folder beside it")
    }
    var staging = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Entries are written below the staging folder by absolute path: resolve any symbolic
    // link above it first, so the symlink guard only ever sees the archive's own paths.
    if let resolved = realpath(staging, nil) {
      staging = String(cString: resolved)
      free(resolved)
    }
    var moved = false
    defer {
      if !moved { try? FileManager.default.removeItem(atPath: staging) }
    }
    let entries = try extractEntries(
      archive, into: staging, archiveSize: archiveSize, limits: limits)
    // Move into place; an existing destination keeps what the archive does not hold, and
    // nothing is moved if a top-level name is already taken.
    if !destinationExists {
      guard rename(staging, destination) == 0 else {
        throw .file(path: destination, message: String(cString: strerror(errno)))
      }
      moved = true
      return entries
    }
    let top = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
    for name in top where FileManager.default.fileExists(atPath: destination + "/" + name) {
      throw .file(path: destination + "/" + name, message: "already exists; nothing was extracted")
    }
    for name in top.sorted() {
      guard rename(staging + "/" + name, destination + "/" + name) == 0 else {
        throw .file(path: destination + "/" + name, message: String(cString: strerror(errno)))
      }
    }
    return entries
  }

  private static func extractEntries(
    _ archive: String, into staging: String, archiveSize: Int64, limits: ExtractionLimits
  ) throws(ArchiveError) -> [ArchiveEntry] {
    let zone = UTCZone.enter(true)
    defer { zone.leave() }
    let reader = try ArchiveReader.open(.file(archive), name: archive)
    defer { archive_read_free(reader) }
    guard let writer = archive_write_disk_new() else {
      throw .archive(path: archive, message: "libarchive could not start")
    }
    defer { archive_write_free(writer) }
    let flags =
      // `..` and absolute paths are refused by `check` before the path is rewritten to the
      // (absolute) staging folder; libarchive still refuses to write through symbolic links.
      ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_SECURE_SYMLINKS
      | ARCHIVE_EXTRACT_NO_OVERWRITE
    archive_write_disk_set_options(writer, Int32(flags))
    var entries: [ArchiveEntry] = []
    var total: Int64 = 0
    var entry: OpaquePointer?
    while true {
      let status = archive_read_next_header(reader, &entry)
      if status == ARCHIVE_EOF { break }
      guard status >= ARCHIVE_WARN, let entry else {
        throw .archive(path: archive, message: ArchiveCreator.errorText(reader))
      }
      let item = ArchiveReader.describe(entry)
      try check(item, archive: archive)
      entries.append(item)
      guard entries.count <= limits.maximumEntries else {
        throw .limit(
          archive: archive,
          message: "more than \(limits.maximumEntries) entries (raise with --max-entries)")
      }
      // Extract below the staging folder: rewrite the path (and a hard link's target).
      archive_entry_set_pathname_utf8(entry, staging + "/" + item.path)
      if item.type == .hardlink, let target = item.linkTarget {
        archive_entry_set_hardlink_utf8(entry, staging + "/" + target)
      }
      guard archive_write_header(writer, entry) >= ARCHIVE_WARN else {
        throw .unsafeEntry(
          archive: archive, entry: item.path, reason: ArchiveCreator.errorText(writer))
      }
      var block: UnsafeRawPointer?
      var size = 0
      var offset: Int64 = 0
      while true {
        let result = archive_read_data_block(reader, &block, &size, &offset)
        if result == ARCHIVE_EOF { break }
        guard result >= ARCHIVE_WARN else {
          throw .archive(path: archive, message: ArchiveCreator.errorText(reader))
        }
        total += Int64(size)
        guard total <= limits.maximumTotalSize else {
          throw .limit(
            archive: archive,
            message:
              "extracts to more than \(limits.maximumTotalSize) bytes (raise with --max-size)")
        }
        if total > 64 << 20, Double(total) / Double(archiveSize) > limits.maximumRatio {
          throw .limit(
            archive: archive,
            message:
              "expands more than \(Int(limits.maximumRatio)) times its size: an archive bomb? (raise with --max-ratio)"
          )
        }
        guard archive_write_data_block(writer, block, size, offset) >= ARCHIVE_WARN else {
          throw .archive(path: archive, message: ArchiveCreator.errorText(writer))
        }
      }
      guard archive_write_finish_entry(writer) >= ARCHIVE_WARN else {
        throw .archive(path: archive, message: ArchiveCreator.errorText(writer))
      }
    }
    guard archive_write_close(writer) == ARCHIVE_OK else {
      throw .archive(path: archive, message: ArchiveCreator.errorText(writer))
    }
    return entries
  }

  /// Refuses entries that could write outside the destination.
  static func check(_ entry: ArchiveEntry, archive: String) throws(ArchiveError) {
    func refuse(_ reason: String) -> ArchiveError {
      .unsafeEntry(archive: archive, entry: entry.path, reason: reason)
    }
    if entry.path.hasPrefix("/") { throw refuse("absolute path") }
    let components = entry.path.split(separator: "/", omittingEmptySubsequences: true)
    if components.contains("..") { throw refuse("'..' in the path") }
    if components.isEmpty { throw refuse("empty path") }
    switch entry.type {
    case .other:
      throw refuse("device files, FIFOs and sockets are not extracted")
    case .symlink, .hardlink:
      guard let target = entry.linkTarget else { throw refuse("link without a target") }
      if target.hasPrefix("/") { throw refuse("link to an absolute path (\(target))") }
      // Resolve the target from the link's folder (hard links: from the top) and stay inside.
      var depth = entry.type == .symlink ? components.count - 1 : 0
      for part in target.split(separator: "/", omittingEmptySubsequences: true) {
        if part == ".." {
          depth -= 1
          if depth < 0 { throw refuse("link leads outside the destination (\(target))") }
        } else if part != "." {
          depth += 1
        }
      }
    default:
      break
    }
  }
}
