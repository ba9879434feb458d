import BundleKitFileSystem
import CBundleKitArchive
import Foundation

/// Limits that keep a hostile archive from filling the disk.
public struct ExtractionLimits: Sendable {
  /// The most bytes extracted in all, counting each file at its full (logical) size: a
  /// sparse entry counts what it would take if its holes were filled.
  public var maximumTotalSize: Int64 = 8 << 30
  /// The most entries.
  public var maximumEntries = 200_000
  /// The most bytes extracted per byte of archive, checked once 64 MiB are out (zip bombs).
  public var maximumRatio: Double = 200
  /// Whether set-user-ID, set-group-ID and world-writable bits are kept. Off by default: an
  /// archive from a stranger extracted as root must not plant a setuid program or a file
  /// anyone can change.
  public var preservePermissions = false

  /// The defaults: 8 GiB, 200,000 entries, 200:1.
  public init() {}

  /// A limit an extraction reached: the name of its diagnostic's rule
  /// (``BundleKitDiagnostics/Diagnostic/Rule/refusal(_:)``), by which a tool says how to raise it.
  public enum Limit: String, Sendable, Hashable, CaseIterable {
    /// ``ExtractionLimits/maximumTotalSize``.
    case totalSize = "archive-size-limit"
    /// ``ExtractionLimits/maximumRatio``.
    case ratio = "archive-ratio-limit"
    /// ``ExtractionLimits/maximumEntries``.
    case entries = "archive-entry-limit"
    /// The links an archive may hold (fixed).
    case links = "archive-link-limit"
  }
}

/// Extracts archives safely: no `..`, no absolute paths, no links that lead out of the
/// destination (resolved through the links extracted before them, as the file system would),
/// no device files, limits on size, entries and compression ratio. Everything lands in a
/// scratch folder beside the destination and moves into place only when the whole archive
/// has been extracted and flushed to disk: a new folder in one rename, an existing one as a
/// journaled batch of renames (files the archive holds replace those there, folders merge,
/// as bsdtar does), so a failed or killed run leaves the destination as it was, or, once the
/// batch is committed, finished by the next run.
public enum SafeExtractor {
  /// Extracts `archive` into `destination` (created when missing) through a staging folder:
  /// all of it or, on any error, none of it.
  ///
  /// - Parameters:
  ///   - archive: The archive, in any format libarchive reads.
  ///   - destination: The folder to extract into; existing files are replaced and folders
  ///     merged, as bsdtar does.
  ///   - limits: Entry count, total size (sparse entries at their full size), depth.
  ///   - warning: Hears what was extracted differently from the archive's word.
  /// - Returns: The entries extracted.
  /// - Throws: ``ArchiveError`` for a refused entry (a path or link that leads out, a device),
  ///   a limit reached or a failed write; `destination` is then as it was.
  @discardableResult
  public static func extract(
    _ archive: String, to destination: String, limits: ExtractionLimits = ExtractionLimits(),
    warning: (String) -> Void = { _ in }
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
    let staging: ScratchFolder
    do {
      try FileIO.createFolders(for: destination)
      staging = try ScratchFolder(beside: destination)
    } catch {
      throw .file(path: destination, message: error.message)
    }
    // Entries are written below the staging folder by absolute path: resolve any symbolic
    // link above it first, so libarchive's symlink guard only sees the archive's own paths.
    let root = FileIO.realPath(staging.path) ?? staging.path
    let extracted = try extractEntries(
      archive, into: root, archiveSize: archiveSize, limits: limits)
    // Links are judged once more on the tree as it will be: what was extracted, over what
    // the destination already holds. A link checked before the link it goes through, or one
    // an entry of the same name did not replace on disk, is caught here.
    try LinkAudit.check(
      staging: root, destination: destinationExists ? destination : nil, archive: archive)
    do {
      try staging.flush()
    } catch {
      throw .file(path: destination, message: error.message)
    }
    if !destinationExists {
      // An entry `.` gives the new folder its mode, as bsdtar does; else the umask decides.
      staging.setMode(mode_t(extracted.topMode ?? (0o777 & ~UInt32(FileIO.processUmask))))
      if rename(staging.path, destination) == 0 {
        staging.release()
        FileIO.syncFolder(Paths.parent(destination))
        return extracted.entries
      }
      // Another run created it meanwhile: merge into it like into any existing folder.
      guard errno == EEXIST || errno == ENOTEMPTY else {
        throw .file(path: destination, message: String(cString: strerror(errno)))
      }
    } else if extracted.topMode != nil {
      warning(
        "\(archive): warning: the entry '.' (the folder itself) was not applied to the existing folder \(destination)"
      )
    }
    try merge(staging, into: destination)
    return extracted.entries
  }

