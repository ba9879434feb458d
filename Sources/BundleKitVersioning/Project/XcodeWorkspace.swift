import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// An `.xcworkspace`: the projects its `contents.xcworkspacedata` lists, groups followed.
enum XcodeWorkspace {
  /// The `.xcodeproj` paths a workspace holds, in its order. Locations are read as Xcode
  /// reads them: `group:` relative to the enclosing groups (from the workspace's folder),
  /// `container:` from the workspace's folder, `absolute:` as they are, `self:` the
  /// workspace's own project (inside an `.xcodeproj`).
  public static func projects(in workspace: String) throws(VersioningError) -> [String] {
    let file = Paths.join(workspace, "contents.xcworkspacedata")
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(file)
    } catch {
      throw .file(error)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let base = Paths.parent(workspace)
    var groups: [String] = []
    var projects: [String] = []
    // The format is a small XML vocabulary: <Group location=...> ... </Group> and
    // <FileRef location=.../>. Elements are read in order with their attributes.
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "<") {
      rest = rest[rest.index(after: open)...]
      guard let close = rest.firstIndex(of: ">") else { break }
      let tag = rest[..<close]
      rest = rest[rest.index(after: close)...]
      if tag.hasPrefix("/Group") {
        if !groups.isEmpty { groups.removeLast() }
        continue
      }
      let isGroup = tag.hasPrefix("Group")
      guard isGroup || tag.hasPrefix("FileRef") else { continue }
      let location = attribute("location", in: tag).map(XMLText.unescape) ?? ""
      let folder = groups.last ?? base
      let resolved = resolve(location, folder: folder, workspaceFolder: base, workspace: workspace)
      if isGroup {
        guard groups.count < 256 else {
          throw .unreadable(
            path: file, line: text[..<open].reduce(1) { $1 == "\n" ? $0 + 1 : $0 },
            message: "groups nest more than 256 deep")
        }
        if !tag.hasSuffix("/") { groups.append(resolved ?? folder) }
      } else if let resolved, resolved.hasSuffix(".xcodeproj") {
        projects.append(InfoPlistDiscovery.normalized(resolved))
      }
    }
    return projects
  }

  private static func resolve(
    _ location: String, folder: String, workspaceFolder: String, workspace: String
  ) -> String? {
    guard let colon = location.firstIndex(of: ":") else { return nil }
    let kind = location[..<colon]
    let path = String(location[location.index(after: colon)...])
    switch kind {
    case "group": return path.isEmpty ? folder : Paths.join(folder, path)
    case "container": return path.isEmpty ? workspaceFolder : Paths.join(workspaceFolder, path)
    case "absolute": return path
    case "self": return Paths.parent(workspace)
    default: return nil
    }
  }

  private static func attribute(_ name: String, in tag: Substring) -> String? {
    guard let start = tag.range(of: name + " = \"") ?? tag.range(of: name + "=\"") else {
      return nil
    }
    let rest = tag[start.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
  }
}

/// XML's five entities, for attribute values.
enum XMLText {
  static func unescape(_ text: String) -> String {
    guard text.contains("&") else { return text }
    return text.replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
  }
}
