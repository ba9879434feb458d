import BundleKitPropertyListCore
import Foundation

/// A String Catalog as the JSON object Xcode reads and writes, with Xcode's own layout on the
/// way out, so that a catalog that did not change keeps every byte.
///
/// Xcode writes two-space indentation, `"key" : value`, keys sorted, no escaped slashes and no
/// final line break; Foundation's pretty printer writes the same bytes (checked against every
/// catalog in the corpus), so writers go through it rather than a printer of our own.
enum CatalogJSON {
  /// The catalog's top-level object and its `strings` object.
  static func read(_ catalog: StringCatalog) throws(PropertyListError) -> (
    root: [String: Any], strings: [String: Any]
  ) {
    guard
      let root = (try? JSONSerialization.jsonObject(with: Data(catalog.contents)))
        as? [String: Any]
    else {
      throw PropertyListError.invalidValue(
        path: catalog.path, keyPath: "", message: "not a String Catalog")
    }
    guard let strings = root["strings"] as? [String: Any] else {
      throw PropertyListError.invalidValue(
        path: catalog.path, keyPath: "strings", message: "not a String Catalog")
    }
    return (root, strings)
  }

  /// `root` in Xcode's layout; a final line break only when the file had one (`original`).
  static func bytes(_ root: [String: Any], like original: [UInt8], path: String)
    throws(PropertyListError) -> [UInt8]
  {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else {
      throw PropertyListError.invalidValue(
        path: path, keyPath: "", message: "cannot be written as JSON")
    }
    var bytes = [UInt8](data)
    if original.last == 0x0A, bytes.last != 0x0A { bytes.append(0x0A) }
    return bytes
  }
}
