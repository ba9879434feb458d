#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A batch of renames that happens completely or not at all, even when the process is killed
/// half-way through it.
///
/// Before the first temporary file is written, the journal lists every rename (temporary
/// path, target path, relative to the journal's folder: the deepest folder holding them all)
/// and is flushed to disk. Once every temporary file is on disk the journal is renamed to
/// `.committed`; then the renames run and the journal is removed. A run killed before the
/// commit is rolled back by whoever finds its journal (its temporaries removed), one killed
/// after it is rolled forward (the remaining renames done): see `ScratchRecovery`. The writer
/// holds an exclusive `flock` on the journal for the whole batch, so a live batch is waited
/// for, never recovered.
struct RenameJournal {
  /// One rename: a scratch path of the transaction and the path it replaces.
  struct Rename: Sendable {
    var source: String
    var target: String
  }

  let transaction: String
  /// The folder holding the journal.
  let folder: String
  private let descriptor: Int32
  private var committed = false

  private static let header = Array("bundlekit rename journal 1\n".utf8)

  /// Writes and flushes the journal of `renames`, locked. `folder` (absolute, holding every
  /// path) is worked out when not given.
  init(transaction: String, renames: [Rename], folder known: String? = nil)
    throws(FileSystemError)
  {
    self.transaction = transaction
    let current = AbsolutePath.currentFolder()
    let sources = renames.map { AbsolutePath.make($0.source, from: current) }
    let targets = renames.map { AbsolutePath.make($0.target, from: current) }
    let base = known ?? AbsolutePath.commonFolder(sources + targets)
    folder = base
    var bytes = Self.header
    bytes.reserveCapacity(
      Self.header.count + sources.reduce(0) { $0 + 2 * $1.utf8.count - 2 * base.utf8.count + 2 })
    for (source, target) in zip(sources, targets) {
      bytes.append(contentsOf: AbsolutePath.relative(source, to: base).utf8)
      bytes.append(0)
      bytes.append(contentsOf: AbsolutePath.relative(target, to: base).utf8)
      bytes.append(0)
    }
    let path = Paths.join(folder, ScratchFiles.journalName(transaction, committed: false))
    descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .io(path: path, message: FileIO.systemError("cannot create the write journal"))
    }
    // Nobody else can have it yet: the lock is taken at once.
    _ = flock(descriptor, LOCK_EX)
    do throws(FileSystemError) {
      try FileIO.writeAll(bytes, to: descriptor, path: path)
      guard fsync(descriptor) == 0 else {
        throw .io(path: path, message: FileIO.systemError("cannot flush the write journal"))
      }
      FileIO.syncFolder(folder)
    } catch {
      unlink(path)
      close(descriptor)
      throw error
    }
  }

  private func path(committed: Bool) -> String {
    Paths.join(folder, ScratchFiles.journalName(transaction, committed: committed))
  }

  /// Marks the batch as decided: from here on the renames happen, in this run or the next.
  /// Every temporary file must be on disk first.
  mutating func commit() throws(FileSystemError) {
    guard rename(path(committed: false), path(committed: true)) == 0 else {
      throw .io(
        path: path(committed: false), message: FileIO.systemError("cannot commit the write journal")
      )
    }
    committed = true
    FileIO.syncFolder(folder)
  }

  /// Removes the journal once its renames are done (or, before the commit, undone) and
  /// releases it.
  func finish() {
    unlink(path(committed: committed))
    close(descriptor)
  }

  // MARK: Reading a journal back

  /// The renames of a journal file's bytes, as full paths below `folder`; nil when the bytes
  /// are not a journal, or name a path that leaves `folder` or a source that is not one of
  /// `transaction`'s scratch paths (a journal planted in a tree must not move other files).
  static func renames(in bytes: [UInt8], folder: String, transaction: String) -> [Rename]? {
    guard bytes.starts(with: header) else { return nil }
    let fields = bytes[header.count...].split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count % 2 == 1, fields.last?.isEmpty == true else { return nil }
    var renames: [Rename] = []
    var index = fields.startIndex
    while index + 1 < fields.endIndex {
      guard let source = UTF8Text.validated(fields[index]),
        let target = UTF8Text.validated(fields[index + 1]),
        isInside(source), isInside(target),
        scratchRoot(of: source, transaction: transaction) != nil
      else { return nil }
      renames.append(
        Rename(source: Paths.join(folder, source), target: Paths.join(folder, target)))
      index += 2
    }
    return renames
  }

  /// Whether a relative path stays below its folder.
  private static func isInside(_ path: String) -> Bool {
    !path.isEmpty && !path.hasPrefix("/")
      && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
  }

  /// The part of `path` up to and including its first component that is a scratch name of
  /// `transaction` (a temporary file, or the staging folder holding the source).
  static func scratchRoot(of path: String, transaction: String) -> String? {
    var prefix = ""
    for component in path.split(separator: "/") {
      prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
      if case .temporary(transaction)? = ScratchFiles.kind(of: String(component)) {
        return prefix
      }
    }
    return nil
  }
}

