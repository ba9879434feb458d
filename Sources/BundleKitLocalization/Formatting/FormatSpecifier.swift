#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `printf`-style placeholder in a localized string (`%@`, `%2$lld`, `%.1f`, `%#@count@`).
public struct FormatSpecifier: Sendable, Hashable, CustomStringConvertible {
  /// What kind of argument a placeholder consumes.
  public enum Kind: String, Sendable, Hashable {
    /// `%@`: an object.
    case object
    /// `%d %i`: a signed integer.
    case signedInteger
    /// `%u %x %X %o`: an unsigned integer.
    case unsignedInteger
    /// `%f %e %g %a` and upper case: a floating-point number.
    case double
    /// `%c %C`: a single C character.
    case character
    /// `%s %S`: a C string.
    case cString
    /// `%p`: a pointer.
    case pointer
    /// `%#@name@`: a `.stringsdict` variable.
    case variable
  }

  /// The 1-based argument position, explicit (`%2$@`) or by order.
  public var position: Int
  /// Whether the position was written (`%2$@`).
  public var isPositional: Bool
  /// The argument kind.
  public var kind: Kind
  /// The length modifier (`l`, `ll`, `q`, `h`, `z` ...), empty when none.
  public var length: String
  /// The placeholder as written.
  public var text: String
  /// For `%#@name@`, the variable name.
  public var variable: String?
  /// Offset of the `%` in the string's unicode scalars.
  public var offset: Int

  /// Whether two placeholders take the same argument type (`%d` and `%i` do; `%d` and `%ld`
  /// do not, their sizes differ).
  public func isCompatible(with other: FormatSpecifier) -> Bool {
    guard kind == other.kind else {
      // Signed and unsigned integers of one size are passed the same way.
      let integers: Set<Kind> = [.signedInteger, .unsignedInteger]
      return integers.contains(kind) && integers.contains(other.kind)
        && Self.width(length) == Self.width(other.length)
    }
    switch kind {
    case .signedInteger, .unsignedInteger: return Self.width(length) == Self.width(other.length)
    default: return true
    }
  }

  /// 64 for `l`, `ll`, `q`, `z`, `t`, `j` (on 64-bit platforms), 32 otherwise.
  static func width(_ length: String) -> Int {
    ["l", "ll", "q", "z", "t", "j"].contains(length) ? 64 : 32
  }

  /// A short name of the argument type for messages (`Int`, `String`, `Double` ...).
  public var typeName: String {
    switch kind {
    case .object: "an object (%@)"
    case .signedInteger, .unsignedInteger: "a \(Self.width(length))-bit integer"
    case .double: "a floating-point number (\(text))"
    case .character: "a C character (\(text))"
    case .cString: "a C string (\(text))"
    case .pointer: "a pointer (%p)"
    case .variable: "a plural variable (\(text))"
    }
  }

  /// The placeholder as written.
  public var description: String { text }

  /// The highest argument position a placeholder may name (`%9999$@`), far above any real
  /// string's and low enough that checks over every position stay cheap.
  public static let maximumPosition = 9_999

