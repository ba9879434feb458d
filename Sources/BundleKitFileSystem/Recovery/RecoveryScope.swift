#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where this run may finish what killed runs left: the trees it writes, never above them.
///
/// A read-only command (`version`, `strings lint`, `scan` ...) permits nothing: its walks skip
/// scratch names and remember each folder that holds an unfinished journal, which the tool
/// reports as a warning (``pendingFolders``). A command that writes a tree permits that tree
/// (`bump` its paths, `bundlekit recover` the ones it is given); every writer may also finish
/// the journals in the one folder it writes into.
package enum RecoveryScope {
  private static let state = LockedState<State>(State())

  private struct State {
    var roots: [String] = []
    var pending: Set<String> = []
    var outcomes: [Outcome] = []
  }

  /// What recovery did to one file of a killed run's committed batch.
  package enum Outcome: Sendable, Hashable {
    /// The batch's new file was put in place (rolled forward).
    case replaced(String)
    /// The file changed after the batch began, so the batch's version was dropped and the
    /// newer file kept.
    case kept(String)
  }

  /// Records what recovery did to a file.
  static func note(_ outcome: Outcome) {
    state.update { $0.outcomes.append(outcome) }
  }

  /// What this run's recovery did, in order.
  package static var outcomes: [Outcome] { state.read { $0.outcomes } }

  /// Lets this run finish what killed runs left below each of `paths` (a folder, or the
  /// folder of a file), and in nothing above them.
  package static func permit(under paths: [String]) {
    let roots = paths.compactMap { path -> String? in
      var info = stat()
      let isFolder = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
      return FileIO.realPath(isFolder ? path : Paths.parent(path))
    }
    state.update { $0.roots += roots }
  }

  /// Whether this run may finish scratch entries in `folder`.
  static func permits(_ folder: String) -> Bool {
    guard state.read({ !$0.roots.isEmpty }), let real = FileIO.realPath(folder) else {
      return false
    }
    return permits(real: real)
  }

  /// Whether this run may finish scratch entries in `real`, a folder's real path.
  static func permits(real: String) -> Bool {
    permits(real: real, in: roots)
  }

  /// The real folders this run may finish scratch entries below, read once for many
  /// checks (``permits(real:in:)``).
  static var roots: [String] { state.read { $0.roots } }

  /// Whether `real`, a folder's real path, is one of `roots` (``roots``) or below one,
  /// compared on the bytes: no string is made.
  static func permits(real: String, in roots: [String]) -> Bool {
    let path = real.utf8
    return roots.contains { root in
      let prefix = root.utf8
      guard root != "/" else { return true }
      guard path.starts(with: prefix) else { return false }
      let end = path.index(path.startIndex, offsetBy: prefix.count)
      return end == path.endIndex || path[end] == UInt8(ascii: "/")
    }
  }

  /// Remembers a folder holding an unfinished journal this run did not finish.
  static func notePending(_ folder: String) {
    state.update { _ = $0.pending.insert(folder) }
  }

  /// The folders where this run met an unfinished journal of a killed run and left it, sorted.
  package static var pendingFolders: [String] { state.read { $0.pending.sorted() } }
}

/// A value shared between threads behind a pthread mutex (the runtime products stay free of
/// the Synchronization module's availability limits).
final class LockedState<Value>: @unchecked Sendable {
  private var value: Value
  private var mutex = pthread_mutex_t()

  init(_ value: Value) {
    self.value = value
    pthread_mutex_init(&mutex, nil)
  }

  func read<T>(_ body: (Value) -> T) -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return body(value)
  }

  func update(_ body: (inout Value) -> Void) {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    body(&value)
  }
}
