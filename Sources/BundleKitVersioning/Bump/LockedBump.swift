import BundleKitFileSystem

extension VersionBump {
  /// What a bump changes: every value (old and new, and the targets that share it) and every
  /// file (old and new bytes).
  public struct Plan: Sendable {
    /// The values that change.
    public var values: [ValueChange]
    /// The files that change.
    public var files: [FileChange]
    /// Each file read through a folder the locks hold open (``ConfirmedFolders``), by path:
    /// the folder and the `fstat`s read; the file is written through the same folder.
    var confirmed: [String: ConfirmedRead] = [:]

    /// A plan of these changes.
    public init(values: [ValueChange], files: [FileChange]) {
      self.values = values
      self.files = files
    }

    /// The folders of the files that change that `locked` does not hold: what `apply` locks
    /// next. A file read through a folder the locks hold (``confirmed``) is in one of them.
    func folders(notIn locked: Set<String>) -> Set<String> {
      var more = Set<String>()
      for file in files where confirmed[file.path] == nil {
        let folder = VersionInventory.parentFolder(of: file.path)
        if !locked.contains(folder) { more.insert(folder) }
      }
      return more
    }

    /// A warning for each new value with four components, where Apple documents at most
    /// three: Xcode builds it, so it is written, and said.
    public var warnings: [String] {
      values.compactMap { value in
        guard BundleVersion(value.new)?.hasMoreThanAppleDocuments == true else { return nil }
        return BundleVersion.fourComponentsWarning(
          value.bundles.joined(separator: ", "), key: value.key, value: value.new)
      }
    }
  }

  /// What the bump would change in the Info.plists and projects found under `paths`;
  /// nothing is written.
  ///
  /// - Parameters:
  ///   - paths: Info.plists, `.xcodeproj` folders, or folders to search.
  ///   - includeTests: Whether test bundles and test targets are taken too.
  ///   - targets: Only these targets (and what they embed); all when empty.
  ///   - found: What an earlier search under `paths` found, to plan without searching again.
  /// - Returns: The values and files that would change.
  /// - Throws: ``VersioningError`` for a file that cannot be read, a value that cannot be
  ///   resolved or raised, or nothing found.
  public func plan(
    paths: [String], includeTests: Bool = false, targets: [String] = [],
    found: [InfoPlistDiscovery.Found]? = nil
  ) throws(VersioningError) -> Plan {
    try plan(
      paths: paths, includeTests: includeTests, targets: targets, found: found,
      confirmed: ConfirmedFolders())
  }

  /// ``plan(paths:includeTests:targets:found:)``, reading the Info.plists in `confirmed`
  /// folders through their descriptors.
  func plan(
    paths: [String], includeTests: Bool, targets: [String],
    found: [InfoPlistDiscovery.Found]?, confirmed: ConfirmedFolders
  ) throws(VersioningError) -> Plan {
    var items = found ?? []
    if found == nil { items = try InfoPlistDiscovery.find(in: paths, includeTests: includeTests) }
    let inventory = try VersionInventory(
      found: items, targets: targets.isEmpty ? nil : Set(targets), includeTests: includeTests,
      scope: SettingsScope(paths: paths.isEmpty ? ["."] : paths, allowingOutside: allowOutside),
      confirmed: confirmed)
    guard !inventory.bundles.isEmpty else { throw .nothingFound(paths: paths) }
    // Rows that could not be read at all (built by code, not yet generated) leave nothing to
    // raise: said, rather than a success that changed nothing.
    if inventory.bundles.allSatisfy({ $0.missing != nil }) {
      throw .refused(
        path: nil,
        reason:
          "nothing that can be read to bump: \(inventory.bundles.compactMap(\.missing).joined(separator: "; "))"
      )
    }
    return try plan(inventory)
  }

