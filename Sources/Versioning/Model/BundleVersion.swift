/// A version as Apple's bundles write them: one to three period-separated non-negative
/// integers, each below 2^32 (`CFBundleVersion` "42" or "1.2.3", `CFBundleShortVersionString`
/// "2.0").
public struct BundleVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The components, most significant first.
  public var components: [UInt32]

  /// Parses and validates a version; nil when it is not one to three numbers below 2^32.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var components: [UInt32] = []
    for part in parts {
      guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(part)
      else {
        return nil
      }
      components.append(value)
    }
    self.components = components
  }

  /// A version from components.
  public init(components: [UInt32]) { self.components = components }

  /// Why `text` is not a valid version, for error messages.
  public static func problem(with text: String) -> String? {
    if BundleVersion(text) != nil { return nil }
    return
      "'\(text)' is not a version: expected 1 to 3 period-separated whole numbers, each below 4294967296"
  }

  /// The version with the last component raised by one; nil when it would reach 2^32.
  public func incremented() -> BundleVersion? {
    guard let last = components.last, last < UInt32.max else { return nil }
    var next = components
    next[next.count - 1] = last + 1
    return BundleVersion(components: next)
  }

  /// The part of a semantic version to raise.
  public enum Part: String, Sendable, CaseIterable {
    /// X.0.0
    case major
    /// x.Y.0
    case minor
    /// x.y.Z
    case patch
  }

  /// The version with `part` raised and the parts after it reset, as `MAJOR.MINOR.PATCH`.
  public func bumped(_ part: Part) -> BundleVersion? {
    var parts = components + Array(repeating: 0, count: max(0, 3 - components.count))
    let index = part == .major ? 0 : part == .minor ? 1 : 2
    guard parts[index] < UInt32.max else { return nil }
    parts[index] += 1
    for later in (index + 1)..<3 { parts[later] = 0 }
    // Keep the written length when it can hold the change ("2.1" + minor = "2.2").
    let length = max(components.count, index + 1)
    return BundleVersion(components: Array(parts.prefix(length)))
  }

  /// Compares component by component; missing components count as 0.
  public static func < (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
    for index in 0..<max(lhs.components.count, rhs.components.count) {
      let a = index < lhs.components.count ? lhs.components[index] : 0
      let b = index < rhs.components.count ? rhs.components[index] : 0
      if a != b { return a < b }
    }
    return false
  }

  /// The version as written: `1.2.3`.
  public var description: String { components.map(String.init).joined(separator: ".") }
}

/// A build-setting reference in place of a value: `$(CURRENT_PROJECT_VERSION)` or
/// `${MARKETING_VERSION}`; nil for a plain value.
public func buildSettingReference(in value: String) -> String? {
  let trimmed = value.trimmingCharacters(in: [" ", "\t"])
  for (open, close) in [("$(", ")"), ("${", "}")]
  where trimmed.hasPrefix(open) && trimmed.hasSuffix(close) {
    let name = trimmed.dropFirst(2).dropLast()
    if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
      return String(name)
    }
  }
  return nil
}

extension String {
  func trimmingCharacters(in set: Set<Character>) -> String {
    var slice = self[...]
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}
