import Foundation

/// The templates BundleKit ships: code generation and the resource-bundle Info.plist.
public enum BundleKitTemplates {
  /// The folder holding the templates of a kind (`strings` ...), if the resources are present.
  public static func folder(_ kind: String) -> String? {
    Bundle.module.resourceURL.map { $0.appendingPathComponent(kind).path }
      .flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
  }

  /// The text of a shipped template (`strings/swift6.mustache`).
  public static func text(_ relativePath: String) -> String? {
    guard let url = Bundle.module.resourceURL?.appendingPathComponent(relativePath) else {
      return nil
    }
    return try? String(contentsOf: url, encoding: .utf8)
  }
}
