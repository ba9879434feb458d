/// The folders no search goes into: build products, dependencies, version control, and
/// hidden folders. One list for every walk (Info.plists, strings tables, resources).
public enum SkippedFolders {
  /// Names skipped wherever they are.
  public static let names: Set<String> = [
    ".build", ".git", ".swiftpm", "DerivedData", "Pods", "Carthage", "node_modules",
  ]

  /// Whether a walk skips a folder (or file) of this name: a listed name, or a hidden one.
  public static func skips(_ name: String) -> Bool {
    names.contains(name) || (name.hasPrefix(".") && name != "." && name != "..")
  }
}
