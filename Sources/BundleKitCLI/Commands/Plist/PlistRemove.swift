import ArgumentParser
import BundleKitFileSystem
import BundleKitPropertyList

/// `bundlekit plist remove FILE KEYPATH`.
struct PlistRemove: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove the value at a key path, keeping the file's format; written atomically."
  )

  @Argument(help: "The property list to edit.")
  var file: String

  @Argument(help: "The key path of the value to remove.")
  var keyPath: String

  func run() throws {
    try PropertyListDocument.edit(file: file) { document in
      do throws(PropertyListError) {
        try document.value.removeValue(at: PropertyListKeyPath(keyPath))
      } catch {
        throw error.inFile(file)
      }
    }
  }
}
