extension Dictionary {
  /// The value under `key`, `value` entered under it first when there was none, and whether
  /// it was: found or entered with one hash, where a lookup and then an insert took two (the
  /// tables of a 1,000-file bump do this for every file).
  package mutating func enter(_ value: Value, forKey key: Key) -> (value: Value, entered: Bool) {
    let count = self.count
    // Through the defaulting subscript's in-place access: one search, inserting when absent.
    let found = Self.read(&self[key, default: value])
    return (found, self.count > count)
  }

  private static func read(_ value: inout Value) -> Value { value }
}