/// Absolute paths worked out as text, so a journal's entries are the same whatever folder a
/// later run starts in.
enum AbsolutePath {
  /// `path` made absolute (against the current folder) with `.` and empty components gone.
  /// A `..` is resolved by the file system (its folder through `realpath`), since textually
  /// it would be wrong after a symbolic link.
  static func make(_ path: String, from current: String = currentFolder()) -> String {
    let raw = path.hasPrefix("/") ? path : current + "/" + path
    // Most paths hold no `.`, `..` or empty component: taken as they are.
    if isNormal(raw) { return raw }
    let components = raw.split(separator: "/").filter { $0 != "." }
    if components.contains("..") {
      let parent = Paths.parent(path)
      if Paths.lastComponent(path) != "..", let real = realFolder(parent) {
        return Paths.join(real, Paths.lastComponent(path))
      }
      return realFolder(path) ?? raw
    }
    return "/" + components.joined(separator: "/")
  }

  /// Whether an absolute path has no `.`, `..` or empty component and no trailing slash.
  private static func isNormal(_ path: String) -> Bool {
    var length = 0  // of the current component
    var dots = 0  // how many of its bytes are dots
    for byte in path.utf8.dropFirst() {
      if byte == 0x2F {
        if length == 0 || dots == length && length <= 2 { return false }
        length = 0
        dots = 0
      } else {
        length += 1
        if byte == 0x2E { dots += 1 }
      }
    }
    return !(length == 0 && path.utf8.count > 1) && !(dots == length && length > 0 && length <= 2)
  }

  /// The deepest folder holding every one of `paths` (absolute, normalised), compared on
  /// their bytes.
  static func commonFolder(_ paths: [String]) -> String {
    guard let first = paths.first else { return "/" }
    var common = Array(Paths.parent(first).utf8)
    for path in paths.dropFirst() {
      let folder = Array(Paths.parent(path).utf8)
      var length = 0
      let limit = min(common.count, folder.count)
      while length < limit, common[length] == folder[length] { length += 1 }
      // A whole component in both: the next byte ends it, or nothing follows.
      func ends(_ bytes: [UInt8], _ at: Int) -> Bool { at == bytes.count || bytes[at] == 0x2F }
      while length > 0, !(ends(common, length) && ends(folder, length)) { length -= 1 }
      if length < common.count { common.removeSubrange(length...) }
    }
    return common.isEmpty ? "/" : String(decoding: common, as: UTF8.self)
  }

  /// `path` relative to `folder`, which holds it.
  static func relative(_ path: String, to folder: String) -> String {
    folder == "/" ? String(path.dropFirst()) : String(path.dropFirst(folder.count + 1))
  }

  static func currentFolder() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The folder's real path, links followed.
  static func realFolder(_ path: String) -> String? { FileIO.realPath(path) }
}
