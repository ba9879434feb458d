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
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// The folder holding `path`: `a/b/c.txt` → `a/b`, `c.txt` → `.`, `/c` → `/`.
  public static func parent(_ path: String) -> String {
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let parent = String(trimmed[..<slash])
    return parent.isEmpty ? "/" : parent
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
