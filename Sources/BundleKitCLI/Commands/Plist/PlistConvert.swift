import ArgumentParser
import BundleKitFileSystem
import BundleKitPropertyList

/// `bundlekit plist convert FILE --format F [-o OUT]`.
struct PlistConvert: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert a property list to another format, in place or to a new file.",
    discussion: """
      Formats: xml1, binary1, openstep, json. Without -o the file is replaced atomically. \
      Values the target format cannot hold (dates in JSON, numbers in OpenStep) are an \
      error naming their key path, and nothing is written.
      """
  )

  @Argument(help: "The property list to convert ('-' for standard input).")
  var file: String

  @Option(help: "The format to write: xml1, binary1, openstep or json.")
  var format: PropertyListFormat

  @Option(
    name: .shortAndLong, help: "Write here instead of replacing the file ('-' for standard output)."
  )
  var output: String?

  @Flag(help: "JSON only: write compactly on one line instead of indented.")
  var compact = false

  func run() throws {
    // A large document's tree and binary form take a hundred megabytes of fresh pages: the
    // heap tuned as `strings compile` tunes it (`LargeHeap`), before anything is read.
    if file != "-" { LargeHeap.restartIfWorthIt(inputBytes: LargeHeap.totalSize(of: [file])) }
    let destination = output ?? file
    let bytes = try PropertyListError.file { () throws(FileSystemError) in try FileIO.read(file) }
    // XML as tools write it goes to binary without a tree of values: the same bytes, faster.
    if format == .binary1, PropertyListFormat.detect(bytes) == .xml1,
      let binary = PropertyListDocument.binary(convertingXML: bytes)
    {
      try PropertyListError.file { () throws(FileSystemError) in
        try FileIO.writeAtomically(binary, to: destination)
      }
      return
    }
    let document: PropertyListDocument
    do {
      document = try PropertyListDocument(bytes: bytes)
    } catch {
      throw error.inFile(file)
    }
    try PropertyListDocument(value: document.value, format: format).write(
      toFile: destination, options: PropertyListWriteOptions(prettyJSON: !compact))
  }
}
