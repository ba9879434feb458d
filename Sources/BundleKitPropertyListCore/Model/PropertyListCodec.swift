/// Options for writing property lists.
public struct PropertyListWriteOptions: Sendable {
  /// JSON only: indent with two spaces and one key per line (otherwise compact, as `plutil`).
  public var prettyJSON: Bool = true
  /// Binary only: store a real in 4 bytes when a 32-bit float holds it exactly, as libplist
  /// does. Off by default, so the bytes equal those CoreFoundation writes for the same value.
  public var compactBinaryReals: Bool = false

  /// The default options.
  public init(prettyJSON: Bool = true, compactBinaryReals: Bool = false) {
    self.prettyJSON = prettyJSON
    self.compactBinaryReals = compactBinaryReals
  }
}

extension PropertyListValue {
  /// The value's bytes in `format`. Fails when the format cannot hold a value (a date in
  /// JSON, a number in OpenStep, a control character in XML), naming its key path.
  public func encoded(
    as format: PropertyListFormat, options: PropertyListWriteOptions = PropertyListWriteOptions()
  ) throws(PropertyListError) -> [UInt8] {
    switch format {
    case .binary1: BinaryPropertyListWriter.write(self, compactReals: options.compactBinaryReals)
    case .xml1: try XMLPropertyListWriter.write(self)
    case .openstep: try OpenStepPropertyListWriter.write(self)
    case .json: try JSONPropertyListWriter.write(self, pretty: options.prettyJSON)
    }
  }

  /// Reads a value in `format` from bytes: binary, OpenStep and JSON here, in pure Swift (XML
  /// needs libxml2: `PropertyListDocument` in BundleKitPropertyList reads every format).
  public static func decode(_ bytes: UnsafeRawBufferPointer, format: PropertyListFormat)
    throws(PropertyListError) -> PropertyListValue
  {
    switch format {
    case .binary1: return try BinaryPropertyListReader.read(bytes)
    case .openstep: return try OpenStepPropertyListReader.read(bytes)
    case .json: return try JSONPropertyListReader.read(bytes)
    case .xml1:
      throw .syntax(
        path: nil, line: 1, column: 1,
        message: "XML property lists are read by BundleKitPropertyList (libxml2) or Foundation")
    }
  }
}
