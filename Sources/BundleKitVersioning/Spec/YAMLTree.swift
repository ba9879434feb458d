import BundleKitFileSystem
import Yams

/// A project spec's YAML (XcodeGen's `project.yml`) as XcodeGen reads it, with Yams
/// (libyaml): anchors and aliases resolved, merge keys (`<<: *base`) merged, flow
/// collections over several lines, quoted and block scalars. Every scalar keeps the place
/// of its text in the file, so a bump changes exactly its bytes (a value reached through an
/// alias is edited where its anchor defines it, which is what every alias of it reads).
///
/// A spec is input from strangers: its size, how deep it nests and how many nodes its
/// aliases expand to are bounded, so a YAML bomb is an error at its line, not a memory
/// blow-up or a stack overflow.
struct YAMLTree: Sendable {
  /// A node: a scalar with its place, a mapping in file order, or a sequence.
  indirect enum Node: Sendable {
    /// A scalar: its text (quotes removed), the byte range its text takes in the file
    /// (quotes included), its line, and whether it was quoted.
    case scalar(String, range: Range<Int>, line: Int, quoted: Bool)
    /// A mapping, keys in file order (merged keys first, as XcodeGen's reader has them).
    case mapping([(key: String, value: Node)])
    /// A sequence.
    case sequence([Node])

    /// The value of `key` in a mapping (the last, as YAML readers keep).
    subscript(key: String) -> Node? {
      guard case .mapping(let entries) = self else { return nil }
      return entries.last { $0.key == key }?.value
    }

    /// A scalar's text.
    var text: String? {
      guard case .scalar(let text, _, _, _) = self else { return nil }
      return text
    }

    /// A mapping's entries, or none.
    var entries: [(key: String, value: Node)] {
      guard case .mapping(let entries) = self else { return [] }
      return entries
    }

    /// A sequence's items, or none.
    var items: [Node] {
      guard case .sequence(let items) = self else { return [] }
      return items
    }

    /// The line a node starts on: a scalar's, or its first child's.
    var line: Int? {
      switch self {
      case .scalar(_, _, let line, _): line
      case .mapping(let entries): entries.first?.value.line
      case .sequence(let items): items.first?.line
      }
    }
  }

  /// Why a spec could not be read, at its line.
  struct Malformed: Error, Sendable {
    var line: Int
    var message: String
  }

  /// The document.
  var root: Node

  /// How deep collections may nest (Yams composes recursively).
  static let maximumDepth = 64
  /// The largest spec read (specs are a few kilobytes).
  static let maximumSize = 4 << 20
  /// The most nodes the document may expand to, aliases followed: a billion laughs made of
  /// aliases is refused here (a spec of the largest size has fewer nodes than this).
  static let maximumNodes = 1_000_000

  private let bytes: [UInt8]
  /// Each line's first byte offset.
  private let lineStarts: [Int]

  /// Reads `bytes` (UTF-8).
  init(bytes: [UInt8]) throws(Malformed) {
    guard bytes.count <= Self.maximumSize else {
      throw Malformed(line: 1, message: "is larger than \(Self.maximumSize >> 20) MiB")
    }
    if let line = Self.firstTooDeep(bytes, limit: Self.maximumDepth) {
      throw Malformed(line: line, message: "nests deeper than \(Self.maximumDepth) levels")
    }
    guard let text = UTF8Text.validated(bytes) else {
      let line = Self.firstInvalidLine(bytes)
      throw Malformed(line: line, message: "is not UTF-8 text")
    }
    self.bytes = bytes
    var starts = [0]
    for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
    lineStarts = starts
    let composed: Yams.Node?
    do {
      composed = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw Self.malformed(error)
    } catch {
      throw Malformed(line: 1, message: "\(error)")
    }
    root = .mapping([])
    guard let composed else { return }
    var budget = Self.maximumNodes
    root = try convert(composed, depth: 0, budget: &budget)
  }

