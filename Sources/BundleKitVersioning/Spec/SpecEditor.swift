/// Writes new values into a project spec's scalars, in place: only their bytes change, and
/// the spec reads back with exactly the values asked for.
enum SpecEditor {
  /// The node at `keyPath` from the top.
  static func node(at keyPath: [String], in root: YAMLTree.Node) -> YAMLTree.Node? {
    var node: YAMLTree.Node? = root
    for key in keyPath { node = node?[key] }
    return node
  }

  static func apply(_ edits: [(VersionPlace, String)], to bytes: [UInt8], path: String)
    throws(VersioningError) -> [UInt8]
  {
    let tree: YAMLTree
    do {
      tree = try YAMLTree(bytes: bytes)
    } catch {
      throw .unreadable(path: path, line: error.line, message: error.message)
    }
    var textEdits: [TextEdit] = []
    // Values XcodeGen generates (no key yet): added to the mapping above them, the keys of
    // one mapping together.
    var additions: [[String]: [(key: String, value: String)]] = [:]
    var order: [[String]] = []
    for (place, value) in edits {
      guard case .spec(_, let keyPath) = place else { continue }
      guard case .scalar(_, let range, _, let quoted)? = node(at: keyPath, in: tree.root) else {
        guard let key = keyPath.last else { continue }
        let parent = Array(keyPath.dropLast())
        if additions[parent] == nil { order.append(parent) }
        additions[parent, default: []].append((key, value))
        continue
      }
      let quote: UInt8? = quoted ? bytes[range.lowerBound] : (needsQuotes(value) ? 0x22 : nil)
      let replacement = quote.map { [$0] + Array(value.utf8) + [$0] } ?? Array(value.utf8)
      textEdits.append(TextEdit(range: range, replacement: replacement))
    }
    for parent in order {
      if let insertion = insertion(
        of: additions[parent] ?? [], under: parent, in: tree, bytes: bytes)
      {
        textEdits.append(insertion)
      }
    }
    let result = TextEdit.apply(textEdits, to: bytes)
    // The spec must read back with the new values where they were asked for.
    guard let check = try? YAMLTree(bytes: result),
      edits.allSatisfy({ place, value in
        guard case .spec(_, let keyPath) = place else { return true }
        return node(at: keyPath, in: check.root)?.text == value
      })
    else {
      throw .unreadable(
        path: path, line: nil,
        message: "could not edit the spec in place safely; nothing was changed")
    }
    return result
  }

  /// `KEY: "VALUE"` lines added under `parent` (`targets.App.info.properties`), as new
  /// lines of the block mapping at its indentation; with `properties:` too when the `info:`
  /// mapping has none. Nil when the mapping is not written in block style, a key to a line
  /// (a flow mapping `{ ... }`), so nothing is guessed.
  static func insertion(
    of values: [(key: String, value: String)], under parent: [String], in tree: YAMLTree,
    bytes: [UInt8]
  ) -> TextEdit? {
    var mappingPath = parent
    var missing: [String] = []
    // At most one missing level: `properties` under `info`.
    if node(at: mappingPath, in: tree.root) == nil {
      guard let name = mappingPath.last else { return nil }
      missing = [name]
      mappingPath.removeLast()
    }
    guard !values.isEmpty, case .mapping(let entries)? = node(at: mappingPath, in: tree.root)
    else { return nil }
    let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
    // An entry whose first scalar is on the line that starts with its key gives the line to
    // insert before and the indentation (`key: value`, `key: [a, b]`).
    for (entryKey, entryValue) in entries {
      guard let line = firstLine(of: entryValue), line >= 1, line <= lineStarts.count
      else { continue }
      let start = lineStarts[line - 1]
      var indent = start
      while indent < bytes.count, bytes[indent] == 0x20 { indent += 1 }
      let prefix = Array((entryKey + ":").utf8)
      guard bytes.count >= indent + prefix.count,
        Array(bytes[indent..<(indent + prefix.count)]) == prefix
      else { continue }
      let spaces = String(repeating: " ", count: indent - start)
      var text = missing.map { "\(spaces)\($0):\n" }.joined()
      let inner = spaces + String(repeating: " ", count: 2 * missing.count)
      for (key, value) in values { text += "\(inner)\(key): \"\(value)\"\n" }
      return TextEdit(range: start..<start, replacement: Array(text.utf8))
    }
    return nil
  }

  /// The line of a node's first scalar.
  private static func firstLine(of node: YAMLTree.Node) -> Int? {
    switch node {
    case .scalar(_, _, let line, _): line
    case .mapping(let entries): entries.lazy.compactMap { firstLine(of: $0.value) }.first
    case .sequence(let items): items.lazy.compactMap { firstLine(of: $0) }.first
    }
  }

  /// The same for a Tuist manifest: each string literal the key path names is replaced.
  static func applyToManifest(_ edits: [(VersionPlace, String)], to bytes: [UInt8], path: String)
    throws(VersioningError) -> [UInt8]
  {
    let manifest = TuistManifest(bytes: bytes)
    var textEdits: [TextEdit] = []
    // Places that read one literal (a `let` several targets name) take one value.
    var valueAt: [Range<Int>: (keyPath: [String], value: String)] = [:]
    for (place, value) in edits {
      guard case .spec(_, let keyPath) = place, let (_, range) = manifest.string(at: keyPath)
      else { continue }
      if let earlier = valueAt[range] {
        guard earlier.value == value else {
          let line = bytes[..<range.lowerBound].filter { $0 == 0x0A }.count + 1
          throw .refused(
            path: path,
            reason:
              "\(earlier.keyPath.joined(separator: ".")) and \(keyPath.joined(separator: ".")) are "
              + "one literal (line \(line)), which cannot be both \(earlier.value) and \(value)")
        }
        continue
      }
      valueAt[range] = (keyPath, value)
      textEdits.append(TextEdit(range: range, replacement: Array("\"\(value)\"".utf8)))
    }
    let result = TextEdit.apply(textEdits, to: bytes)
    let check = TuistManifest(bytes: result)
    guard
      edits.allSatisfy({ place, value in
        guard case .spec(_, let keyPath) = place else { return true }
        return check.string(at: keyPath)?.0 == value
      })
    else {
      throw .unreadable(
        path: path, line: nil,
        message: "could not edit the manifest in place safely; nothing was changed")
    }
    return result
  }

  /// Whether a plain scalar would be read as a number that loses the text: `1.10` is the
  /// float 1.1 to YAML (and so to XcodeGen), `2.0` is 2.
  static func needsQuotes(_ value: String) -> Bool {
    value.filter { $0 == "." }.count == 1
  }
}
