import BundleKitFileSystem
import CBundleKitArchive
import Foundation

/// How to write an archive.
public struct ArchiveCreateOptions: Sendable {
  /// The format.
  public var format: ArchiveFormat
  /// Byte-identical output across runs, machines and time zones: sorted entries, owner 0,
  /// no owner names, one modification time, no access or change times, no gzip timestamp,
  /// zip dates in UTC. Off: real metadata.
  public var reproducible = true
  /// The modification time of every entry when reproducible (default: `SOURCE_DATE_EPOCH`,
  /// else 1980-01-01, the earliest date ZIP can hold).
  public var modificationTime: Int64?
  /// Glob patterns (matched against names and relative paths) to leave out, besides
  /// `.DS_Store` and `.git`.
  public var excludes: [String] = []
  /// Whether to store extended attributes.
  public var extendedAttributes = false
  /// The compression level, when the format has one.
  public var level: Int?

  /// Options for `format`.
  public init(format: ArchiveFormat) { self.format = format }

  /// Always left out.
  public static let defaultExcludes = [".DS_Store", ".git"]
}

/// One file added to an archive.
public struct ArchivedFile: Sendable, Hashable {
  /// The path inside the archive.
  public var path: String
  /// The file on disk.
  public var source: String
  /// The kind.
  public var type: ArchiveEntryType
  /// The size of a regular file.
  public var size: Int64
}

/// Writes archives with libarchive.
public enum ArchiveCreator {
  /// The files an archive of `paths` would hold, in archive order: each path's name at the
  /// top, folders walked, symbolic links not followed, excludes left out.
  public static func files(_ paths: [String], excludes: [String]) throws(ArchiveError)
    -> [ArchivedFile]
  {
    try walk(paths, excludes: excludes).map(\.file)
  }

  /// ``files(_:excludes:)``, each with whether it has no holes: the blocks the file system
  /// holds for it cover its size (true of folders and links), so libarchive need not ask
  /// where its data is (seven `lseek`s a file).
  static func walk(_ paths: [String], excludes: [String]) throws(ArchiveError)
    -> [(file: ArchivedFile, holeless: Bool)]
  {
    var result: [(file: ArchivedFile, holeless: Bool)] = []
    let patterns = ArchiveCreateOptions.defaultExcludes + excludes
    func excluded(_ relative: String) -> Bool {
      let name = Paths.lastComponent(relative)
      return patterns.contains { fnmatch($0, name, 0) == 0 || fnmatch($0, relative, 0) == 0 }
    }
    func visit(_ source: String, as archivePath: String) throws(ArchiveError) {
      var info = stat()
      guard lstat(source, &info) == 0 else {
        throw .file(path: source, message: String(cString: strerror(errno)))
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        result.append(
          (ArchivedFile(path: archivePath, source: source, type: .directory, size: 0), true))
        guard let listing = DirectoryWalker.names(in: source) else {
          throw .file(path: source, message: "cannot list the folder")
        }
        if let name = listing.undecodable.min() {
          throw .file(path: source + "/" + name, message: DirectoryWalker.undecodableMessage)
        }
        for name in listing.names where !excluded(archivePath + "/" + name) {
          try visit(source + "/" + name, as: archivePath + "/" + name)
        }
      case S_IFLNK:
        // A link out of what is archived would make an archive its own extract refuses.
        let target = FileIO.linkDestination(source) ?? ""
        let entry = ArchiveEntry(
          path: archivePath, type: .symlink, size: 0, mode: 0o777, modificationTime: 0,
          linkTarget: target)
        do {
          try SafeExtractor.check(entry, archive: source)
        } catch {
          throw .file(
            path: source,
            message:
              "is a symbolic link to '\(target)', outside what is archived: its archive could not be extracted safely; archive the folder it points to, or replace the link"
          )
        }
        result.append(
          (ArchivedFile(path: archivePath, source: source, type: .symlink, size: 0), true))
      case S_IFREG:
        result.append(
          (
            ArchivedFile(
              path: archivePath, source: source, type: .file, size: Int64(info.st_size)),
            Int64(info.st_blocks) * 512 >= Int64(info.st_size)
          ))
      default:
        throw .file(
          path: source,
          message: "is a device, FIFO or socket; archives hold files, folders and links")
      }
    }
    var names: [String: String] = [:]
    for path in paths {
      let name = try storedName(of: path)
      if let other = names[name] {
        if other == path { continue }
        throw .file(
          path: path, message: "would be stored as '\(name)', as \(other) is: rename one of them")
      }
      names[name] = path
      try visit(path, as: name)
    }
    // Byte order, so the archive is the same whatever order the file system lists.
    // By UTF-8 bytes, compared with memcmp: the generic element-by-element comparison was
    // most of the time before the first byte was compressed.
    result.sort { Self.precedes($0.file.path, $1.file.path) }
    return result
  }

