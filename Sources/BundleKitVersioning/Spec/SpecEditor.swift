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
    for (place, value) in edits {
      guard case .spec(_, let keyPath) = place,
        case .scalar(_, let range, _, let quoted)? = node(at: keyPath, in: tree.root)
      else { continue }
      let quote: UInt8? = quoted ? bytes[range.lowerBound] : (needsQuotes(value) ? 0x22 : nil)
      let replacement = quote.map { [$0] + Array(value.utf8) + [$0] } ?? Array(value.utf8)
      textEdits.append(TextEdit(range: range, replacement: replacement))
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

  /// The same for a Tuist manifest: each string literal the key path names is replaced.
  static func applyToManifest(_ edits: [(VersionPlace, String)], to bytes: [UInt8], path: String)
    throws(VersioningError) -> [UInt8]
  {
    let manifest = TuistManifest(bytes: bytes)
    var textEdits: [TextEdit] = []
    for (place, value) in edits {
      guard case .spec(_, let keyPath) = place, let (_, range) = manifest.string(at: keyPath)
      else { continue }
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
