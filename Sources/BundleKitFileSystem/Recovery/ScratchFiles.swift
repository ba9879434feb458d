#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files, staging folders and write journals BundleKit leaves beside the files
/// it writes while it writes them: how they are named and recognised.
///
/// Every name carries the transaction it belongs to, so a run that finds one left by a run
/// that was killed can finish that transaction (`ScratchRecovery`) instead of packing,
/// reading or tripping over it:
///
/// - a temporary file or staging folder: `.<name>~bundlekit-<transaction>.<n>`;
/// - a journal of a batch of renames: `.bundlekit-<transaction>.journal`, renamed to
///   `.bundlekit-<transaction>.committed` once every temporary file of the batch is on disk.
package enum ScratchFiles {
  /// What a scratch name is.
  package enum Kind: Sendable, Equatable {
    /// A temporary file or staging folder of a transaction.
    case temporary(transaction: String)
    /// A transaction's journal, committed or not yet.
    case journal(transaction: String, committed: Bool)
  }

  static let temporaryMarker = "~bundlekit-"
  static let journalPrefix = ".bundlekit-"
  static let preparedSuffix = ".journal"
  static let committedSuffix = ".committed"

  /// What `name` is, or nil for a name that is not one of BundleKit's scratch names. Cheap:
  /// directory walkers ask it for every name.
  package static func kind(of name: String) -> Kind? {
    let bytes = name.utf8
    guard bytes.first == UInt8(ascii: "."), bytes.count > 12 else { return nil }
    if name.hasPrefix(journalPrefix) {
      for (suffix, committed) in [(preparedSuffix, false), (committedSuffix, true)]
      where name.hasSuffix(suffix) {
        let transaction = name.dropFirst(journalPrefix.count).dropLast(suffix.count)
        guard isTransaction(transaction.utf8) else { return nil }
        return .journal(transaction: String(transaction), committed: committed)
      }
      return nil
    }
    // `<name>~bundlekit-<transaction>.<n>`: the part after the last marker.
    let marker = Array(temporaryMarker.utf8)
    let all = Array(bytes)
    var start = all.count - marker.count
    while start > 0, !all[start..<(start + marker.count)].elementsEqual(marker) { start -= 1 }
    guard start > 0 else { return nil }
    let rest = all[(start + marker.count)...]
    guard let dot = rest.firstIndex(of: UInt8(ascii: ".")),
      isTransaction(rest[..<dot]), isTransaction(rest[(dot + 1)...])
    else { return nil }
    return .temporary(transaction: String(decoding: rest[..<dot], as: UTF8.self))
  }

  /// Whether `text` is a transaction identifier (or a temporary's number): base-36 digits.
  private static func isTransaction<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    !bytes.isEmpty && bytes.count <= 40
      && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }
  }

  /// A new transaction identifier: the process in base 35 (so it holds no `z`), `z`, and a
  /// random number in base 36. Recovery reads the process back to leave a live run alone.
  package static func newTransaction() -> String {
    String(UInt64(getpid()), radix: 35) + "z" + String(UInt64.random(in: 0..<(1 << 52)), radix: 36)
  }

  /// Whether the process that started `transaction` still runs (on this machine): its
  /// scratch files are its own business. A transaction that names no process counts as dead.
  package static func writerIsAlive(_ transaction: String) -> Bool {
    guard let separator = transaction.firstIndex(of: "z"),
      let pid = Int32(transaction[..<separator], radix: 35), pid > 0
    else { return false }
    if pid == getpid() { return true }
    return kill(pid, 0) == 0 || errno == EPERM
  }

  /// Whether `transaction` is this process's own.
  static func isOwn(_ transaction: String) -> Bool {
    transaction.hasPrefix(String(UInt64(getpid()), radix: 35) + "z")
  }

  /// The name of temporary number `index` of `transaction`, for a file or folder called
  /// `name`: hidden, and short enough for any file system (a long name is cut, at a
  /// character boundary; the temporary's name is never read back).
  package static func temporaryName(for name: String, transaction: String, index: Int) -> String {
    let number = String(index, radix: 36)
    let length =
      1 + name.utf8.count + temporaryMarker.utf8.count + transaction.utf8.count + 1
      + number.utf8.count
    // Nearly every name fits: its bytes copied into one new string (a batch makes one name a
    // file, and the concatenations below made five strings each).
    if length <= 250 {
      return String(unsafeUninitializedCapacity: length) { buffer in
        var end = 0
        func copy(_ text: String) {
          for byte in text.utf8 {
            buffer[end] = byte
            end += 1
          }
        }
        copy(".")
        copy(name)
        copy(temporaryMarker)
        copy(transaction)
        copy(".")
        copy(number)
        return end
      }
    }
    let suffix = temporaryMarker + transaction + "." + number
    var kept = Substring(name)
    while kept.utf8.count + suffix.utf8.count + 1 > 250 { kept.removeLast() }
    return "." + kept + suffix
  }

  /// The name of `transaction`'s journal.
  static func journalName(_ transaction: String, committed: Bool) -> String {
    journalPrefix + transaction + (committed ? committedSuffix : preparedSuffix)
  }
}
