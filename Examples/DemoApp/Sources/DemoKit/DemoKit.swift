import BundleKitLocalization

/// The library part of the demo: its own compiled table, looked up per language.
public enum DemoKit {
  static let strings = LocalizedStrings(bundle: .module)

  /// "Download finished" in `language`.
  public static func downloadDone(language: String) -> String {
    strings.localized("download.done", table: "Messages", language: language)
  }
}
