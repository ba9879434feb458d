#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths below a folder opened once, reached one component at a time with `O_NOFOLLOW`, so
/// that recovery never goes through a symbolic link out of the folder its journal sits in.
/// Components are plain names: a journal with `..`, `.` or an absolute path is refused when read.
struct BeneathFolder {
  /// The folder's descriptor.
  let descriptor: Int32

  /// Opens `path` (which must be a real folder, not a link).
  init?(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
  }

  func release() { _ = closeDescriptor(descriptor) }

  /// The folder holding `relative`, opened without following a link, and the last component;
  /// nil when a component is missing or is not a folder.
  func parent(of relative: String) -> (descriptor: Int32, name: String)? {
    var components = relative.split(separator: "/")
    guard let last = components.popLast() else { return nil }
    var current = dup(descriptor)
    guard current >= 0 else { return nil }
    for component in components {
      let next = openat(current, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      _ = closeDescriptor(current)
      guard next >= 0 else { return nil }
      current = next
    }
    return (current, String(last))
  }

  /// Whether `relative` exists (a link counts as itself).
  func exists(_ relative: String) -> Bool {
    guard let (folder, name) = parent(of: relative) else { return false }
    defer { _ = closeDescriptor(folder) }
    var info = stat()
    return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0
  }

  /// The state of `relative` now (``RenameJournal/FileState``), links not followed; nil when
  /// its folder cannot be reached without a link.
  func state(of relative: String) -> String? {
    guard let (folder, name) = parent(of: relative) else { return nil }
    defer { _ = closeDescriptor(folder) }
    return RenameJournal.FileState.of(name, in: folder)
  }

  /// Renames `source` over `target`, both below the folder; false when either folder cannot
  /// be reached without a link or the rename fails.
  func rename(_ source: String, _ target: String) -> Bool {
    guard let (from, fromName) = parent(of: source) else { return false }
    defer { _ = closeDescriptor(from) }
    guard let (to, toName) = parent(of: target) else { return false }
    defer { _ = closeDescriptor(to) }
    return renameat(from, fromName, to, toName) == 0
  }

  /// Removes `relative`, a file, a link or a whole folder, without following links.
  func removeTree(_ relative: String) {
    guard let (folder, name) = parent(of: relative) else { return }
    defer { _ = closeDescriptor(folder) }
    ScratchRecovery.removeEntry(name, in: folder)
  }
}

/// `close`, callable where a member of that name would hide it.
@inline(__always) func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
