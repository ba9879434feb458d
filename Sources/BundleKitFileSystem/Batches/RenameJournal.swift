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
    /// What the target was when the batch began (``FileState``): recovery rolls the rename
    /// forward only over that same file, never over one changed since.
    var state: String = ""
  }

  /// A file's identity and last change, as text: `device:inode:seconds.nanoseconds:size`, or
  /// `-` for no file. A later write replaces the inode or moves the time, so a target whose
  /// state differs from the journal's was changed after the batch.
  enum FileState {
    static let absent = "-"

    static func text(_ info: stat) -> String {
      #if canImport(Darwin)
        let time = info.st_mtimespec
      #else
        let time = info.st_mtim
      #endif
      // The digits written into one new string: a batch records 1,000 states, and an
      // interpolation of five numbers built each piece apart.
      return String(unsafeUninitializedCapacity: 5 * 21 + 4) { buffer in
        var end = 0
        func put(_ value: UInt64, negative: Bool = false) {
          if negative {
            buffer[end] = UInt8(ascii: "-")
            end += 1
          }
          var digits = 1
          var rest = value / 10
          while rest > 0 {
            digits += 1
            rest /= 10
          }
          var remaining = value
          for offset in stride(from: digits - 1, through: 0, by: -1) {
            buffer[end + offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
          }
          end += digits
        }
        func put<Number: BinaryInteger>(_ value: Number) {
          put(UInt64(value.magnitude), negative: value < 0)
        }
        func separator(_ byte: UInt8) {
          buffer[end] = byte
          end += 1
        }
        put(info.st_dev)
        separator(0x3A)
        put(info.st_ino)
        separator(0x3A)
        put(time.tv_sec)
        separator(0x2E)
        put(time.tv_nsec)
        separator(0x3A)
        put(info.st_size)
        return end
      }
    }

    /// The state of `path` now, links not followed.
    static func of(_ path: String) -> String {
      var info = stat()
      return lstat(path, &info) == 0 ? text(info) : absent
    }

    /// The state of `name` in the open folder `folder` now, links not followed.
    static func of(_ name: String, in folder: Int32) -> String {
      var info = stat()
      return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? text(info) : absent
    }
  }

  let transaction: String
  /// The folder holding the journal.
  let folder: String
  /// The file system holding the journal.
  let device: UInt64
  private let descriptor: Int32
  private var committed = false

  /// Whether the journal's folder is in memory (tmpfs), where replacing a file waits for no
  /// device.
  var isInMemory: Bool {
    #if os(Linux)
      SystemCalls.fileSystemType(of: descriptor) == SystemCalls.tmpfsType
    #else
      false
    #endif
  }

  /// Version 3: the header, the MAC of the body under the user's ``JournalKey`` (64 hex
  /// digits and a newline), then the body: for each rename its relative source and target
  /// paths and the target's state when the batch began (``FileState``), each ended by a NUL
  /// byte. Journals of other versions are not this run's to replay.
  private static let header = Array("bundlekit rename journal 3\n".utf8)
  private static let macLength = 65

  /// The largest journal recovery reads (a million renames of long paths fit).
  static let maximumSize = 256 << 20

  /// Writes the journal of `renames`, locked, and with `flush` flushes it to disk. Paths are
  /// made real (links in their folders resolved), so that recovery can reach each one below
  /// the journal's folder without following a link.
  /// A rename's `state`, when given, is the target's ``FileState`` as the caller just read
  /// it; when empty it is read here. Without `flush` the caller flushes the journal's file
  /// system (``device``) before ``commit()``: until then a lost journal loses nothing, as its
  /// batch is not decided and recovery removes the temporary files of a dead run anyway.
  init(
    transaction: String, renames: [Rename],
    folders real: inout AbsolutePath.RealFolders, flush: Bool = true
  ) throws(FileSystemError) {
    self.transaction = transaction
    let targets = renames.map { real.path($0.target) }
    // A temporary file sits beside its target (a batch's do): its real folder is the
    // target's, resolved once, and it adds nothing to the common folder.
    var elsewhere: [String] = []
    let sources = zip(renames, targets).map { rename, target -> String? in
      guard Paths.inSameFolder(rename.source, rename.target) else {
        let source = real.path(rename.source)
        elsewhere.append(source)
        return source
      }
      return nil
    }
    let base = AbsolutePath.commonFolder(targets + elsewhere)
    folder = base
    // The body written from the paths' bytes in place: a batch of 1,000 files made 3,000
    // strings here (each relative path and each source's), 1.5 ms on one core.
    let below = base == "/" ? 1 : base.utf8.count + 1
    var body: [UInt8] = []
    body.reserveCapacity(
      zip(renames, targets).reduce(0) {
        $0 + 2 * $1.1.utf8.count + $1.0.source.utf8.count + max($1.0.state.utf8.count, 48)
      })
    for index in renames.indices {
      var target = targets[index]
      if var source = sources[index] {
        source.withUTF8 {
          body.append(contentsOf: UnsafeBufferPointer(rebasing: $0[min(below, $0.count)...]))
        }
      } else {
        // The target's folder below the base, then the temporary file's name.
        target.withUTF8 { bytes in
          if let slash = bytes.lastIndex(of: 0x2F), slash > below {
            body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[below...slash]))
          }
        }
        var name = renames[index].source
        name.withUTF8 { bytes in
          let start = bytes.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
          body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
      }
      body.append(0)
      target.withUTF8 {
        body.append(contentsOf: UnsafeBufferPointer(rebasing: $0[min(below, $0.count)...]))
      }
      body.append(0)
      let state = renames[index].state
      body.append(contentsOf: (state.isEmpty ? FileState.of(targets[index]) : state).utf8)
      body.append(0)
    }
    let bytes = Self.signed(body, folder: base, transaction: transaction)
    let path = Paths.join(folder, ScratchFiles.journalName(transaction, committed: false))
    descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw .io(path: path, message: FileIO.systemError("cannot create the write journal"))
    }
    // A recovery that opens it before this lock sees its writer alive and leaves it.
    _ = flock(descriptor, LOCK_EX)
    var info = stat()
    device = fstat(descriptor, &info) == 0 ? UInt64(info.st_dev) : 0
    do throws(FileSystemError) {
      try FileIO.writeAll(bytes, to: descriptor, path: path)
      if flush {
        guard fsync(descriptor) == 0 else {
          throw .io(path: path, message: FileIO.systemError("cannot flush the write journal"))
        }
        FileIO.syncFolder(folder)
      }
    } catch {
      unlink(path)
      close(descriptor)
      throw error
    }
  }

  /// A journal's bytes: the header, the MAC (zeros when the user has no key: recovery then
  /// leaves the journal to the user), then each source and target relative to `folder`.
  static func encode(
    _ renames: [(source: String, target: String, state: String)], folder: String,
    transaction: String
  ) -> [UInt8] {
    var body: [UInt8] = []
    body.reserveCapacity(
      renames.reduce(0) {
        $0 + $1.source.utf8.count + $1.target.utf8.count + $1.state.utf8.count + 3
      })
    for (source, target, state) in renames {
      body.append(contentsOf: source.utf8)
      body.append(0)
      body.append(contentsOf: target.utf8)
      body.append(0)
      body.append(contentsOf: state.utf8)
      body.append(0)
    }
    return signed(body, folder: folder, transaction: transaction)
  }

  /// The journal of `body`: the header, the MAC (zeros when the user has no key: recovery
  /// then leaves the journal to the user), then the body.
  private static func signed(_ body: [UInt8], folder: String, transaction: String) -> [UInt8] {
    let mac = JournalKey.current.map {
      SHA256.hexString(
        JournalKey.mac(key: $0, folder: folder, transaction: transaction, body: body[...]))
    }
    var bytes = header
    bytes.reserveCapacity(header.count + macLength + body.count)
    bytes.append(contentsOf: (mac ?? String(repeating: "0", count: 64)).utf8)
    bytes.append(0x0A)
    bytes.append(contentsOf: body)
    return bytes
  }

  /// Flushes the file system holding the journal (`syncfs` on Linux, `fsync` of the journal
  /// elsewhere); whether it succeeded. Through the journal's own descriptor, so an error in
  /// writing back anything on that file system since the journal was created is reported.
  func flushFileSystem() -> Bool {
    SystemCalls.syncFileSystem(of: descriptor) == 0
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

  /// The renames of a journal file's bytes, as paths relative to `folder` (its real path);
  /// nil when the bytes are not a journal, do not carry this user's MAC for this folder and
  /// transaction, or name a path that leaves `folder` or a source that is not one of
  /// `transaction`'s scratch paths (a journal planted in a tree must not move other files).
  static func renames(in bytes: [UInt8], folder: String, transaction: String) -> [Rename]? {
    guard bytes.starts(with: header), bytes.count >= header.count + macLength,
      bytes[header.count + macLength - 1] == 0x0A, let key = JournalKey.current
    else { return nil }
    let body = bytes[(header.count + macLength)...]
    let expected = SHA256.hexString(
      JournalKey.mac(key: key, folder: folder, transaction: transaction, body: body))
    // Compared in full, whatever differs first.
    let given = bytes[header.count..<(header.count + macLength - 1)]
    guard given.count == expected.utf8.count,
      zip(given, expected.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
    else { return nil }
    let fields = body.split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count % 3 == 1, fields.last?.isEmpty == true else { return nil }
    var renames: [Rename] = []
    var index = fields.startIndex
    while index + 2 < fields.endIndex {
      guard let source = UTF8Text.validated(fields[index]),
        let target = UTF8Text.validated(fields[index + 1]),
        let state = UTF8Text.validated(fields[index + 2]), !state.isEmpty,
        isInside(source), isInside(target),
        scratchRoot(of: source, transaction: transaction) != nil
      else { return nil }
      renames.append(Rename(source: source, target: target, state: state))
      index += 3
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
package enum AbsolutePath {
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
    // A whole component in both: the next byte ends it, or nothing follows.
    func ends(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
      at == bytes.count || bytes[at] == 0x2F
    }
    // The length of the common part of `common` and `folder`, ending at a component's end.
    func shared(_ folder: UnsafeBufferPointer<UInt8>) -> Int {
      common.withUnsafeBufferPointer { held in
        var length = 0
        let limit = min(held.count, folder.count)
        while length < limit, held[length] == folder[length] { length += 1 }
        while length > 0, !(ends(held, length) && ends(folder, length)) { length -= 1 }
        return length
      }
    }
    for path in paths.dropFirst() {
      // Each path's folder read in place (up to its last slash), not copied out: a batch of
      // 1,000 files asks this for 2,000 paths.
      var path = path
      let length = path.withUTF8 { bytes -> Int in
        var slash = bytes.count - 1
        while slash >= 0, bytes[slash] != 0x2F { slash -= 1 }
        guard slash > 0, slash < bytes.count - 1 else {
          // No slash, `/name`, or a trailing slash: as `Paths.parent` has it.
          var folder = Paths.parent(String(decoding: bytes, as: UTF8.self))
          return folder.withUTF8 { shared($0) }
        }
        return shared(UnsafeBufferPointer(rebasing: bytes[..<slash]))
      }
      if length < common.count { common.removeSubrange(length...) }
    }
    return common.isEmpty ? "/" : String(decoding: common, as: UTF8.self)
  }

  /// `path` relative to `folder`, which holds it.
  static func relative(_ path: String, to folder: String) -> String {
    folder == "/" ? String(path.dropFirst()) : String(path.dropFirst(folder.count + 1))
  }

  package static func currentFolder() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The folder's real path, links followed.
  static func realFolder(_ path: String) -> String? { FileIO.realPath(path) }

  /// Absolute paths with their folders made real (links resolved), for one batch.
  ///
  /// Each folder is resolved once, from its parent's real path and one `lstat` of its own
  /// name; only a link (or a `.`/`..` component) costs a `realpath`. `realpath` on every
  /// file's folder read each component's link again: 11 `readlink`s per file of a batch.
  /// The current folder is real already (`getcwd` resolves links), so a relative path costs
  /// one `lstat` per folder below it.
  package struct RealFolders: Sendable {
    /// The current folder, absolute, the batch's relative paths start from.
    package let current: String
    /// Resolved folders; nil for one that does not exist.
    private var known: [String: String?] = [:]
    /// The `lstat` of each file ``file(_:)`` found that is not a link, by the path it was
    /// asked for: the checks and the batch that follow (under the same locks) need not read
    /// it again.
    private var fileInfo: [String: stat] = [:]
    /// The `lstat` of each folder resolved by its own name (not a link), by its real path:
    /// what a `stat` of it reads, for the recovery that follows under the same locks.
    private var folderInfo: [String: stat] = [:]
    /// The last walk root ``noteConfirmed(_:_:)`` resolved, as named and real: a batch's
    /// thousand folders share one or two.
    private var lastRoot: (named: String, real: String)?

    package init(current: String = AbsolutePath.currentFolder()) {
      self.current = current
      known[current] = current
    }

    /// `path` made absolute, with its folder's links resolved; as it is when the folder does
    /// not exist.
    mutating func path(_ path: String) -> String {
      let absolute = AbsolutePath.make(path, from: current)
      let parent = Paths.parent(absolute)
      return Paths.join(folder(parent) ?? parent, Paths.lastComponent(absolute))
    }

    /// The real path of `folder` (relative to the current folder, or absolute), what
    /// `realpath` gives; nil when it does not exist.
    package mutating func folder(_ folder: String) -> String? {
      resolve(AbsolutePath.make(folder, from: current))
    }

    /// The real path of the file `path`, links followed, what `realpath` gives; nil when it
    /// does not exist.
    package mutating func file(_ path: String) -> String? {
      let absolute = AbsolutePath.make(path, from: current)
      let name = Paths.lastComponent(absolute)
      guard name != "." && name != "..", let folder = resolve(Paths.parent(absolute)) else {
        return FileIO.realPath(absolute)
      }
      let place = Paths.join(folder, name)
      var info = stat()
      guard lstat(place, &info) == 0 else { return nil }
      if info.st_mode & S_IFMT == S_IFLNK { return FileIO.realPath(place) }
      fileInfo[path] = info
      return place
    }

    /// ``file(_:)`` of each path, in order. A large batch is resolved on every core, each
    /// thread with a copy of what is known, and what they learned is then merged: the
    /// `lstat`s of 1,000 files in 1,000 folders are most of a bump's check that nothing is
    /// written outside its tree.
    package mutating func files(_ paths: [String]) -> [String?] {
      let workers = paths.count < Self.parallelThreshold ? 1 : WorkerThreads.cores
      guard workers > 1 else { return paths.map { file($0) } }
      let base = self
      let chunk = (paths.count + workers - 1) / workers
      let parts = WorkerThreads.map(workers, threshold: 1) { worker in
        var resolver = base
        let places = paths[
          min(worker * chunk, paths.count)..<min((worker + 1) * chunk, paths.count)
        ]
        .map { resolver.file($0) }
        return (places: places, resolver: resolver)
      }
      // Room made once: grown entry by entry, the merges rehashed the tables several times.
      known.reserveCapacity(known.count + parts.reduce(0) { $0 + $1.resolver.known.count })
      fileInfo.reserveCapacity(fileInfo.count + paths.count)
      folderInfo.reserveCapacity(
        folderInfo.count + parts.reduce(0) { $0 + $1.resolver.folderInfo.count })
      for part in parts {
        known.merge(part.resolver.known) { mine, _ in mine }
        fileInfo.merge(part.resolver.fileInfo) { mine, _ in mine }
        folderInfo.merge(part.resolver.folderInfo) { mine, _ in mine }
      }
      return parts.flatMap(\.places)
    }

    /// Below this many paths ``files(_:)`` resolves on the calling thread.
    static let parallelThreshold = 64

    /// Makes room for `files` more files noted (``noteConfirmed(_:_:)``), each in a folder of
    /// its own: grown entry by entry, the tables of 1,000 files rehashed many times.
    package mutating func reserveCapacity(_ files: Int) {
      known.reserveCapacity(known.count + files)
      fileInfo.reserveCapacity(fileInfo.count + files)
      folderInfo.reserveCapacity(folderInfo.count + files)
    }

    /// Records the file `path`, read through its folder's descriptor (a folder a walk
    /// confirmed and a lock holds, ``ConfirmedFolders``): the file is not a link, and its
    /// folder is the walk's: the walk's root's real path, then the plain names the walk
    /// confirmed below it (no link among them), or else one level below its parent's real
    /// path. The `fstat`s of both, read through descriptors under the lock, stand for the
    /// `lstat`s the recovery and the batch that follow would read. Returns false (nothing
    /// recorded) when the folder cannot be placed that way.
    package mutating func noteConfirmed(_ path: String, _ read: ConfirmedRead) -> Bool {
      let absolute = AbsolutePath.make(path, from: current)
      let parent = Paths.parent(absolute)
      let name = Paths.lastComponent(parent)
      guard parent != "/", !name.isEmpty, name != ".", name != ".." else { return false }
      let real: String
      if !read.folder.relative.isEmpty, !read.folder.root.isEmpty {
        // Each folder between the root and this one resolved from the walk's names, not
        // with an `lstat` each: a tree of App/Sources/Resources folders had three a file.
        let root: String
        if let lastRoot, lastRoot.named == read.folder.root {
          root = lastRoot.real
        } else {
          guard let resolved = resolve(AbsolutePath.make(read.folder.root, from: current)) else {
            return false
          }
          root = resolved
          lastRoot = (read.folder.root, resolved)
        }
        real = Paths.join(root, read.folder.relative)
      } else {
        guard let above = resolve(Paths.parent(parent)) else { return false }
        real = Paths.join(above, name)
      }
      // Resolved otherwise already (its path leads elsewhere now): not placed here.
      let placed = known.enter(.some(real), forKey: parent)
      if !placed.entered, placed.value != real { return false }
      folderInfo[real] = read.folderStatus
      fileInfo[path] = read.status
      return true
    }

    /// What ``file(_:)`` read of `path` (asked for by the same string), when it was a file
    /// or folder and not a link; nil when it was not asked for.
    package func fileStatus(_ path: String) -> stat? { fileInfo[path] }

    /// What resolving the real folder `folder` read of it (its `lstat`, the same as its
    /// `stat`: it is not a link); nil when it was resolved otherwise or not at all.
    package func folderStatus(_ folder: String) -> stat? { folderInfo[folder] }

    private mutating func resolve(_ folder: String) -> String? {
      if let real = known[folder] { return real }
      let name = Paths.lastComponent(folder)
      var real: String?
      if folder == "/" {
        real = "/"
      } else if name.isEmpty || name == "." || name == ".." || !folder.hasPrefix("/") {
        real = FileIO.realPath(folder)
      } else if let above = resolve(Paths.parent(folder)) {
        let candidate = Paths.join(above, name)
        var info = stat()
        if lstat(candidate, &info) != 0 {
          real = nil
        } else if info.st_mode & S_IFMT == S_IFLNK {
          real = FileIO.realPath(candidate)
        } else {
          real = candidate
          folderInfo[candidate] = info
        }
      }
      known[folder] = .some(real)
      return real
    }
  }
}