  /// Moves the extracted tree into an existing folder, holding a lock on it: missing names
  /// move whole, files replace files, folders merge. A file where a folder is (or the other
  /// way round) stops the run before anything moves.
  private static func merge(_ staging: ScratchFolder, into destination: String)
    throws(ArchiveError)
  {
    let lock = open(destination, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard lock >= 0 else {
      throw .file(path: destination, message: String(cString: strerror(errno)))
    }
    defer { close(lock) }
    while flock(lock, LOCK_EX) != 0, errno == EINTR {}
    var moves: [FileMoves.FileMove] = []
    try planMoves(from: staging.path, into: destination, &moves)
    do {
      try FileMoves.perform(moves, transaction: staging.transaction)
    } catch {
      throw .file(path: error.path, message: error.message)
    }
    staging.remove()
  }

  private static func planMoves(
    from source: String, into target: String, _ moves: inout [FileMoves.FileMove]
  ) throws(ArchiveError) {
    for name in (DirectoryWalker.names(in: source)?.names ?? []).sorted() {
      let from = Paths.join(source, name)
      let to = Paths.join(target, name)
      var existing = stat()
      guard lstat(to, &existing) == 0 else {
        moves.append(FileMoves.FileMove(source: from, target: to))
        continue
      }
      var incoming = stat()
      _ = lstat(from, &incoming)
      let existingIsFolder = existing.st_mode & S_IFMT == S_IFDIR
      let incomingIsFolder = incoming.st_mode & S_IFMT == S_IFDIR
      switch (existingIsFolder, incomingIsFolder) {
      case (true, true):
        try planMoves(from: from, into: to, &moves)
      case (false, false):
        moves.append(FileMoves.FileMove(source: from, target: to))
      case (true, false):
        throw .file(
          path: to,
          message: "is a folder, and the archive holds a file there; nothing was extracted")
      case (false, true):
        throw .file(
          path: to,
          message: "is not a folder, and the archive holds a folder there; nothing was extracted")
      }
    }
  }

  private static func extractEntries(
    _ archive: String, into staging: String, archiveSize: Int64, limits: ExtractionLimits
  ) throws(ArchiveError) -> (entries: [ArchiveEntry], topMode: UInt32?) {
    let zone = UTCZone.enter(true)
    defer { zone.leave() }
    let locale = UTF8Locale.enter()
    defer { locale.leave() }
    let reader = try ArchiveReader.open(.file(archive), name: archive)
    defer { archive_read_free(reader) }
    guard let writer = archive_write_disk_new() else {
      throw .archive(path: archive, message: ArchiveCreator.startFailure)
    }
    defer { archive_write_free(writer) }
    // `..` and absolute paths are refused by `check` before the path is rewritten to the
    // (absolute) staging folder; libarchive still refuses to write through symbolic links.
    // A later entry of the same name replaces an earlier one, as bsdtar does.
    let flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_SECURE_SYMLINKS
    archive_write_disk_set_options(writer, Int32(flags))
    var links = LinkResolver()
    var entries: [ArchiveEntry] = []
    var topMode: UInt32?
    var total: Int64 = 0
    func count(_ bytes: Int64) throws(ArchiveError) {
      total += bytes
      guard total <= limits.maximumTotalSize else {
        throw .limit(
          archive: archive, limit: .totalSize,
          message: "extracts to more than \(limits.maximumTotalSize) bytes")
      }
      if total > 64 << 20, Double(total) / Double(archiveSize) > limits.maximumRatio {
        throw .limit(
          archive: archive, limit: .ratio,
          message: "expands more than \(Int(limits.maximumRatio)) times its size: an archive bomb?")
      }
    }
    var entry: OpaquePointer?
    while true {
      let status = archive_read_next_header(reader, &entry)
      if status == ARCHIVE_EOF { break }
      // A damaged record libarchive would skip: the archive is not what it claims.
      if status == ARCHIVE_RETRY {
        throw .archive(
          path: archive,
          message:
            "damaged archive: \(ArchiveCreator.errorText(reader)); nothing was extracted")
      }
      // A warning on a header (a malformed pax header, a name that cannot be read) is an
      // archive that is not what it claims.
      guard status == ARCHIVE_OK, let entry else {
        throw .archive(
          path: archive, message: "\(ArchiveCreator.errorText(reader)); nothing was extracted")
      }
      let item = ArchiveReader.describe(entry)
      entries.append(item)
      guard entries.count <= limits.maximumEntries else {
        throw .limit(
          archive: archive, limit: .entries,
          message: "more than \(limits.maximumEntries) entries")
      }
      let path = try links.admit(item, archive: archive)
      if path.isEmpty {
        // `.`: the folder itself.
        topMode = item.mode & 0o7777
        continue
      }
      // Extract below the staging folder: rewrite the path (and a hard link's target).
      archive_entry_set_pathname_utf8(entry, staging + "/" + path)
      if item.type == .hardlink, let target = item.linkTarget {
        archive_entry_set_hardlink_utf8(entry, staging + "/" + LinkResolver.normalized(target))
      }
      // A link's target as it was judged: a name that is not UTF-8 escaped as its file is.
      if item.type == .symlink, let target = item.linkTarget {
        archive_entry_set_symlink_utf8(entry, target)
      }
      if !limits.preservePermissions {
        archive_entry_set_perm(entry, mode_t(item.mode & 0o1775))
      }
      // The logical size, holes of a sparse file included, counts against the limits.
      var declared = archive_entry_size_is_set(entry) != 0 ? max(item.size, 0) : 0
      if item.type == .file { try count(declared) }
      guard archive_write_header(writer, entry) == ARCHIVE_OK else {
        // A file system that cannot take the entry (no space, no inode left, read-only) is
        // not an entry refused for what it is.
        let code = archive_errno(writer)
        if [ENOSPC, EDQUOT, EIO, EROFS, EMFILE, ENFILE, ENOMEM].contains(code) {
          throw .unwritable(
            archive: archive, entry: item.path, message: ArchiveCreator.errorText(writer))
        }
        throw .unsafeEntry(
          archive: archive, entry: item.path, reason: ArchiveCreator.errorText(writer))
      }
      var block: UnsafeRawPointer?
      var size = 0
      var offset: Int64 = 0
      while true {
        let result = archive_read_data_block(reader, &block, &size, &offset)
        if result == ARCHIVE_EOF { break }
        // A warning on data is a damaged entry (a zip's CRC or sizes that do not match, as
        // `unzip -t` and bsdtar refuse): nothing is extracted.
        guard result == ARCHIVE_OK else {
          throw .archive(
            path: archive,
            message:
              "\(item.path): \(ArchiveCreator.errorText(reader)); nothing was extracted")
        }
        let end = offset + Int64(size)
        if end > declared {
          try count(end - declared)
          declared = end
        }
        // Every failed write is an error (a full disk is a warning to libarchive).
        guard archive_write_data_block(writer, block, size, offset) == ARCHIVE_OK else {
          throw .unwritable(
            archive: archive, entry: item.path, message: ArchiveCreator.errorText(writer))
        }
      }
      guard archive_write_finish_entry(writer) == ARCHIVE_OK else {
        throw .unwritable(
          archive: archive, entry: item.path, message: ArchiveCreator.errorText(writer))
      }
    }
    guard archive_write_close(writer) == ARCHIVE_OK else {
      throw .archive(path: archive, message: ArchiveCreator.errorText(writer))
    }
    return (entries, topMode)
  }

  /// Refuses an entry that could write outside the destination, judged on its own path and
  /// link target (what `archive create` checks before it stores a link). Extraction checks
  /// more: links are resolved through the links before them (`LinkResolver`).
  static func check(_ entry: ArchiveEntry, archive: String) throws(ArchiveError) {
    var resolver = LinkResolver()
    _ = try resolver.admit(entry, archive: archive)
  }
}

/// The archive's paths as the file system will see them once extracted: the symbolic links
/// of the entries so far, so a link target or an entry path is followed through them, never
/// judged on its text alone (`a/up -> ..` then `b -> a/up/..` leads out, though its text
/// stays inside).
struct LinkResolver {
  /// Symbolic links extracted so far, by normalised path.
  private var links: [String: String] = [:]

