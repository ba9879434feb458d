#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The secret that signs this user's write journals, so that recovery rolls forward only
/// what this user's own runs left: a journal in a cloned repository, an archive or a shared
/// folder cannot carry a valid MAC, and is never acted on.
///
/// Kept in `$BUNDLEKIT_STATE_DIR`, else `$XDG_STATE_HOME/bundlekit`, else
/// `~/.local/state/bundlekit`: a folder of mode 0700 owned by the user, holding `journal-key`
/// (32 random bytes, mode 0600). Created on first use. A key that is not the user's own, or
/// that others can read or write, is not used: journals are then written unsigned, and a run
/// killed half-way is left for the user to finish (`bundlekit recover` says so) rather than
/// trusted.
package enum JournalKey {
  /// The key, or nil when no trustworthy key can be read or made.
  package static let current: [UInt8]? = load()

  /// The folder the key lives in.
  static func folder() -> String? {
    func variable(_ name: String) -> String? {
      guard let value = getenv(name) else { return nil }
      let text = String(cString: value)
      return text.hasPrefix("/") ? text : nil
    }
    if let explicit = variable("BUNDLEKIT_STATE_DIR") { return explicit }
    if let state = variable("XDG_STATE_HOME") { return state + "/bundlekit" }
    if let home = variable("HOME") { return home + "/.local/state/bundlekit" }
    return nil
  }

  private static func load() -> [UInt8]? {
    guard let folder = folder() else { return nil }
    let path = folder + "/journal-key"
    if let key = readKey(path, folder: folder) { return key }
    guard makeFolder(folder) else { return nil }
    var key = [UInt8](repeating: 0, count: 32)
    var generator = SystemRandomNumberGenerator()
    for index in key.indices { key[index] = UInt8.random(in: 0...255, using: &generator) }
    // Written under a unique name and linked into place, so two first runs agree on one key.
    let temporary = path + ".\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { return nil }
    let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, 32) }
    _ = fsync(descriptor)
    close(descriptor)
    defer { unlink(temporary) }
    guard written == 32 else { return nil }
    _ = link(temporary, path)
    return readKey(path, folder: folder)
  }

  /// The key at `path`, when it and its folder belong to this user and no one else can
  /// read or write them.
  private static func readKey(_ path: String, folder: String) -> [UInt8]? {
    var info = stat()
    guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
      info.st_uid == geteuid(), info.st_mode & 0o077 == 0
    else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      info.st_uid == geteuid(), info.st_mode & 0o077 == 0, info.st_size == 32
    else { return nil }
    var key = [UInt8](repeating: 0, count: 32)
    let count = key.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 32) }
    return count == 32 ? key : nil
  }

  /// Creates the folder and its parents; the last one with mode 0700.
  private static func makeFolder(_ folder: String) -> Bool {
    var prefix = ""
    let components = folder.split(separator: "/")
    for (index, component) in components.enumerated() {
      prefix += "/" + component
      let mode: mode_t = index == components.count - 1 ? 0o700 : 0o755
      if mkdir(prefix, mode) != 0 && errno != EEXIST { return false }
    }
    return true
  }

  /// The MAC of a journal's body, bound to the folder it sits in and its transaction.
  static func mac(key: [UInt8], folder: String, transaction: String, body: ArraySlice<UInt8>)
    -> [UInt8]
  {
    var message = Array(folder.utf8)
    message.append(0)
    message.append(contentsOf: transaction.utf8)
    message.append(0)
    message.append(contentsOf: body)
    return SHA256.hmac(key: key, message: message)
  }
}
