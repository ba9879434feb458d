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
}
