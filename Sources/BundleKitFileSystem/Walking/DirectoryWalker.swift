#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Walks a folder tree reading each folder's entries straight from the kernel
/// (``FolderEntries``), using the entry types the directory already holds: one open and one
/// read per folder and no `stat` per file, where `FileManager`'s
/// enumerator opens each folder twice and stats every entry (a third of `bump build`'s
/// system time over 1,000 folders). Symbolic links are reported, never followed.
public enum DirectoryWalker {
  /// One entry of the tree.
  public struct Entry {
    /// The path relative to the root, `/`-separated.
    public var relativePath: String
    /// The last component.
    public var name: String
    /// Whether it is a folder (not a link to one).
    public var isFolder: Bool
    /// Whether the name is valid UTF-8. When it is not, `name` and `relativePath` show the
    /// bad bytes as `\xFF` and cannot be opened; the walk does not go into such a folder,
    /// and a tool that needs what it holds refuses (`undecodableMessage`) rather than skip it.
    public var isDecodable = true
  }

  /// Whether to go into a folder.
  public enum Decision {
    /// Go on, into the folder if it is one.
    case descend
    /// Do not go into this folder.
    case skip
  }

  /// The names in `folder` (not `.` and `..`), in no particular order, or nil when it cannot
  /// be read. A name that is not valid UTF-8 comes as its bytes in `undecodable`, shown with
  /// each bad byte as `\xFF`: such a file cannot be reached through a `String` path.
  /// BundleKit's scratch files are never listed: what a killed run left is finished or
  /// removed first where this run may write (`RecoveryScope`), and skipped elsewhere.
  public static func names(in folder: String) -> FolderNames? {
    guard var listing = read(folder) else { return nil }
    if listing.scratch.isEmpty {
      return FolderNames(names: listing.names, undecodable: listing.undecodable)
    }
    if recoverScratch(listing.scratch, in: folder) {
      guard let again = read(folder) else { return nil }
      listing = again
    }
    return FolderNames(names: listing.names, undecodable: listing.undecodable)
  }

  /// What ``names(in:)`` found in a folder.
  public struct FolderNames: Sendable, Hashable {
    /// The names that are valid UTF-8.
    public var names: [String]
    /// The others, each bad byte shown as `\xFF`.
    public var undecodable: [String]
  }

  /// The valid UTF-8 names in `folder` that start with a period (every scratch name does),
  /// `.` and `..` left out, or nil when it cannot be read: what recovery looks at in a folder
  /// of 1,000 entries, with the others never made strings.
  static func hiddenNames(in folder: String) -> [String]? {
    let descriptor = openFolder(folder)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var names: [String] = []
    let complete = FolderEntries.forEach(in: descriptor) { raw, _ in
      guard raw.first == UInt8(ascii: "."), let name = UTF8Text.validated(raw),
        name != ".", name != ".."
      else { return }
      names.append(name)
    }
    return complete ? names : nil
  }

  /// Whether `folder` holds a scratch entry (or cannot be read: the caller then looks
  /// closer). Only names starting with `.` are made strings.
  static func holdsScratch(_ folder: String) -> Bool {
    let descriptor = openFolder(folder)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    var found = false
    let complete = FolderEntries.forEach(in: descriptor) { raw, _ in
      guard !found, raw.first == UInt8(ascii: ".") else { return }
      found = UTF8Text.validated(raw).map { ScratchFiles.kind(of: $0) != nil } ?? false
    }
    return found || !complete
  }

