import BundleKitFileSystem
import CBundleKitArchive
import Foundation

/// Reads archives of any format libarchive knows, from a file or from memory.
public enum ArchiveReader {
  /// The entries of an archive file, without their data. A damaged record (one libarchive
  /// can only skip, as bsdtar does with "Damaged tar archive; Retrying") is an error: a
  /// partial listing is not the archive.
  public static func list(_ path: String) throws(ArchiveError) -> [ArchiveEntry] {
    let listing = try listing(path)
    if let problem = listing.damage { throw .archive(path: path, message: problem) }
    return listing.entries
  }

  /// What `listing` read: the entries, and what was wrong with the rest.
  public struct Listing: Sendable {
    /// The entries that could be read, in archive order.
    public var entries: [ArchiveEntry]
    /// Why some records could not be read (and were skipped), or nil for a sound archive.
    public var damage: String?
  }

  /// The entries that could be read, and what was wrong with the rest: for callers that
  /// show both (`archive list` prints the entries, then the error).
  public static func listing(_ path: String) throws(ArchiveError) -> Listing {
    var entries: [ArchiveEntry] = []
    var damaged: [String] = []
    try read(
      source: .file(path), name: path, withData: false,
      damaged: { damaged.append($0) }, { entries.append($0) })
    guard let first = damaged.first else { return Listing(entries: entries, damage: nil) }
    return Listing(
      entries: entries,
      damage:
        "damaged archive: \(damaged.count) record\(damaged.count == 1 ? "" : "s") could not be read and \(damaged.count == 1 ? "was" : "were") skipped (\(first))"
    )
  }

  /// The entries of an archive held in memory, with the bytes of each file.
  public static func entries(of data: Data, name: String = "<memory>") throws(ArchiveError)
    -> [ArchiveEntry]
  {
    var entries: [ArchiveEntry] = []
    try read(source: .memory(data), name: name, withData: true) { entries.append($0) }
    return entries
  }

  enum Source {
    case file(String)
    case memory(Data)
  }

  static func open(_ source: Source, name: String) throws(ArchiveError) -> OpaquePointer {
    guard let reader = archive_read_new() else {
      throw .archive(path: name, message: ArchiveCreator.startFailure)
    }
    archive_read_support_filter_all(reader)
    archive_read_support_format_all(reader)
    let status: Int32
    switch source {
    case .file(let path):
      status = archive_read_open_filename(reader, path, 1 << 16)
    case .memory(let data):
      // libarchive reads the bytes in place; `data` outlives the reader in the callers.
      status = data.withUnsafeBytes { archive_read_open_memory(reader, $0.baseAddress, $0.count) }
    }
    guard status == ARCHIVE_OK else {
      let message = ArchiveCreator.errorText(reader)
      archive_read_free(reader)
      throw .archive(path: name, message: message)
    }
    return reader
  }

  /// Calls `body` for each entry. A damaged record that libarchive skips goes to `damaged`
  /// (its message); without that handler it is an error.
  static func read(
    source: Source, name: String, withData: Bool,
    damaged: ((String) -> Void)? = nil,
    _ body: (ArchiveEntry) throws(ArchiveError) -> Void
  ) throws(ArchiveError) {
    // ZIP dates are local times to libarchive: read them as UTC, as we write them.
    let zone = UTCZone.enter(true)
    defer { zone.leave() }
    let locale = UTF8Locale.enter()
    defer { locale.leave() }
    var retained: Data?
    if case .memory(let data) = source { retained = data }
    let reader = try open(source, name: name)
    defer {
      archive_read_free(reader)
      _ = retained
    }
    var entry: OpaquePointer?
    while true {
      let status = archive_read_next_header(reader, &entry)
      if status == ARCHIVE_EOF { return }
      if status == ARCHIVE_RETRY {
        let message = ArchiveCreator.errorText(reader)
        guard let damaged else {
          throw .archive(path: name, message: "damaged archive: \(message)")
        }
        damaged(message)
        continue
      }
      guard status >= ARCHIVE_WARN, let entry else {
        throw .archive(path: name, message: ArchiveCreator.errorText(reader))
      }
      // A warning (a malformed pax header, a name that cannot be read) is said, never passed
      // over in silence.
      if status == ARCHIVE_WARN {
        let message = ArchiveCreator.errorText(reader)
        guard let damaged else { throw .archive(path: name, message: message) }
        damaged(message)
      }
      var item = describe(entry)
      if withData, item.type == .file {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, min(item.size, 1 << 30))))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let count = chunk.withUnsafeMutableBytes {
            archive_read_data(reader, $0.baseAddress, $0.count)
          }
          if count == 0 { break }
          guard count > 0 else {
            throw .archive(path: name, message: ArchiveCreator.errorText(reader))
          }
          bytes.append(contentsOf: chunk[0..<count])
        }
        item.data = bytes
      }
      try body(item)
    }
  }

  /// An entry's fields.
  static func describe(_ entry: OpaquePointer) -> ArchiveEntry {
    let path = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map(name) ?? ""
    let kind: ArchiveEntryType
    let hardlink = (archive_entry_hardlink_utf8(entry) ?? archive_entry_hardlink(entry)).map(name)
    switch archive_entry_filetype(entry) {
    // AE_IFREG, AE_IFDIR, AE_IFLNK (macros with casts, which Swift does not import).
    case 0o100000: kind = hardlink == nil ? .file : .hardlink
    case 0o040000: kind = .directory
    case 0o120000: kind = .symlink
    default: kind = hardlink == nil ? .other : .hardlink
    }
    let symlink = (archive_entry_symlink_utf8(entry) ?? archive_entry_symlink(entry)).map(name)
    return ArchiveEntry(
      path: path, type: kind, size: archive_entry_size(entry),
      mode: UInt32(archive_entry_perm(entry)),
      modificationTime: Int64(archive_entry_mtime(entry)), linkTarget: symlink ?? hardlink)
  }

  /// A name as the archive holds it. Bytes that are not UTF-8 (an old zip's CP-437 or
  /// Latin-1 names) are escaped as `%XX`, never replaced by U+FFFD: two such names would
  /// otherwise collapse into one, and one entry would be lost.
  static func name(_ pointer: UnsafePointer<CChar>) -> String {
    let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var position = 0
    var result = ""
    result.reserveCapacity(bytes.count)
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        result.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        position += encoded.count
      case .error(let length):
        for byte in bytes[position..<position + length] {
          result += String(format: "%%%02X", byte)
        }
        position += length
      case .emptyInput:
        return result
      }
    }
  }
}
