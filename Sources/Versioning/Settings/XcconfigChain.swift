import FileSystem
import PropertyListXML

/// An `.xcconfig` file read as Xcode reads it: its assignments in order, each `#include`d
/// file's in the include's place (paths relative to the including file), `#include?` of a
/// missing file skipped. Files are read once per run.
final class XcconfigChains {
  private var files: [String: XcconfigFile] = [:]

  /// Every unconditional assignment of `path` and what it includes, in order.
  func assignments(of path: String) throws(VersioningError) -> [SettingAssignment] {
    var result: [SettingAssignment] = []
    var stack: [String] = []
    try collect(path, into: &result, stack: &stack, includedFrom: nil)
    return result
  }

  /// The files of the chain, in reading order: for locks and messages.
  func file(_ path: String) throws(VersioningError) -> XcconfigFile {
    if let known = files[path] { return known }
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path)
    } catch {
      throw .file(error)
    }
    let file = XcconfigFile(path: path, bytes: bytes)
    files[path] = file
    return file
  }

  private func collect(
    _ path: String, into result: inout [SettingAssignment], stack: inout [String],
    includedFrom: (file: String, line: Int)?
  ) throws(VersioningError) {
    if stack.contains(path) {
      throw .unreadable(
        path: includedFrom?.file ?? path, line: includedFrom?.line,
        message: "#include \(path) includes itself (through \(stack.joined(separator: " -> ")))")
    }
    stack.append(path)
    defer { stack.removeLast() }
    let file = try self.file(path)
    for line in file.lines {
      switch line {
      case .assignment(let assignment):
        guard assignment.condition == nil else { continue }
        result.append(
          SettingAssignment(
            setting: assignment.setting, value: assignment.value, file: path,
            line: assignment.line,
            place: .xcconfig(path: path, setting: assignment.setting, line: assignment.line)))
      case .include(let include):
        let target =
          include.path.hasPrefix("/") ? include.path : Paths.join(Paths.parent(path), include.path)
        if !FileIO.exists(target) {
          if include.isOptional { continue }
          throw .unreadable(
            path: path, line: include.line,
            message:
              "#include \"\(include.path)\": no such file (\(target)); #include? skips a missing file"
          )
        }
        try collect(target, into: &result, stack: &stack, includedFrom: (path, include.line))
      }
    }
  }
}