  /// `path` without `.` and empty components.
  static func normalized(_ path: String) -> String {
    path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }

  /// Checks an entry and records it; returns its normalised path (empty for `.`).
  mutating func admit(_ entry: ArchiveEntry, archive: String) throws(ArchiveError) -> String {
    func refuse(_ reason: String) -> ArchiveError {
      .unsafeEntry(archive: archive, entry: entry.path, reason: reason)
    }
    if entry.path.hasPrefix("/") { throw refuse("absolute path") }
    let components = entry.path.split(separator: "/").filter { $0 != "." }
    if components.contains("..") { throw refuse("'..' in the path") }
    if let reserved = components.first(where: { ScratchFiles.kind(of: String($0)) != nil }) {
      throw refuse("'\(reserved)' is a name BundleKit reserves for its temporary files")
    }
    let path = components.joined(separator: "/")
    if path.isEmpty {
      guard entry.type == .directory else { throw refuse("empty path") }
      return ""
    }
    // The entry's folder must not lie behind a link: it would be written elsewhere.
    var folder: [String] = []
    for component in components.dropLast() {
      folder.append(String(component))
      let key = folder.joined(separator: "/")
      if let target = links[key] {
        throw refuse("it lies inside the symbolic link \(key) -> \(target)")
      }
    }
    switch entry.type {
    case .other:
      throw refuse("device files, FIFOs and sockets are not extracted")
    case .symlink, .hardlink:
      guard let target = entry.linkTarget, !target.isEmpty else {
        throw refuse("link without a target")
      }
      if target.hasPrefix("/") { throw refuse("link to an absolute path (\(target))") }
      // A symbolic link resolves from its folder, a hard link's target from the top.
      let base = entry.type == .symlink ? components.dropLast().map(String.init) : []
      var hops = 0
      guard resolve(target, from: base, hops: &hops) != nil else {
        throw refuse(
          hops > Self.maximumHops
            ? "too many levels of symbolic links (\(target))"
            : "link leads outside the destination (\(target))")
      }
    default:
      break
    }
    // A later entry of the same name replaces the earlier one and what was below it.
    links = links.filter { $0.key != path && !$0.key.hasPrefix(path + "/") }
    if entry.type == .symlink, let target = entry.linkTarget { links[path] = target }
    return path
  }

