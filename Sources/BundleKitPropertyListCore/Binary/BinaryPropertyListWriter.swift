/// Writes `bplist00` files the way CoreFoundation does.
///
/// Objects are numbered depth-first (a dictionary's keys before its values), equal scalars
/// (strings, numbers, dates, data, UIDs) are stored once, and integer, reference and offset
/// sizes are the smallest that fit. For the same value the bytes equal those of Apple's
/// writer and of Python's plistlib. The work is ``BinaryPropertyListBuilder``'s: the tree is
/// added to one, then written.
enum BinaryPropertyListWriter {
  static func write(_ value: PropertyListValue, compactReals: Bool = false) -> [UInt8] {
    // Sized once for the values and their bytes, instead of growing step by step.
    let size = BinaryPropertyListBuilder.size(of: value)
    var builder = BinaryPropertyListBuilder(capacity: size.values, byteCapacity: size.bytes)
    let root = builder.add(value)
    return builder.serialized(root: root, compactReals: compactReals)
  }
}