  /// Applies the bump under folder locks, all or nothing, and returns what changed.
  ///
  /// The files are read and planned once the locks are held, so concurrent runs (two CI
  /// jobs, `plist set` on the same file) never lose an increment. Files found through
  /// references in other folders (an `.xcconfig` above) widen the locks, and the plan is made
  /// again.
  ///
  /// - Parameters:
  ///   - paths: Info.plists, `.xcodeproj` folders, or folders to search.
  ///   - includeTests: Whether test bundles and test targets are taken too.
  ///   - targets: Only these targets (and what they embed); all when empty.
  ///   - check: Called with the plan under the locks, before anything is written (a caller
  ///     that commits the bump checks the repository there); what it throws stops the bump.
  /// - Returns: The values and files that changed.
  /// - Throws: ``VersioningError``; nothing was written then.
  public func apply(
    paths: [String], includeTests: Bool = false, targets: [String] = [],
    beforeWriting check: (Plan) throws(VersioningError) -> Void = { _ in }
  ) throws(VersioningError) -> Plan {
    // The trees this run writes: what killed runs left there is finished before reading.
    RecoveryScope.permit(under: paths.isEmpty ? ["."] : paths)
    // The folders the walk listed holding Info.plists stay open for their locks.
    let open = OpenFolders()
    let found = try InfoPlistDiscovery.find(
      in: paths, includeTests: includeTests, keepingOpen: open)
    var folders = Set(
      found.map { item -> String in
        if case .infoPlist(let path) = item { return VersionInventory.parentFolder(of: path) }
        return item.path
      })
    var locks: FolderLocks
    do { locks = try FolderLocks(folders: folders, open: open) } catch { throw .file(error) }
    open.closeAll()
    defer { locks.release() }
    // What was found stays found: a file added meanwhile is left for the next run, as it
    // would be had it come later.
    // Info.plists in folders the walk confirmed are read, then written, through the
    // descriptors the locks hold (ConfirmedFolders).
    var planned = try plan(
      paths: paths, includeTests: includeTests, targets: targets, found: found,
      confirmed: locks.confirmedFolders)
    var unlocked = planned.folders(notIn: folders)
    while !unlocked.isEmpty {
      locks.release()
      folders.formUnion(unlocked)
      do { locks = try FolderLocks(folders: folders) } catch { throw .file(error) }
      planned = try plan(
        paths: paths, includeTests: includeTests, targets: targets, found: found,
        confirmed: locks.confirmedFolders)
      unlocked = planned.folders(notIn: folders)
    }
    // One resolver for the check and the write: each folder's links are read once.
    var resolved = AbsolutePath.RealFolders()
    // A file read through its confirmed folder is below the root by construction, and is
    // written through that folder: no path of it is followed, so none needs checking.
    var through = [Int32?](repeating: nil, count: planned.files.count)
    if !planned.confirmed.isEmpty {
      resolved.reserveCapacity(planned.confirmed.count)
      for (index, file) in planned.files.enumerated() {
        guard let read = planned.confirmed[file.path], resolved.noteConfirmed(file.path, read)
        else { continue }
        through[index] = read.folder.descriptor
      }
    }
    if !allowOutside {
      let outside = Self.outside(
        zip(planned.files, through).compactMap { $1 == nil ? $0.path : nil },
        roots: paths.isEmpty ? ["."] : paths, folders: &resolved)
      if !outside.isEmpty {
        throw .outside(paths: outside, roots: paths.isEmpty ? ["."] : paths)
      }
    }
    try check(planned)
    try VersionBump.write(planned.files, folders: &resolved, through: through)
    return planned
  }

  /// The files of `files` whose real place (links followed) is not below one of `roots`.
  /// A project or workspace given by name stands for the folder that holds it: its
  /// Info.plists and the projects a workspace lists are found relative to that folder.
  static func outside(
    _ files: [String], roots: [String],
    folders: inout AbsolutePath.RealFolders
  ) -> [String] {
    let folderRoots = roots.map { root -> String in
      let name = root.hasSuffix("/") ? String(root.dropLast()) : root
      guard name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") else { return root }
      guard let slash = name.lastIndex(of: "/") else { return "." }
      return slash == name.startIndex ? "/" : String(name[..<slash])
    }
    let real = folderRoots.compactMap { folders.folder($0) }
    // Each root with its slash, made once rather than for every file.
    let prefixes = real.map { $0 == "/" ? "/" : $0 + "/" }
    return zip(files, folders.files(files)).compactMap { file, place in
      guard let place else { return file }
      let inside = zip(real, prefixes).contains { root, prefix in
        place == root || place.hasPrefix(prefix)
      }
      return inside ? nil : file
    }
  }
}