  /// Every placeholder in `string`, with positions assigned as `String(format:)` does:
  /// unnumbered placeholders take the next argument in order. Works on the UTF-8 bytes
  /// (every character of the syntax is ASCII); a string without `%` costs one search.
  public static func parse(_ string: String) -> [FormatSpecifier] {
    var string = string
    return string.withUTF8 { bytes in
      guard let base = bytes.baseAddress,
        memchr(base, Int32(UInt8(ascii: "%")), bytes.count) != nil
      else { return [] }
      return parse(bytes)
    }
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [FormatSpecifier] {
    let count = bytes.count
    var result: [FormatSpecifier] = []
    var nextPosition = 1
    var index = 0
    // Unicode scalars before `index`, counted as far as `scalarsCountedTo`.
    var scalars = 0
    var scalarsCountedTo = 0
    func scalarOffset(of position: Int) -> Int {
      while scalarsCountedTo < position {
        if bytes[scalarsCountedTo] & 0xC0 != 0x80 { scalars += 1 }
        scalarsCountedTo += 1
      }
      return scalars
    }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    func text(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    while index < count {
      guard bytes[index] == UInt8(ascii: "%") else {
        index += 1
        continue
      }
      let start = index
      index += 1
      guard index < count else { break }
      if bytes[index] == UInt8(ascii: "%") {
        index += 1
        continue
      }
      // Optional position: digits followed by `$`. Only 1 to `maximumPosition` make a
      // placeholder (`%0$@` and `%99999999999$@` are text), and the digits cannot overflow.
      var position: Int?
      var lookahead = index
      var digits = 0
      while lookahead < count, isDigit(bytes[lookahead]) {
        digits = min(digits * 10 + Int(bytes[lookahead] - 48), maximumPosition + 1)
        lookahead += 1
      }
      if lookahead < count, lookahead > index, bytes[lookahead] == UInt8(ascii: "$") {
        guard (1...maximumPosition).contains(digits) else {
          index = start + 1
          continue
        }
        position = digits
        index = lookahead + 1
        guard index < count else { break }
      }
      // Flags, width, precision. `#` followed by `@` is not a flag but a variable. A space is
      // the space flag, as in C and Foundation: `% @` and `% d` are placeholders. (So
      // "50% off" holds `% o`, which Foundation reads as one: lint says to write `%%`.)
      func atVariable() -> Bool {
        index + 1 < count && bytes[index] == UInt8(ascii: "#")
          && bytes[index + 1] == UInt8(ascii: "@")
      }
      while index < count, !atVariable(), isFlag(bytes[index]) {
        index += 1
      }
      while index < count, isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "*") {
        index += 1
      }
      if index < count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        while index < count, isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "*") {
          index += 1
        }
      }
      // `%#@name@` (also `%1$#@name@`, `%8$3.2#@name@`).
      if atVariable() {
        var end = index + 2
        while end < count, bytes[end] != UInt8(ascii: "@") { end += 1 }
        guard end < count else { break }
        let resolved = position ?? nextPosition
        if position == nil { nextPosition += 1 }
        result.append(
          FormatSpecifier(
            position: resolved, isPositional: position != nil, kind: .variable, length: "",
            text: text(start..<(end + 1)), variable: text((index + 2)..<end),
            offset: scalarOffset(of: start)))
        index = end + 1
        continue
      }
      // Length modifier.
      let lengthStart = index
      while index < count, isLength(bytes[index]) { index += 1 }
      let length = text(lengthStart..<index)
      guard index < count else { break }
      let kind: Kind
      switch bytes[index] {
      case UInt8(ascii: "@"): kind = .object
      case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "D"): kind = .signedInteger
      case UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"),
        UInt8(ascii: "O"), UInt8(ascii: "U"):
        kind = .unsignedInteger
      case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"),
        UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
        kind = .double
      case UInt8(ascii: "c"), UInt8(ascii: "C"): kind = .character
      case UInt8(ascii: "s"), UInt8(ascii: "S"): kind = .cString
      case UInt8(ascii: "p"): kind = .pointer
      default:
        // Not a placeholder (a lone `%` followed by text, as in "100%-tal").
        index = start + 1
        continue
      }
      // Length modifiers other than `l` and `L` make no sense on floating-point numbers, nor
      // any on objects: such text is prose, not a placeholder.
      if (kind == .double && !(length.isEmpty || length == "l" || length == "L"))
        || (kind == .object && !length.isEmpty)
      {
        index = start + 1
        continue
      }
      index += 1
      let resolved = position ?? nextPosition
      if position == nil { nextPosition += 1 }
      result.append(
        FormatSpecifier(
          position: resolved, isPositional: position != nil, kind: kind, length: length,
          text: text(start..<index), variable: nil, offset: scalarOffset(of: start)))
    }
    return result
  }

  private static func isFlag(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "#"),
      UInt8(ascii: "0"), UInt8(ascii: "'"):
      true
    default: false
    }
  }

  private static func isLength(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "L"),
      UInt8(ascii: "z"), UInt8(ascii: "j"), UInt8(ascii: "t"):
      true
    default: false
    }
  }
}

/// The argument list a format string asks for: one kind per position.
public struct FormatSignature: Sendable, Hashable {
  /// The placeholders by position; a position may be used more than once.
  public var arguments: [Int: [FormatSpecifier]]

  /// The signature of `string`.
  public init(_ string: String) {
    arguments = Dictionary(grouping: FormatSpecifier.parse(string), by: \.position)
  }

  /// The signature of a list of placeholders.
  public init(specifiers: [FormatSpecifier]) {
    arguments = Dictionary(grouping: specifiers, by: \.position)
  }

  /// The highest position used.
  public var count: Int { arguments.keys.max() ?? 0 }

  /// Positions below the highest that no placeholder uses (`%2$@` alone skips argument 1).
  public var gaps: [Int] {
    count == 0 ? [] : (1...count).filter { arguments[$0] == nil }
  }

  /// The gaps as runs of consecutive positions, and what to say of each (one message for
  /// `%9$@` alone, not eight).
  public var gapMessages: [String] {
    var runs: [ClosedRange<Int>] = []
    for gap in gaps {
      if let last = runs.last, last.upperBound + 1 == gap {
        runs[runs.count - 1] = last.lowerBound...gap
      } else {
        runs.append(gap...gap)
      }
    }
    return runs.map { run in
      run.count == 1
        ? "argument \(run.lowerBound) is never used, so the arguments after it cannot be found"
        : "arguments \(run.lowerBound) to \(run.upperBound) are never used, so the arguments after them cannot be found"
    }
  }

  /// Two placeholders that take one argument as different types (`%1$lld` and `%1$@`).
  public struct Conflict: Sendable, Hashable {
    /// The argument's 1-based position.
    public var position: Int
    /// Its first use.
    public var first: FormatSpecifier
    /// The first use that disagrees with it.
    public var other: FormatSpecifier
  }

  /// Positions whose placeholders disagree on the argument type, in position order.
  public var conflicts: [Conflict] {
    var result: [Conflict] = []
    for position in arguments.keys.sorted() {
      guard let uses = arguments[position], let first = uses.first else { continue }
      if let other = uses.dropFirst().first(where: { !$0.isCompatible(with: first) }) {
        result.append(Conflict(position: position, first: first, other: other))
      }
    }
    return result
  }
}