  /// Opens a folder to read its entries (links followed, as `opendir` does); -1 when it
  /// cannot.
  static func openFolder(_ folder: String) -> Int32 {
    open(folder, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
  }

  /// Recovers scratch entries, journals first, where this run may (``RecoveryScope``); else
  /// leaves them and notes an unfinished journal. Returns whether the folder must be read
  /// again.
  private static func recoverScratch(_ scratch: [String], in folder: String) -> Bool {
    guard RecoveryScope.permits(folder) else {
      if scratch.contains(where: { $0.hasPrefix(ScratchFiles.journalPrefix) }) {
        RecoveryScope.notePending(folder)
      }
      return false
    }
    var changed = false
    let journalsFirst =
      scratch.filter { $0.hasPrefix(ScratchFiles.journalPrefix) }
      + scratch.filter { !$0.hasPrefix(ScratchFiles.journalPrefix) }
    for name in journalsFirst where ScratchRecovery.recover(name, in: folder) { changed = true }
    return changed
  }

  private static func read(_ folder: String) -> (
    names: [String], undecodable: [String], scratch: [String]
  )? {
    let descriptor = openFolder(folder)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var names: [String] = []
    var undecodable: [String] = []
    var scratch: [String] = []
    let complete = FolderEntries.forEach(in: descriptor) { raw, _ in
      if let name = UTF8Text.validated(raw) {
        if name == "." || name == ".." { return }
        if ScratchFiles.kind(of: name) != nil {
          scratch.append(name)
        } else {
          names.append(name)
        }
      } else {
        undecodable.append(shownEscaped(Array(raw)))
      }
    }
    return complete ? (names, undecodable, scratch) : nil
  }

  /// The path of the first entry at or below `root` whose name is not valid UTF-8 (bad
  /// bytes shown as `\xFF`), or nil when every name is. Tools that copy or pack whole trees
  /// ask first: through `String` paths such a file is unreachable, and skipping it would lose
  /// it without a word.
  public static func firstUndecodableName(under root: String) -> String? {
    guard let listing = names(in: root) else { return nil }
    let folder = root.hasSuffix("/") ? root : root + "/"
    if let name = listing.undecodable.min() { return folder + name }
    for name in listing.names.sorted() {
      var info = stat()
      if lstat(folder + name, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
        let found = firstUndecodableName(under: folder + name)
      {
        return found
      }
    }
    return nil
  }

  /// The message for a name `firstUndecodableName` found.
  public static let undecodableMessage =
    "the name is not UTF-8, which BundleKit needs for names: rename the file"

  /// UTF-8 bytes as text, each byte that is not part of valid UTF-8 as `\xFF`.
  static func shownEscaped(_ bytes: [UInt8]) -> String {
    var result = ""
    var index = 0
    while index < bytes.count {
      // The longest valid sequence starting here (1 to 4 bytes), else one escaped byte.
      var taken = false
      for length in stride(from: min(4, bytes.count - index), through: 1, by: -1) {
        if let text = UTF8Text.validated(bytes[index..<(index + length)]) {
          result += text
          index += length
          taken = true
          break
        }
      }
      if !taken {
        result += "\\x" + String(bytes[index], radix: 16, uppercase: true)
        index += 1
      }
    }
    return result
  }

  /// Calls `visit` for every entry under `root` (not `root` itself), each folder's entries in
  /// name order before the folder's children, depth first.
  public static func walk(_ root: String, _ visit: (Entry) -> Decision) {
    walk(root: root, relative: "", notingClean: false, keep: nil, visit)
  }

  /// ``walk(_:_:)``, recording each folder found with no scratch entry in ``CleanFolders``
  /// (an `fstat` more per folder): for a writer that takes its locks after the walk and
  /// recovers below them (`bump`), which then reads those folders again only if they changed.
  /// When noting, a folder with ``readAheadThreshold`` subfolders or more has them read on
  /// every core before they are visited; the visits are the same, in the same order.
  ///
  /// With `open`, a folder below `root` found holding a file whose name `open.holding`
  /// accepts is kept open in `open.folders`, under the name `open.name` gives its path
  /// relative to `root` (``OpenFolders``): the folders `bump` locks next.
  package static func walk(
    _ root: String, notingCleanFolders: Bool, keepingOpen open: KeptOpen? = nil,
    _ visit: (Entry) -> Decision
  ) {
    walk(root: root, relative: "", notingClean: notingCleanFolders, keep: open, visit)
  }

  /// Which folders a walk keeps open, and where (``walk(_:notingCleanFolders:keepingOpen:_:)``).
  package struct KeptOpen {
    /// Where the folders are kept.
    package var folders: OpenFolders
    /// Whether a file name makes its folder kept.
    package var holding: @Sendable (String) -> Bool
    /// The name a folder is kept under, from its path relative to the root.
    package var name: (String) -> String

    package init(
      folders: OpenFolders, holding: @escaping @Sendable (String) -> Bool,
      name: @escaping (String) -> String
    ) {
      self.folders = folders
      self.holding = holding
      self.name = name
    }
  }

  /// A folder's entries as one reading found them, in the order read.
  struct Listing: Sendable {
    /// Each entry, with its inode number as listed (`d_ino`).
    var entries: [(name: String, isFolder: Bool, isDecodable: Bool, inode: UInt64)] = []
    /// BundleKit's scratch entries, kept apart.
    var scratch: [String] = []
    /// The folder, still open, when the reading was asked to keep it.
    var open: OpenFolders.Folder?
    /// The folder's device and inode, when its `fstat` was read.
    var identity: (device: UInt64, inode: UInt64)?
    /// Whether the folder is the very folder the root's listings named, level by level:
    /// each folder's device and inode, opened by its path, were those its parent listed for
    /// it (no link swapped in after the listing, no file system mounted there). Only such a
    /// folder is kept open (``OpenFolders``): `bump` then reads and writes its Info.plist
    /// through the descriptor, below the root by construction.
    var confirmed = false
    /// Listings of its subfolders read ahead with it, by entry index (empty: none).
    var below: [Listing?] = []

    /// What the subfolder at `entry` must be to be confirmed: on this folder's device, with
    /// the inode this listing gives its name; nil when this folder is not confirmed.
    func expectation(_ entry: Int) -> (device: UInt64, inode: UInt64)? {
      guard confirmed, let identity else { return nil }
      return (identity.device, entries[entry].inode)
    }

    /// The indices of the subfolders a walk may descend into: decodable, and not among the
    /// folders skipped everywhere (`.git`, `.build`, `node_modules` ...).
    var subfolders: [Int] {
      entries.indices.filter { index in
        entries[index].isFolder && entries[index].isDecodable
          && !SkippedFolders.skips(entries[index].name)
      }
    }

    /// Closes the folders this listing and those read ahead below it kept open: read but
    /// never visited.
    func closeKept() {
      if let open { close(open.descriptor) }
      for case let listing? in below { listing.closeKept() }
    }
  }

  /// Reads `folder`'s entries once, noting it clean (``CleanFolders``) when asked and it
  /// holds no scratch entry; nil when it cannot be opened. When noting, a folder holding no
  /// scratch entry and a file `keep` accepts is left open (``Listing/open``).
  /// With `parent`, the folder is opened as that name in that open folder, no link followed
  /// (one lookup, not the whole path's); a name that is no folder there now (a link swapped
  /// in) is opened by its path, as without. `then` is called with the listing and the
  /// folder's descriptor, still open, before it is closed.
  static func readListing(
    _ folder: String, notingClean: Bool, keep: (@Sendable (String) -> Bool)? = nil,
    expected: (device: UInt64, inode: UInt64)? = nil,
    in parent: (descriptor: Int32, name: String)? = nil,
    then: (inout Listing, Int32) -> Void = { _, _ in }
  ) -> Listing? {
    let start = notingClean ? CleanFolders.now() : timespec()
    var descriptor: Int32 = -1
    if let parent {
      descriptor = openat(
        parent.descriptor, parent.name,
        O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
    }
    if descriptor < 0 { descriptor = openFolder(folder) }
    guard descriptor >= 0 else { return nil }
    var kept = false
    defer { if !kept { close(descriptor) } }
    // The folder's change time before its entries are read (see CleanFolders).
    var info = stat()
    let stamped = notingClean && fstat(descriptor, &info) == 0
    var listing = Listing()
    let complete = FolderEntries.forEachWithInode(in: descriptor) { raw, type, inode in
      let name: String
      var isDecodable = true
      if let text = UTF8Text.validated(raw) {
        name = text
      } else {
        name = shownEscaped(Array(raw))
        isDecodable = false
      }
      if name == "." || name == ".." { return }
      if ScratchFiles.kind(of: name) != nil {
        listing.scratch.append(name)
        return
      }
      var isFolder = Int32(type) == Int32(DT_DIR)
      // Some file systems do not fill in the type: ask.
      if Int32(type) == Int32(DT_UNKNOWN) {
        var info = stat()
        if lstat(folder + "/" + name, &info) == 0 {
          isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        }
      }
      listing.entries.append((name, isFolder, isDecodable, inode))
    }
    // In name order, the order visits take (on the reading thread, when read ahead).
    listing.entries.sort { $0.name < $1.name }
    if stamped {
      let identity = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      listing.identity = identity
      listing.confirmed = expected.map { $0 == identity } ?? false
    }
    if stamped, complete, listing.scratch.isEmpty {
      CleanFolders.noteClean(descriptor, info: info, listedAfter: start)
      if listing.confirmed, let keep,
        listing.entries.contains(where: { !$0.isFolder && keep($0.name) })
      {
        kept = true
        listing.open = OpenFolders.Folder(
          descriptor: descriptor, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      }
    }
    then(&listing, descriptor)
    return listing
  }

  /// How many subfolders a folder needs before the walk that notes clean folders reads them
  /// ahead on every core: below it, starting threads costs more than the reads.
  package static let readAheadThreshold = 32

  /// How many folders below each folder read ahead are read with it, depth first, where
  /// folders have a few subfolders each: the `Sources/Resources` below each of 1,000
  /// targets, which the walk had read one by one after the targets.
  static let readAheadBelow = 4

  /// Reads `folder` as the walk would (``readListing(_:notingClean:keep:expected:in:then:)``)
  /// and, where it has fewer subfolders than ``readAheadThreshold`` (a folder with more reads
  /// its own ahead on every core when walked), theirs too, depth first, while `budget` lasts.
  /// A folder holding scratch entries is not read below: the walk recovers it, then reads
  /// it again; one below holding them is left for the walk to read. Those below are opened
  /// in the folder's descriptor (`parent`, for `folder` itself).
  static func readListingAhead(
    _ folder: String, keep: (@Sendable (String) -> Bool)?,
    expected: (device: UInt64, inode: UInt64)?,
    in parent: (descriptor: Int32, name: String)? = nil, budget: inout Int
  ) -> Listing? {
    readListing(folder, notingClean: true, keep: keep, expected: expected, in: parent) {
      listing, descriptor in
      guard budget > 0, listing.scratch.isEmpty else { return }
      let folders = listing.subfolders
      guard !folders.isEmpty, folders.count < readAheadThreshold else { return }
      let base = folder.hasSuffix("/") ? folder : folder + "/"
      for index in folders {
        guard budget > 0 else { break }
        budget -= 1
        let name = listing.entries[index].name
        guard
          let below = readListingAhead(
            base + name, keep: keep, expected: listing.expectation(index),
            in: (descriptor, name), budget: &budget)
        else { continue }
        guard below.scratch.isEmpty else { continue }
        if listing.below.isEmpty {
          listing.below = Array(repeating: nil, count: listing.entries.count)
        }
        listing.below[index] = below
      }
    }
  }

  private static func walk(
    root: String, relative: String, notingClean: Bool, keep: KeptOpen?,
    readAhead: Listing? = nil, expected: (device: UInt64, inode: UInt64)? = nil,
    _ visit: (Entry) -> Decision
  ) {
    let folder = relative.isEmpty ? root : (root.hasSuffix("/") ? root : root + "/") + relative
    // The root is not kept: it is named as the user gave it, which the lock may not be.
    let holding = !relative.isEmpty && keep?.folders.reserve(1) == true ? keep?.holding : nil
    guard
      var listing = readAhead
        ?? readListing(folder, notingClean: notingClean, keep: holding, expected: expected)
    else { return }
    // A journal rolled forward changes the folder: read it once more.
    if !listing.scratch.isEmpty, recoverScratch(listing.scratch, in: folder) {
      guard
        let again = readListing(
          folder, notingClean: notingClean, keep: holding, expected: expected)
      else {
        return
      }
      listing = again
    }
    // The root is the folder the user named, whatever its path leads to: what is below it is
    // confirmed against its listings.
    if relative.isEmpty, listing.identity != nil { listing.confirmed = true }
    if var open = listing.open, let keep {
      open.root = root
      open.relative = relative
      keep.folders.keep(keep.name(relative), open)
    }
    // The walk a writer takes before its locks (`bump` over a folder of 1,000 targets) reads
    // a large folder's subfolders ahead, on every core, where one by one each waited for the
    // kernel in turn. Each is read as the walk would read it when it got there, a moment
    // earlier (a journal rolled forward in a sibling renames only below that sibling); one
    // holding scratch entries is read again by the walk, after recovering them, and the
    // folders skipped everywhere (`.git`, `.build`, `node_modules` ...) are not read ahead.
    // Visits stay in the same order. Each folder read ahead brings a few below it
    // (``readListingAhead(_:keep:expected:in:budget:)``), so a tree of targets each holding
    // `Sources/Resources` is read on every core too. They are held by entry index (an array
    // sized once, not a table rehashed as 1,000 listings arrive).
    var ahead = listing.below
    listing.below = []
    if notingClean {
      let folders = listing.subfolders
      if folders.count >= readAheadThreshold {
        let names = folders.map { listing.entries[$0].name }
        let expected = folders.map(listing.expectation)
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        // Each folder read ahead may be kept, and so may each read below it: as many below
        // each as the descriptors left allow (for 1,000 folders a hard limit of 8,192 leaves
        // room for two below each, 4,096 for none). Without room for the folders themselves
        // none is kept, and none below is read ahead: the walk keeps what it can as it goes.
        var below = readAheadBelow
        var holding: (@Sendable (String) -> Bool)?
        if let keep {
          below = min(readAheadBelow, keep.folders.room / names.count - 1)
          if below >= 0, keep.folders.reserve(names.count * (1 + below)) {
            holding = keep.holding
          } else {
            below = 0
          }
        }
        let read = WorkerThreads.map(names.count) { [below, holding] index in
          var budget = below
          return readListingAhead(
            base + names[index], keep: holding, expected: expected[index], budget: &budget)
        }
        ahead = Array(repeating: nil, count: listing.entries.count)
        for (index, result) in zip(folders, read) where result?.scratch.isEmpty == true {
          ahead[index] = result
        }
      }
    }
    // Read ahead but not visited (the visitor skipped it): not kept.
    defer {
      for case let listing? in ahead { listing.closeKept() }
    }
    for (index, entry) in listing.entries.enumerated() {
      let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
      let decision = visit(
        Entry(
          relativePath: path, name: entry.name, isFolder: entry.isFolder,
          isDecodable: entry.isDecodable))
      if entry.isFolder, entry.isDecodable, decision == .descend {
        walk(
          root: root, relative: path, notingClean: notingClean, keep: keep,
          readAhead: index < ahead.count ? ahead[index].take() : nil,
          expected: listing.expectation(index), visit)
      }
    }
  }
}
