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
    // Read, edit and write under the folder lock `bump` takes: concurrent edits all land.
    let lock = try FolderLocks(forEditing: file)
    defer { lock.release() }
    // A file the user may not write is not replaced behind its permissions (a rename in a
    // writable folder could), as bump refuses it.
    if FileIO.isWriteProtected(file) {
      throw FileSystemError.io(
        path: file,
        message: "the file is write-protected (make it writable first); it was not changed")
    }
    var document = try PropertyListDocument(contentsOfFile: file)
    do {
      try document.value.removeValue(at: PropertyListKeyPath(keyPath))
    } catch {
      throw error.inFile(file)
    }
    try document.write(toFile: file)
  }
}
