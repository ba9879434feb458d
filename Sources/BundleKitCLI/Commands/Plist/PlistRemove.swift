import ArgumentParser
import FileSystem
import PropertyListXML

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
    // Read, edit and write under the folder lock `bump` takes: concurrent edits all land.
    let lock = try FolderLocks(forEditing: file)
    defer { lock.release() }
    var document = try PropertyListDocument(contentsOfFile: file)
    do {
      try document.value.removeValue(at: PropertyListKeyPath(keyPath))
    } catch {
      throw error.inFile(file)
    }
    try document.write(toFile: file)
  }
}
