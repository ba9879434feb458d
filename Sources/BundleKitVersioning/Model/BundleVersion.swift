/// A version as Apple's bundles write them: period-separated non-negative integers, each of
/// at most 18 digits, the most App Store Connect takes (`CFBundleVersion` "42", "1.2.3" or a
/// timestamp "202202012306", `CFBundleShortVersionString` "2.0"). Apple
/// documents one to three; shipping apps use four (`7.75.0.3`), which Xcode builds and the
/// App Store takes for a build number, so four are read too (``hasMoreThanAppleDocuments``).
/// The width of a zero-padded component is kept: `26.07.5` raised is `26.07.6`.
public struct BundleVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The components, most significant first.
  public var components: [UInt64]
  /// The fewest digits each component is written with (`07` is 2); 1 when not padded.
  public var widths: [Int]

  /// The largest component: 18 digits, the length App Store Connect takes for the whole
  /// value; Xcode and CoreFoundation read any digits.
  public static let largestComponent: UInt64 = 999_999_999_999_999_999

  /// The rule a version follows, as messages state it.
  public static let rule = "1 to 4 period-separated whole numbers, each of at most 18 digits"

  /// Parses and validates a version; nil when it is not one to four numbers of at most 18
  /// digits.
  /// Read on the UTF-8 bytes: it runs once per value per configuration.
  public init?(_ text: String) {
    var components: [UInt64] = []
    var widths: [Int] = []
    components.reserveCapacity(4)
    widths.reserveCapacity(4)
    var value: UInt64 = 0
    var digits = 0
    var leadingZero = false
    for byte in text.utf8 {
      if byte == UInt8(ascii: ".") {
        guard digits > 0, components.count < 3 else { return nil }
        components.append(value)
        widths.append(leadingZero ? digits : 1)
        (value, digits, leadingZero) = (0, 0, false)
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
      value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
      digits += 1
      guard value <= Self.largestComponent else { return nil }
    }
    guard digits > 0 else { return nil }
    components.append(value)
    widths.append(leadingZero ? digits : 1)
    self.components = components
    self.widths = widths
  }

  /// The highest of `texts` as versions (text that is not a version counts as 0), or nil
  /// when there is none: a value's current number when its places disagree. Each distinct
  /// text is parsed once.
  public static func highest<Texts: Sequence<String>>(of texts: Texts) -> String? {
    var best: (text: String, version: BundleVersion)?
    var seen: Set<String> = []
    for text in texts where seen.insert(text).inserted {
      let version = BundleVersion(text) ?? BundleVersion(components: [0])
      if best.map({ $0.version < version }) ?? true { best = (text, version) }
    }
    return best?.text
  }

  /// Whether it has four components, where Apple documents at most three: Xcode builds it
  /// and App Store Connect takes it as a build number, so it is a warning, not an error.
  public var hasMoreThanAppleDocuments: Bool { components.count > 3 }

  /// A version from components, written without padding.
  public init(components: [UInt64]) {
    self.components = components
    self.widths = Array(repeating: 1, count: components.count)
  }

  /// A version from components, each written with at least `widths` digits.
  init(components: [UInt64], widths: [Int]) {
    self.components = components
    self.widths = widths
  }

  /// Why `text` is not a valid version, for error messages.
  public static func problem(with text: String) -> String? {
    if BundleVersion(text) != nil { return nil }
    return
      "'\(ShownValue.of(text))' is not a version: expected \(rule)"
  }

  /// The version with the last component raised by one; nil when it would pass 18 digits.
  func incremented() -> BundleVersion? {
    guard let last = components.last, last < Self.largestComponent else { return nil }
    var next = components
    next[next.count - 1] = last + 1
    return BundleVersion(components: next, widths: widths)
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
    var parts = components + Array(repeating: 0, count: max(0, 4 - components.count))
    let index = part == .major ? 0 : part == .minor ? 1 : 2
    guard parts[index] < Self.largestComponent else { return nil }
    parts[index] += 1
    for later in (index + 1)..<parts.count { parts[later] = 0 }
    // Keep the written length when it can hold the change ("2.1" + minor = "2.2"), and
    // each component's width ("26.07.5" + patch = "26.07.6").
    let length = max(components.count, index + 1)
    let padded = widths + Array(repeating: 1, count: max(0, length - widths.count))
    return BundleVersion(
      components: Array(parts.prefix(length)), widths: Array(padded.prefix(length)))
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

  /// The version as written: `1.2.3`, padded components as they were (`26.07.6`).
  public var description: String {
    zip(components, widths + Array(repeating: 1, count: max(0, components.count - widths.count)))
      .map { value, width in
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
      }.joined(separator: ".")
  }

  /// Equal when the numbers are: `1.02` is `1.2`, as Apple compares them.
  public static func == (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
    !(lhs < rhs) && !(rhs < lhs)
  }

  /// Hashes what `==` compares: the numbers, trailing zeros aside.
  public func hash(into hasher: inout Hasher) {
    var significant = components[...]
    while significant.last == 0 { significant = significant.dropLast() }
    hasher.combine(Array(significant))
  }
}

/// A marketing version with a pre-release or build part after its numbers, as SemVer and
/// Sparkle write them (`2.7.0-beta.1`, `1.0b3`, `3.1.0+42`). Xcode builds it and
/// CoreFoundation reads it; App Store Connect refuses it, so it is shown with a warning.
public struct PrereleaseVersion: Sendable, Hashable, CustomStringConvertible {
  /// The numbers before the suffix: `2.7.0`.
  public var release: BundleVersion
  /// The suffix as written: `-beta.1`.
  public var suffix: String

  /// Parses `text`; nil unless it is a ``BundleVersion`` followed by a suffix that starts with
  /// `-`, `+` or a letter and holds only letters, digits, `.`, `-` and `+`, 64 characters at
  /// most in all.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count <= 64,
      let start = bytes.firstIndex(where: {
        !($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) && $0 != UInt8(ascii: ".")
      }), start > 0, bytes[start - 1] != UInt8(ascii: "."),
      let release = BundleVersion(String(decoding: bytes[..<start], as: UTF8.self))
    else { return nil }
    let suffix = bytes[start...]
    func isLetter(_ byte: UInt8) -> Bool {
      byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
    }
    guard let first = suffix.first,
      first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || isLetter(first),
      suffix.allSatisfy({
        isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
          || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
      })
    else { return nil }
    self.release = release
    self.suffix = String(decoding: suffix, as: UTF8.self)
  }

  /// The version with `part` raised as SemVer (and npm's `semver inc`) raise a pre-release:
  /// the release it leads to when the parts after `part` are zero (`2.7.0-beta.1` + patch,
  /// minor or major ... `2.7.0` for patch and minor), else the next one (`2.7.1-rc` + minor is
  /// `2.8.0`). The suffix is dropped.
  public func bumped(_ part: BundleVersion.Part) -> BundleVersion? {
    let parts =
      release.components + Array(repeating: 0, count: max(0, 3 - release.components.count))
    let index = part == .major ? 0 : part == .minor ? 1 : 2
    if parts[(index + 1)...].allSatisfy({ $0 == 0 }) { return release }
    return release.bumped(part)
  }

  /// As written: `2.7.0-beta.1`.
  public var description: String { release.description + suffix }

  /// The warning for a value with a pre-release part.
  public static func warning(_ label: String, key: String, value: String) -> String {
    "\(label): \(key) \(value) has a pre-release part; Xcode builds it, App Store Connect refuses it, and a bump raises it to a release"
  }
}

/// A build-setting reference in place of a value: `$(CURRENT_PROJECT_VERSION)` or
/// `${MARKETING_VERSION}`; nil for a plain value.
func buildSettingReference(in value: String) -> String? {
  // Nearly every value is a plain number: no `$`, no reference.
  guard value.utf8.contains(UInt8(ascii: "$")) else { return nil }
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