  /// A Yams error as a message at its line.
  private static func malformed(_ error: YamlError) -> Malformed {
    switch error {
    case .scanner(let context, let problem, let mark, _),
      .parser(let context, let problem, let mark, _):
      let prefix = context.map { "\($0.text) " } ?? ""
      return Malformed(line: mark.line, message: prefix + problem)
    case .composer(let context, let problem, let mark, _):
      let prefix = context.map { "\($0.text) " } ?? ""
      return Malformed(line: mark.line, message: prefix + problem)
    case .duplicatedKeysInMapping(let duplicates, let context):
      return Malformed(
        line: context.mark.line,
        message:
          "a mapping has the key \(duplicates.joined(separator: ", ")) twice, which XcodeGen refuses"
      )
    default:
      return Malformed(line: 1, message: "\(error)")
    }
  }

  /// Yams' node as ours, with places; `budget` counts down the nodes made.
  private func convert(_ node: Yams.Node, depth: Int, budget: inout Int) throws(Malformed)
    -> Node
  {
    budget -= 1
    guard budget >= 0 else {
      throw Malformed(
        line: node.mark?.line ?? 1,
        message: "expands to more than \(Self.maximumNodes) nodes (aliases of aliases)")
    }
    guard depth <= Self.maximumDepth else {
      throw Malformed(
        line: node.mark?.line ?? 1, message: "nests deeper than \(Self.maximumDepth) levels")
    }
    switch node {
    case .scalar(let scalar):
      let line = scalar.mark?.line ?? 1
      let range = scalar.mark.map { place(of: $0, style: scalar.style) } ?? 0..<0
      return .scalar(scalar.string, range: range, line: line, quoted: scalar.style != .plain)
    case .alias:
      // Composed documents hold the anchored node itself, never an alias.
      return .scalar("", range: 0..<0, line: node.mark?.line ?? 1, quoted: false)
    case .sequence(let sequence):
      var items: [Node] = []
      for item in sequence {
        items.append(try convert(item, depth: depth + 1, budget: &budget))
      }
      return .sequence(items)
    case .mapping(let mapping):
      var entries: [(key: String, value: Node)] = []
      var merged: [(key: String, value: Node)] = []
      for (key, value) in mapping {
        if key.tag.rawValue == Tag.Name.merge.rawValue {
          // `<<: *base` or `<<: [*a, *b]`: the mappings' entries under this one's, the
          // first of several winning, as YAML's merge key says.
          let sources: [Yams.Node]
          switch value {
          case .mapping: sources = [value]
          case .sequence(let list): sources = Array(list)
          default:
            throw Malformed(
              line: key.mark?.line ?? 1, message: "a merge key (<<) must name a mapping")
          }
          var seen = Set(merged.map(\.key))
          for source in sources {
            guard case .mapping = source else {
              throw Malformed(
                line: source.mark?.line ?? 1, message: "a merge key (<<) must name mappings")
            }
            let converted = try convert(source, depth: depth + 1, budget: &budget)
            for entry in converted.entries where seen.insert(entry.key).inserted {
              merged.append(entry)
            }
          }
          continue
        }
        guard let name = key.scalar?.string else { continue }
        entries.append((name, try convert(value, depth: depth + 1, budget: &budget)))
      }
      let own = Set(entries.map(\.key))
      return .mapping(merged.filter { !own.contains($0.key) } + entries)
    }
  }