  private static let maximumHops = 40

  /// A resolver over links known already (the final tree's).
  init(links: [String: String] = [:]) { self.links = links }

  /// Whether the link at `path` with `target` stays inside the top once every link of the
  /// resolver is in place.
  func staysInside(_ path: String, target: String) -> Bool {
    if target.hasPrefix("/") { return false }
    var hops = 0
    let base = path.split(separator: "/").dropLast().map(String.init)
    return resolve(target, from: base, hops: &hops) != nil
  }

  /// Where `path` leads from the folder `base`, following the links seen so far; nil when it
  /// leaves the top.
  private func resolve(_ path: String, from base: [String], hops: inout Int) -> [String]? {
    var current = base
    for component in path.split(separator: "/") where component != "." {
      if component == ".." {
        if current.isEmpty { return nil }
        current.removeLast()
        continue
      }
      current.append(String(component))
      if let target = links[current.joined(separator: "/")] {
        hops += 1
        if hops > Self.maximumHops || target.hasPrefix("/") { return nil }
        current.removeLast()
        guard let resolved = resolve(target, from: current, hops: &hops) else { return nil }
        current = resolved
      }
    }
    return current
  }
}

/// The symbolic links of an extraction's final tree, judged together: those of the staging
/// folder over those the destination already holds (a second archive's link may lead out
/// through a link the first one left).
enum LinkAudit {
  /// The most links judged; a tree with more is refused.
  static let maximumLinks = 100_000

  static func check(staging: String, destination: String?, archive: String) throws(ArchiveError) {
    var links: [String: String] = [:]
    if let destination { collect(destination, into: &links, replacedBy: staging) }
    collect(staging, into: &links, replacedBy: nil)
    guard links.count <= maximumLinks else {
      throw .limit(
        archive: archive, limit: .links, message: "more than \(maximumLinks) symbolic links")
    }
    let resolver = LinkResolver(links: links)
    for (path, target) in links.sorted(by: { $0.key < $1.key })
    where !resolver.staysInside(path, target: target) {
      throw .unsafeEntry(
        archive: archive, entry: path,
        reason:
          "the link leads outside the destination (\(target)) once every link is in place; nothing was extracted"
      )
    }
  }

  /// The links below `root`, by relative path; with `replacedBy`, those whose path the
  /// other tree holds are left out (its entry replaces them).
  private static func collect(
    _ root: String, into links: inout [String: String], replacedBy other: String?
  ) {
    DirectoryWalker.walk(root) { entry in
      if entry.isFolder { return links.count > maximumLinks ? .skip : .descend }
      let path = Paths.join(root, entry.relativePath)
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
        let target = FileIO.linkDestination(path)
      else { return .descend }
      if let other {
        var replaced = stat()
        if lstat(Paths.join(other, entry.relativePath), &replaced) == 0 { return .descend }
      }
      links[entry.relativePath] = target
      return .descend
    }
  }
}
