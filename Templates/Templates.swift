/// The templates BundleKit ships: code generation and the resource-bundle Info.plist.
///
/// Their text is compiled into the binary (`ShippedTemplates.swift`, generated from the files
/// in this folder by `Scripts/embed-templates.py`), so a `bundlekit` copied or installed
/// anywhere still has its defaults; users pass their own with `--template`.
public enum BundleKitTemplates {
  /// The text of a shipped template (`strings/swift6.mustache`), or nil when there is none.
  public static func text(_ relativePath: String) -> String? {
    files[relativePath]
  }

  /// The shipped templates of a kind (`strings`): each file name in that folder with its text.
  public static func templates(_ kind: String) -> [String: String] {
    var found: [String: String] = [:]
    for (path, text) in files where path.hasPrefix(kind + "/") {
      found[String(path.dropFirst(kind.count + 1))] = text
    }
    return found
  }
}
