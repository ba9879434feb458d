import BundleKitFileSystem
import BundleKitPropertyList

/// Applies new values to one file, in the way its format allows: XML plists, `.xcconfig`
/// files, OpenStep plists and Xcode projects in place (only the values' bytes change), binary
/// and JSON plists re-encoded in their own format.
enum FileEditor {
  /// The 1-based line of the value a place names, in the file's bytes.
  static func line(of place: VersionPlace, in bytes: [UInt8]) -> Int? {
    switch place {
    case .xcconfig(_, let setting, let line):
      return line ?? XcconfigFile(path: "", bytes: bytes).assignment(of: setting)?.line
    case .plist(_, let key):
      return XMLValueLocator.line(of: key, in: bytes)
    case .project(let path, let id, let setting):
      guard let tree = try? OpenStepSourceTree.parse(bytes, path: path),
        case .dictionary(let objects)? = tree["objects"],
        let range = objects.last(where: { $0.key == id })?.value["buildSettings"]?[setting]?.range
      else { return nil }
      return XcodeProject.line(of: range.lowerBound, in: bytes)
    case .spec(let path, let keyPath) where path.hasSuffix(".swift"):
      guard let (_, range) = TuistManifest(bytes: bytes).string(at: keyPath) else { return nil }
      return bytes[..<range.lowerBound].filter { $0 == 0x0A }.count + 1
    case .spec(_, let keyPath):
      guard let tree = try? YAMLTree(bytes: bytes),
        case .scalar(_, _, let line, _)? = SpecEditor.node(at: keyPath, in: tree.root)
      else { return nil }
      return line
    }
  }

  /// The new bytes of the file at `path` (now `bytes`) with `edits` made. `document` is
  /// `bytes` as already parsed, when the caller has it.
  static func apply(
    _ edits: [(VersionPlace, String)], to bytes: [UInt8], path: String,
    document parsed: PropertyListDocument? = nil
  )
    throws(VersioningError) -> (bytes: [UInt8], isBinary: Bool)
  {
    if path.hasSuffix(".xcconfig") {
      let file = XcconfigFile(path: path, bytes: bytes)
      var textEdits: [TextEdit] = []
      for (place, value) in edits {
        guard case .xcconfig(_, let setting, let line) = place,
          let assignment = line.flatMap({ line in
            file.assignments.last { $0.setting == setting && $0.line == line }
          }) ?? file.assignment(of: setting)
        else { continue }
        textEdits.append(TextEdit(range: assignment.range, replacement: Array(value.utf8)))
      }
      return (TextEdit.apply(textEdits, to: bytes), false)
    }
    if path.hasSuffix("Project.swift") {
      return (try SpecEditor.applyToManifest(edits, to: bytes, path: path), false)
    }
    if path.hasSuffix(".yml") || path.hasSuffix(".yaml") {
      return (try SpecEditor.apply(edits, to: bytes, path: path), false)
    }
    if path.hasSuffix("project.pbxproj") {
      let project = try OpenStepSourceTree.parse(bytes, path: path)
      var byID: [String: OpenStepSourceTree] = [:]
      if case .dictionary(let objects)? = project["objects"] {
        for entry in objects { byID[entry.key] = entry.value }
      }
      var textEdits: [TextEdit] = []
      for (place, value) in edits {
        guard case .project(_, let id, let setting) = place,
          let edit = byID[id]?["buildSettings"]?[setting]?.replacing(with: value)
        else { continue }
        textEdits.append(edit)
      }
      let result = TextEdit.apply(textEdits, to: bytes)
      _ = try OpenStepSourceTree.parse(result, path: path)  // still a valid project
      return (result, false)
    }
    // An Info.plist.
    let document: PropertyListDocument
    if let parsed {
      document = parsed
    } else {
      do {
        document = try PropertyListDocument(bytes: bytes)
      } catch {
        throw .propertyList(error.inFile(path))
      }
    }
    var expected = document.value
    for (place, value) in edits {
      guard case .plist(_, let key) = place else { continue }
      try? expected.setValue(.string(value), at: PropertyListKeyPath(components: [key]))
    }
    switch document.format {
    case .xml1:
      var result = bytes
      for (place, value) in edits {
        guard case .plist(_, let key) = place else { continue }
        switch XMLValueLocator.locate(key, in: result) {
        case .content(let range)?:
          result = TextEdit.apply(
            [TextEdit(range: range, replacement: Array(XMLEscaping.escape(value).utf8))], to: result
          )
        case .emptyElement(let range)?:
          result = TextEdit.apply(
            [
              TextEdit(
                range: range,
                replacement: Array("<string>".utf8) + Array(XMLEscaping.escape(value).utf8)
                  + Array("</string>".utf8))
            ], to: result)
        default:
          throw .unreadable(
            path: path, line: nil, message: "\(key) is not a string at the top level")
        }
      }
      // The edit must change exactly the values asked for and nothing else.
      guard let check = try? PropertyListDocument(bytes: result), check.value == expected else {
        throw .unreadable(
          path: path, line: nil,
          message: "could not edit the file in place safely; nothing was changed")
      }
      return (result, false)
    case .openstep:
      let tree = try OpenStepSourceTree.parse(bytes, path: path)
      var textEdits: [TextEdit] = []
      for (place, value) in edits {
        guard case .plist(_, let key) = place, let edit = tree[key]?.replacing(with: value) else {
          continue
        }
        textEdits.append(edit)
      }
      let result = TextEdit.apply(textEdits, to: bytes)
      guard let check = try? PropertyListDocument(bytes: result), check.value == expected else {
        throw .unreadable(
          path: path, line: nil,
          message: "could not edit the file in place safely; nothing was changed")
      }
      return (result, false)
    case .binary1, .json:
      do {
        return (try expected.encoded(as: document.format), document.format == .binary1)
      } catch {
        throw .propertyList(error.inFile(path))
      }
    }
  }
}
