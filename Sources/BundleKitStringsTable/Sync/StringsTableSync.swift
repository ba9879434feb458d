import BundleKitDiagnostics
import BundleKitPropertyListCore

/// Merges the strings a target's code uses into its development-language `.strings` table,
/// for targets that have not moved to a String Catalog.
///
/// A `.strings` file has no extraction state, so sync only adds: each key the code uses that
/// the table lacks is appended (`/* comment */` then `"key" = "value";`, in the file's own
/// encoding), and every existing byte stays as it was. Keys the table has that the code no
/// longer uses are reported as notes, never removed: their translations live in other
/// languages' tables.
public enum StringsTableSync {
  /// A table after sync.
  public struct Result: Sendable {
    /// The table's bytes; the file's own when nothing was added.
    public var bytes: [UInt8]
    /// What changed: only additions.
    public var changes: [CatalogSync.Change]
    /// One note for each key the code no longer uses.
    public var diagnostics: [Diagnostic]
  }

  /// Appends what `strings` uses that `file` (read from `bytes`) lacks.
  public static func sync(
    _ file: StringsFile, bytes: [UInt8], with strings: [CatalogSync.CodeString]
  ) throws(PropertyListError) -> Result {
    guard file.propertyListFormat == nil else {
      throw PropertyListError.invalidValue(
        path: file.path, keyPath: "",
        message:
          "a table in property-list form cannot be synced; convert it to text or to a String Catalog"
      )
    }
    var blocks: [String] = []
    var changes: [CatalogSync.Change] = []
    var comments: [String: [String]] = [:]
    var order: [CatalogSync.CodeString] = []
    for string in strings {
      if comments[string.key] == nil {
        comments[string.key] = []
        order.append(string)
      }
      if let comment = string.comment, !comment.isEmpty,
        comments[string.key]?.contains(comment) == false
      {
        comments[string.key]?.append(comment)
      }
    }
    for string in order where file.dictionary[string.key] == nil {
      let comment = comments[string.key].flatMap { $0.isEmpty ? nil : $0.joined(separator: "\n") }
      blocks.append(
        StringsText.entry(
          key: string.key, value: string.value ?? string.key,
          comment: comment ?? "No comment provided by engineer."))
      changes.append(.added(key: string.key))
    }
    var diagnostics: [Diagnostic] = []
    for entry in file.entries where comments[entry.key] == nil {
      diagnostics.append(
        Diagnostic(
          .note, path: file.path, line: entry.line, column: entry.column,
          "\(StringsFile.literal(entry.key)) is no longer used by the code; kept"))
    }
    guard !blocks.isEmpty else {
      return Result(bytes: bytes, changes: [], diagnostics: diagnostics)
    }
    return Result(
      bytes: StringsText.appending(blocks, to: bytes, encoding: file.encoding), changes: changes,
      diagnostics: diagnostics)
  }
}