  /// The byte range of a scalar's text (quotes included) that starts at `mark`: node
  /// properties (`&anchor`, `!tag`) skipped, then a quoted scalar to its closing quote, or a
  /// plain one to the end of its line, a comment, or (in flow) `,`, `]` or `}`.
  private func place(of mark: Mark, style: Yams.Node.Scalar.Style) -> Range<Int> {
    guard mark.line >= 1, mark.line <= lineStarts.count else { return 0..<0 }
    let lineEnd = mark.line < lineStarts.count ? lineStarts[mark.line] - 1 : bytes.count
    var offset = lineStarts[mark.line - 1]
    // libyaml counts columns in scalars, from 1.
    var column = 1
    while column < mark.column, offset < lineEnd {
      offset += 1
      while offset < lineEnd, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      column += 1
    }
    // Properties before the text.
    while offset < lineEnd, bytes[offset] == UInt8(ascii: "&") || bytes[offset] == UInt8(ascii: "!")
    {
      while offset < lineEnd, bytes[offset] != 0x20, bytes[offset] != 0x09 { offset += 1 }
      while offset < lineEnd, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 }
    }
    let start = offset
    switch style {
    case .singleQuoted:
      offset += 1
      while offset < lineEnd {
        if bytes[offset] == UInt8(ascii: "'") {
          if offset + 1 < lineEnd, bytes[offset + 1] == UInt8(ascii: "'") {
            offset += 2
            continue
          }
          return start..<(offset + 1)
        }
        offset += 1
      }
      return start..<lineEnd
    case .doubleQuoted:
      offset += 1
      while offset < lineEnd {
        if bytes[offset] == UInt8(ascii: "\\") {
          offset += 2
          continue
        }
        if bytes[offset] == UInt8(ascii: "\"") { return start..<(offset + 1) }
        offset += 1
      }
      return start..<lineEnd
    default:
      var end = offset
      while end < lineEnd {
        let byte = bytes[end]
        if byte == UInt8(ascii: "#"), end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09
        {
          break
        }
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
          break
        }
        end += 1
      }
      while end > start, [0x20, 0x09, 0x0D].contains(bytes[end - 1]) { end -= 1 }
      return start..<end
    }
  }

  /// The first line at which collections nest deeper than `limit`, counting flow brackets
  /// and block indentation, outside quotes and comments; nil when none does. A cheap bound
  /// before Yams, whose composer recurses.
  static func firstTooDeep(_ bytes: [UInt8], limit: Int) -> Int? {
    var line = 1
    var flow = 0
    var indents: [Int] = []
    var index = 0
    var atLineStart = true
    var quote: UInt8?
    while index < bytes.count {
      let byte = bytes[index]
      if atLineStart {
        atLineStart = false
        var indent = 0
        while index + indent < bytes.count, bytes[index + indent] == 0x20 { indent += 1 }
        let first = index + indent < bytes.count ? bytes[index + indent] : 0x0A
        if flow == 0, quote == nil, first != 0x0A, first != 0x0D, first != UInt8(ascii: "#") {
          while let last = indents.last, last > indent { indents.removeLast() }
          if indents.last != indent { indents.append(indent) }
          // `- - - x` and `- key:` nest once more per dash.
          var cursor = index + indent
          while cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "-"),
            bytes[cursor + 1] == 0x20
          {
            indents.append(cursor - index + 1)
            cursor += 2
            while cursor < bytes.count, bytes[cursor] == 0x20 { cursor += 1 }
          }
          if indents.count > limit { return line }
        }
        continue
      }
      if let open = quote {
        if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\"") {
          index += 2
          continue
        }
        if byte == open { quote = nil }
        if byte == 0x0A {
          line += 1
          atLineStart = true
        }
        index += 1
        continue
      }
      switch byte {
      case 0x0A:
        line += 1
        atLineStart = true
      case UInt8(ascii: "#")
      where index == 0 || bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09:
        while index + 1 < bytes.count, bytes[index + 1] != 0x0A { index += 1 }
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        // A quote starts a scalar only where a token can start; an apostrophe inside a
        // plain word (`don't`) does not.
        let before = index > 0 ? bytes[index - 1] : 0x20
        if [
          0x20, 0x09, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"),
          UInt8(ascii: "-"),
        ].contains(before) {
          quote = byte
        }
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        flow += 1
        if flow + indents.count > limit { return line }
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        flow = max(0, flow - 1)
      default:
        break
      }
      index += 1
    }
    return nil
  }

  /// The line of the first byte that is not UTF-8.
  private static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
    var line = 1
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == 0x0A {
      if UTF8Text.validated(bytes[start..<offset]) == nil { return line }
      line += 1
      start = offset + 1
    }
    return line
  }
}