  /// The name an input is stored under: its last component once `.` and `..` are resolved
  /// (`src/.` and `src/sub/..` are `src`), so every entry is a plain relative path.
  static func storedName(of path: String) throws(ArchiveError) -> String {
    let components = path.split(separator: "/")
    guard let last = components.last else {
      throw .file(path: path, message: "the root folder has no name: archive what is in it")
    }
    guard last == "." || last == ".." || components.contains("..") else { return String(last) }
    guard let real = FileIO.realPath(path) else {
      throw .file(path: path, message: String(cString: strerror(errno)))
    }
    let name = Paths.lastComponent(real)
    if name == "/" || name.isEmpty {
      throw .file(path: path, message: "the root folder has no name: archive what is in it")
    }
    return name
  }

  /// Writes an archive of `paths` to `output` atomically (a temporary file beside it, renamed
  /// when complete). Names go in as UTF-8 whatever the locale.
  ///
  /// - Parameters:
  ///   - paths: Files and folders to pack; folders are walked, hidden files kept.
  ///   - output: The archive to write; a character device or FIFO is written into.
  ///   - options: Format, compression, reproducibility, exclusions.
  ///   - progress: Called with the bytes written so far and the total.
  /// - Returns: The files packed, in archive order.
  /// - Throws: ``ArchiveError`` naming the file that could not be read or written; `output`
  ///   is then left as it was.
  @discardableResult
  public static func create(
    _ paths: [String], to output: String, options: ArchiveCreateOptions,
    progress: ((Int64, Int64) -> Void)? = nil
  ) throws(ArchiveError) -> [ArchivedFile] {
    let walked = try walk(paths, excludes: options.excludes)
    let total = walked.reduce(0) { $0 + $1.file.size }
    let file: AtomicFile
    do {
      file = try AtomicFile(output)
    } catch {
      throw .file(path: output, message: error.message)
    }
    let descriptor = file.descriptor
    // ZIP stores local DOS times: write them in UTC, whatever the machine's zone.
    let zone = UTCZone.enter(options.format == .zip && options.reproducible)
    defer { zone.leave() }
    let locale = UTF8Locale.enter()
    defer { locale.leave() }
    guard let writer = archive_write_new() else {
      throw .archive(path: output, message: ArchiveCreator.startFailure)
    }
    defer { archive_write_free(writer) }
    // tar.gz: libarchive writes the tar, ParallelGzip compresses it on every core.
    let gzip =
      options.format == .tarGzip
      ? ParallelGzip(
        descriptor: descriptor, level: options.level,
        modificationTime: options.reproducible
          ? 0 : UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970)))
      : nil
    try configure(writer, options, output: output, compressesItself: gzip == nil)
    if let gzip {
      let context = Unmanaged.passUnretained(gzip).toOpaque()
      let opened = archive_write_open(
        writer, context, nil,
        { _, context, buffer, length in
          guard let context, let buffer else { return 0 }
          let gzip = Unmanaged<ParallelGzip>.fromOpaque(context).takeUnretainedValue()
          gzip.append(UnsafeRawBufferPointer(start: buffer, count: length))
          // A failed write (a full disk) is said by `writeFailure` below.
          return gzip.failure == nil ? length : -1
        }, nil)
      guard opened == ARCHIVE_OK else { throw .archive(path: output, message: errorText(writer)) }
    } else {
      guard archive_write_open_fd(writer, descriptor) == ARCHIVE_OK else {
        throw .archive(path: output, message: errorText(writer))
      }
    }
    // libarchive's message, or the system's reason a compressed write failed.
    func writeFailure() -> String {
      gzip?.failure.map { "Write failed: \($0)" } ?? errorText(writer)
    }
    guard let disk = archive_read_disk_new() else {
      throw .archive(path: output, message: ArchiveCreator.startFailure)
    }
    defer { archive_read_free(disk) }
    var behavior = Int32(ARCHIVE_READDISK_NO_ACL | ARCHIVE_READDISK_NO_FFLAGS)
    if !options.extendedAttributes { behavior |= Int32(ARCHIVE_READDISK_NO_XATTR) }
    archive_read_disk_set_behavior(disk, behavior)
    let time =
      options.modificationTime
      ?? BuildEnvironment.sourceDateEpoch()
      ?? 315_532_800
    var written: Int64 = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    for (file, holeless) in walked {
      guard let entry = archive_entry_new() else {
        throw .archive(path: output, message: ArchiveCreator.startFailure)
      }
      defer { archive_entry_free(entry) }
      archive_entry_copy_sourcepath(entry, file.source)
      // A file is opened once: libarchive reads its metadata from the descriptor (it would
      // otherwise look the path up again and open it itself to look for holes), and its
      // bytes are read from it.
      var input: Int32 = -1
      if file.type == .file {
        input = open(file.source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
          throw .file(path: file.source, message: String(cString: strerror(errno)))
        }
      }
      defer { if input >= 0 { close(input) } }
      // A file with holes is stored sparse, as bsdtar stores it; the search for holes is
      // skipped where there can be none.
      archive_read_disk_set_behavior(
        disk, holeless ? behavior | Int32(ARCHIVE_READDISK_NO_SPARSE) : behavior)
      guard archive_read_disk_entry_from_file(disk, entry, input, nil) == ARCHIVE_OK else {
        throw .file(path: file.source, message: errorText(disk))
      }
      if input >= 0, lseek(input, 0, SEEK_SET) != 0 {
        throw .file(path: file.source, message: String(cString: strerror(errno)))
      }
      archive_entry_set_pathname_utf8(entry, file.path)
      if options.reproducible {
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        archive_entry_set_uname(entry, nil)
        archive_entry_set_gname(entry, nil)
        archive_entry_set_mtime(entry, time_t(time), 0)
        archive_entry_unset_atime(entry)
        archive_entry_unset_ctime(entry)
        archive_entry_unset_birthtime(entry)
        archive_entry_set_nlink(entry, 1)
        archive_entry_set_ino64(entry, 0)
        archive_entry_set_dev(entry, 0)
      }
      let status = archive_write_header(writer, entry)
      guard status >= ARCHIVE_WARN else {
        throw .archive(path: output, message: "\(file.path): \(writeFailure())")
      }
      guard file.type == .file else { continue }
      var remaining = file.size
      while remaining > 0 {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
          throw .file(
            path: file.source,
            message: count == 0
              ? "changed size while being archived" : String(cString: strerror(errno)))
        }
        let taken = Int(min(Int64(count), remaining))
        let accepted = buffer.withUnsafeBytes { archive_write_data(writer, $0.baseAddress, taken) }
        guard accepted == taken else { throw .archive(path: output, message: writeFailure()) }
        remaining -= Int64(taken)
        written += Int64(taken)
        progress?(written, total)
      }
    }
    guard archive_write_close(writer) == ARCHIVE_OK else {
      throw .archive(path: output, message: writeFailure())
    }
    if let failure = gzip?.finish() {
      throw .archive(path: output, message: "Write failed: \(failure)")
    }
    do {
      try file.commit()
    } catch {
      throw .file(path: output, message: error.message)
    }
    return walked.map(\.file)
  }

  /// Whether `a` sorts before `b` by their UTF-8 bytes.
  static func precedes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in
        let common = min(x.count, y.count)
        if common > 0, let p = x.baseAddress, let q = y.baseAddress {
          let order = memcmp(p, q, common)
          if order != 0 { return order < 0 }
        }
        return x.count < y.count
      }
    }
  }

  private static func configure(
    _ writer: OpaquePointer, _ options: ArchiveCreateOptions, output: String,
    compressesItself: Bool
  ) throws(ArchiveError) {
    var status: Int32
    var filter: String?
    switch options.format {
    case .tar, .tarGzip, .tarXz, .tarZstd, .tarBzip2:
      status = archive_write_set_format_pax_restricted(writer)
      switch options.format {
      case .tarGzip where compressesItself:
        status = min(status, archive_write_add_filter_gzip(writer))
        filter = "gzip"
      case .tarXz:
        status = min(status, archive_write_add_filter_xz(writer))
        filter = "xz"
      case .tarZstd:
        status = min(status, archive_write_add_filter_zstd(writer))
        filter = "zstd"
      case .tarBzip2:
        status = min(status, archive_write_add_filter_bzip2(writer))
        filter = "bzip2"
      default: break
      }
    case .zip:
      status = archive_write_set_format_zip(writer)
      filter = "zip"
    case .sevenZip:
      status = archive_write_set_format_7zip(writer)
      filter = "7zip"
    case .cpio:
      status = archive_write_set_format_cpio_newc(writer)
    }
    guard status == ARCHIVE_OK else { throw .archive(path: output, message: errorText(writer)) }
    var settings: [String] = []
    if filter == "gzip", options.reproducible { settings.append("gzip:!timestamp") }
    if let level = options.level, let filter {
      settings.append("\(filter):compression-level=\(level)")
    }
    if !settings.isEmpty,
      archive_write_set_options(writer, settings.joined(separator: ",")) != ARCHIVE_OK
    {
      throw .archive(path: output, message: errorText(writer))
    }
    // One record per block of output, as bsdtar writes it.
    archive_write_set_bytes_in_last_block(writer, 1)
  }

  /// Why libarchive could not start an archive: the library or a function of it missing
  /// (it is loaded when first used), or else libarchive's own refusal.
  static var startFailure: String {
    guard let missing = bundlekit_libarchive_missing() else { return "libarchive could not start" }
    let name = String(cString: missing)
    return name.hasPrefix("archive_")
      ? "the libarchive installed has no \(name): install libarchive 3.6 or later"
      : "libarchive (\(name)) could not be loaded: install libarchive"
  }

  /// libarchive's message, with the system's reason when it gives one apart ("Write failed"
  /// becomes "Write failed: No space left on device").
  static func errorText(_ archive: OpaquePointer) -> String {
    let code = archive_errno(archive)
    let reason = code > 0 ? String(cString: strerror(code)) : nil
    guard let message = archive_error_string(archive).map({ String(cString: $0) }) else {
      return reason ?? "libarchive error \(code)"
    }
    guard let reason, !message.contains(reason) else { return message }
    return message + ": " + reason
  }
}

/// Switches the process's time zone to UTC while ZIP dates are written or read (libarchive
/// converts them with the local zone). Serialised, since the zone is process-wide.
struct UTCZone {
  private static let lock = NSLock()
  private let previous: String?
  private let active: Bool

  static func enter(_ active: Bool) -> UTCZone {
    guard active else { return UTCZone(previous: nil, active: false) }
    lock.lock()
    let previous = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", "UTC0", 1)
    tzset()
    return UTCZone(previous: previous, active: true)
  }

  func leave() {
    guard active else { return }
    if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
    tzset()
    Self.lock.unlock()
  }
}
