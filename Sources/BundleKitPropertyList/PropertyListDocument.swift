import BundleKitFileSystem
@_exported import BundleKitPropertyListCore
import Foundation

/// A property list together with the format it was read in, so an edit can be written back
/// in the same format.
public struct PropertyListDocument: Sendable {
  /// The root value.
  public var value: PropertyListValue
  /// The format of the file.
  public var format: PropertyListFormat

  /// A document holding `value` in `format`.
  public init(value: PropertyListValue, format: PropertyListFormat) {
    self.value = value
    self.format = format
  }

  /// Reads a property list from bytes, detecting the format unless `format` is given.
  public init(bytes: UnsafeRawBufferPointer, format: PropertyListFormat? = nil)
    throws(PropertyListError)
  {
    if let format {
      self.init(value: try Self.read(bytes, as: format), format: format)
      return
    }
    guard !bytes.isEmpty else {
      throw .syntax(path: nil, line: 1, column: 1, message: "empty file: no property list")
    }
    let detected = PropertyListFormat.detect(bytes)
    do {
      self.init(value: try Self.read(bytes, as: detected), format: detected)
    } catch let openStepError {
      // `{` opens both JSON objects and OpenStep dictionaries: when the guess fails, try the
      // other reading and report the error of whichever got further.
      guard detected == .openstep || detected == .json,
        bytes.first(where: { !isSpace($0) }) == UInt8(ascii: "{")
      else { throw openStepError }
      let other: PropertyListFormat = detected == .json ? .openstep : .json
      do {
        self.init(value: try Self.read(bytes, as: other), format: other)
      } catch let otherError {
        throw Self.position(of: otherError) > Self.position(of: openStepError)
          ? otherError : openStepError
      }
    }
  }

  private static func read(_ bytes: UnsafeRawBufferPointer, as format: PropertyListFormat)
    throws(PropertyListError) -> PropertyListValue
  {
    format == .xml1
      ? try XMLPropertyListReader.read(bytes) : try PropertyListValue.decode(bytes, format: format)
  }

  private static func position(of error: PropertyListError) -> Int {
    if case .syntax(_, let line, let column, _) = error { return line << 32 | column }
    return 0
  }

  /// Reads a property list from bytes, detecting the format unless `format` is given.
  public init(bytes: [UInt8], format: PropertyListFormat? = nil) throws(PropertyListError) {
    self = try bytes.withUnsafeBytes { buffer in
      Result { () throws(PropertyListError) in
        try PropertyListDocument(bytes: buffer, format: format)
      }
    }.get()
  }

  /// Reads a property list from `Data`, detecting the format unless `format` is given.
  public init(data: Data, format: PropertyListFormat? = nil) throws(PropertyListError) {
    self = try data.withUnsafeBytes { buffer in
      Result { () throws(PropertyListError) in
        try PropertyListDocument(bytes: buffer, format: format)
      }
    }.get()
  }

  /// Reads a property-list file in any format.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - format: The format to expect; nil to recognise it from the bytes.
  /// - Throws: ``PropertyListError`` naming the file, with line and column for malformed
  ///   text and the byte offset for a corrupt binary list.
  public init(contentsOfFile path: String, format: PropertyListFormat? = nil)
    throws(PropertyListError)
  {
    let bytes = try PropertyListError.file { () throws(FileSystemError) in try FileIO.read(path) }
    do {
      try self.init(bytes: bytes, format: format)
    } catch {
      throw error.inFile(path)
    }
  }

  /// The document's bytes in its format.
  public func encoded(options: PropertyListWriteOptions = PropertyListWriteOptions())
    throws(PropertyListError) -> [UInt8]
  {
    try value.encoded(as: format, options: options)
  }

  /// Writes the document to `path` atomically, in its format: a temporary file beside it,
  /// flushed, then renamed, with the old file's permissions.
  ///
  /// - Parameters:
  ///   - path: The file to write; a character device or FIFO is written into.
  ///   - options: Compact reals, pretty JSON.
  /// - Throws: ``PropertyListError`` for a value the format cannot hold or a failed write;
  ///   the file is then as it was.
  public func write(
    toFile path: String, options: PropertyListWriteOptions = PropertyListWriteOptions()
  ) throws(PropertyListError) {
    let bytes: [UInt8]
    do {
      bytes = try encoded(options: options)
    } catch {
      throw error.inFile(path)
    }
    try PropertyListError.file { () throws(FileSystemError) in
      try FileIO.writeAtomically(bytes, to: path)
    }
  }
}

extension PropertyListDocument {
  /// An XML property list converted to binary without building its tree of values: several
  /// times faster than reading the document and encoding its value, to the same bytes.
  ///
  /// - Parameters:
  ///   - bytes: The XML document.
  ///   - compactReals: Store a real in 4 bytes when a 32-bit float holds it exactly.
  /// - Returns: The binary property list; nil when the bytes are not XML as tools write it
  ///   (another encoding, CDATA, an error): read those with ``init(bytes:format:)``, which
  ///   accepts all of XML and reports each error at its line and column.
  public static func binary(convertingXML bytes: [UInt8], compactReals: Bool = false)
    -> [UInt8]?
  {
    bytes.withUnsafeBytes { PlainXMLPropertyListReader.binary($0, compactReals: compactReals) }
  }

  /// Edits the property list at `path` in place: read, changed by `body`, and written back
  /// in its own format, atomically, under the folder lock `bundlekit bump` takes, so
  /// concurrent edits all land. A write-protected file (read-only, or not opened for edit in
  /// Perforce) is refused, not replaced behind its permissions. When `body` throws, nothing
  /// is written.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - body: The edit.
  public static func edit(
    file path: String, _ body: (inout PropertyListDocument) throws -> Void
  ) throws {
    let lock = try FolderLocks(forEditing: path)
    defer { lock.release() }
    // A rename in a writable folder could replace a file its owner made read-only.
    if FileIO.isWriteProtected(path) {
      throw FileSystemError.io(
        path: path,
        message: "the file is write-protected (make it writable first); it was not changed")
    }
    var document = try PropertyListDocument(contentsOfFile: path)
    try body(&document)
    try document.write(toFile: path)
  }
}

extension PropertyListError {
  /// Runs a file operation, its error as a property-list error naming the file.
  public static func file<Value>(_ body: () throws(FileSystemError) -> Value)
    throws(PropertyListError) -> Value
  {
    do {
      return try body()
    } catch {
      throw .io(path: error.path, message: error.message)
    }
  }
}

extension PropertyListValue {
  /// Reads a value from bytes, detecting the format unless `format` is given.
  public init(bytes: [UInt8], format: PropertyListFormat? = nil) throws(PropertyListError) {
    self = try PropertyListDocument(bytes: bytes, format: format).value
  }
}
