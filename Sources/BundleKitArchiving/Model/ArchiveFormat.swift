/// The archive formats BundleKit writes and reads.
public enum ArchiveFormat: String, Sendable, CaseIterable, CustomStringConvertible {
  /// POSIX tar (pax, restricted to ustar where it can).
  case tar
  /// tar compressed with gzip.
  case tarGzip = "tar.gz"
  /// tar compressed with xz.
  case tarXz = "tar.xz"
  /// tar compressed with Zstandard.
  case tarZstd = "tar.zst"
  /// tar compressed with bzip2.
  case tarBzip2 = "tar.bz2"
  /// ZIP, deflated.
  case zip
  /// 7-Zip.
  case sevenZip = "7z"
  /// cpio (newc).
  case cpio

  /// The format name.
  public var description: String { rawValue }

  /// The format a file name's extension names (`.tgz` and `.tar.gz` alike), if any.
  public init?(fileName: String) {
    let name = fileName.lowercased()
    let table: [(String, ArchiveFormat)] = [
      (".tar.gz", .tarGzip), (".tgz", .tarGzip), (".tar.xz", .tarXz), (".txz", .tarXz),
      (".tar.zst", .tarZstd), (".tzst", .tarZstd), (".tar.bz2", .tarBzip2), (".tbz2", .tarBzip2),
      (".tar", .tar), (".zip", .zip), (".7z", .sevenZip), (".cpio", .cpio),
    ]
    guard let match = table.first(where: { name.hasSuffix($0.0) }) else { return nil }
    self = match.1
  }
}

/// What an archive entry is.
public enum ArchiveEntryType: String, Sendable, Hashable, Encodable {
  /// A regular file.
  case file
  /// A folder.
  case directory
  /// A symbolic link.
  case symlink
  /// A hard link to an earlier entry.
  case hardlink
  /// A device, FIFO or socket.
  case other
}

/// One entry of an archive.
public struct ArchiveEntry: Sendable, Hashable, Encodable {
  /// The path inside the archive.
  public var path: String
  /// The kind of entry.
  public var type: ArchiveEntryType
  /// The size of the data in bytes.
  public var size: Int64
  /// The permission bits.
  public var mode: UInt32
  /// The modification time, seconds since 1970.
  public var modificationTime: Int64
  /// For links, the target.
  public var linkTarget: String?
  /// The data, when read with `withData`.
  public var data: [UInt8]?

  /// An entry.
  public init(
    path: String, type: ArchiveEntryType, size: Int64, mode: UInt32, modificationTime: Int64,
    linkTarget: String? = nil, data: [UInt8]? = nil
  ) {
    self.path = path
    self.type = type
    self.size = size
    self.mode = mode
    self.modificationTime = modificationTime
    self.linkTarget = linkTarget
    self.data = data
  }
}

extension ArchiveEntry {
  /// `name`, `type`, `size`, `mode`, `mtime` and, for a link, `linkTarget`: the entry as
  /// `archive list --format json` prints it (the data is not part of it).
  private enum CodingKeys: String, CodingKey {
    case path = "name"
    case type, size, mode, linkTarget
    case modificationTime = "mtime"
  }
}
