#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Path arithmetic on strings, the same on every platform (Foundation's `NSString` path
/// methods differ between Linux and macOS, and have crashed on Linux).
public enum Paths {
  /// The last component: `a/b/c.txt` → `c.txt`.
  public static func lastComponent(_ path: String) -> String {
    let (end, slash) = lastSlash(path)
    let utf8 = path.utf8
    guard let slash else { return String(path[..<end]) }
    return String(path[utf8.index(after: slash)..<end])
  }

  /// Whether `Paths.parent` gives the same folder for both paths, compared in place.
  static func inSameFolder(_ first: String, _ second: String) -> Bool {
    // What `parent` returns, as a view of the path's bytes where it can be.
    func folder(_ path: String) -> Substring.UTF8View {
      guard let slash = lastSlash(path).slash else { return "."[...].utf8 }
      return slash == path.startIndex ? "/"[...].utf8 : path[..<slash].utf8
    }
    return folder(first).elementsEqual(folder(second))
  }

  /// The folder holding `path`: `a/b/c.txt` → `a/b`, `c.txt` → `.`, `/c` → `/`.
  public static func parent(_ path: String) -> String {
    guard let slash = lastSlash(path).slash else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Whether a component of `path` is `.` or `..`, on the UTF-8 bytes.
  static func hasDotComponent(_ path: String) -> Bool {
    var length = 0  // of the current component
    var dots = 0  // how many of its bytes are dots
    for byte in path.utf8 {
      if byte == UInt8(ascii: "/") {
        if length > 0, dots == length, length <= 2 { return true }
        length = 0
        dots = 0
      } else {
        length += 1
        if byte == UInt8(ascii: ".") { dots += 1 }
      }
    }
    return length > 0 && dots == length && length <= 2
  }

  /// Where `path` ends once trailing slashes are dropped (one `/` is kept), and the last
  /// slash before that end: worked out on the UTF-8 bytes, since a `/` is never part of
  /// another character there, instead of walking `Character`s.
  private static func lastSlash(_ path: String) -> (end: String.Index, slash: String.Index?) {
    let utf8 = path.utf8
    // On the contiguous bytes a native string has (nearly every path): offsets, not index
    // steps, which cost a call each (about 1 ms of a bump of 1,000 files went there).
    let offsets = utf8.withContiguousStorageIfAvailable { bytes -> (end: Int, slash: Int?) in
      var end = bytes.count
      let shortest = min(1, bytes.count)
      while end > shortest, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
      var cursor = end
      while cursor > 0 {
        cursor -= 1
        if bytes[cursor] == UInt8(ascii: "/") { return (end, cursor) }
      }
      return (end, nil)
    }
    if let offsets {
      return (
        utf8.index(utf8.startIndex, offsetBy: offsets.end),
        offsets.slash.map { utf8.index(utf8.startIndex, offsetBy: $0) }
      )
    }
    var end = utf8.endIndex
    let shortest = utf8.isEmpty ? utf8.startIndex : utf8.index(after: utf8.startIndex)
    while end > shortest, utf8[utf8.index(before: end)] == UInt8(ascii: "/") {
      end = utf8.index(before: end)
    }
    var cursor = end
    while cursor > utf8.startIndex {
      let before = utf8.index(before: cursor)
      if utf8[before] == UInt8(ascii: "/") { return (end, before) }
      cursor = before
    }
    return (end, nil)
  }

  /// The name without its extension: `c.tar.gz` → `c.tar`, `.hidden` stays.
  public static func removingExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// `folder/component`, without doubling slashes.
  public static func join(_ folder: String, _ component: String) -> String {
    if folder.isEmpty || folder == "." { return component }
    return folder.hasSuffix("/") ? folder + component : folder + "/" + component
  }

  /// `path` with `.` components and `folder/..` pairs taken out (`App/../Base.xcconfig` →
  /// `Base.xcconfig`), when that names the same file: through a link to a folder, `..` is
  /// the link target's parent, so the path is kept as written then. Leading `..` stay.
  public static func collapsed(_ path: String) -> String {
    // Most paths hold no `.` or `..` component: a pass over the bytes tells, with no split.
    guard hasDotComponent(path) else { return path }
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard parts.contains(where: { $0 == "." || $0 == ".." }) else { return path }
    var kept: [Substring] = []
    for part in parts {
      if part == "." { continue }
      if part == "..", let last = kept.last, last != ".." {
        kept.removeLast()
        continue
      }
      if part == "..", path.hasPrefix("/"), kept.isEmpty { continue }
      kept.append(part)
    }
    let joined = kept.joined(separator: "/")
    let result = path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    guard result != path else { return path }
    // The same file only if no link was crossed: compare where both lead.
    let real = { (text: String) -> String? in
      guard let resolved = realpath(text, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    }
    let (before, after) = (real(path), real(result))
    if before == nil, after == nil {
      // Neither exists (yet): only a folder that exists could be a link; check the parents.
      let (parentBefore, parentAfter) = (real(parent(path)), real(parent(result)))
      return parentBefore != nil && parentBefore == parentAfter ? result : path
    }
    return before == after ? result : path
  }
}
