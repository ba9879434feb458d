import BundleKitFileSystem
import BundleKitPropertyList

/// An `.xcconfig` file read as Xcode reads it: its assignments in order, each `#include`d
/// file's in the include's place (paths relative to the including file), `#include?` of a
/// missing file skipped. Files are read once per run, and only from the trees of `scope`;
/// each must be an `.xcconfig` by its contents (``XcconfigFile/contentProblem``).
final class XcconfigChains {
  /// The trees settings may be read from.
  let scope: SettingsScope
  /// Base configuration files a project names that do not exist (Xcode warns and builds
  /// without them).
  var missingBaseFiles: Set<String> = []

  /// Chains read from the trees of `scope` only.
  init(scope: SettingsScope) {
    self.scope = scope
  }

  private var files: [String: XcconfigFile] = [:]
  /// Each file's assignments with its includes in place, worked out once: a file included
  /// twice by each of forty files in a row is read and flattened once, not 2^40 times.
  private var flattened: [String: [SettingAssignment]] = [:]

  /// The most assignments one chain may expand to, includes repeated included.
  static let maximumAssignments = 100_000

  /// Every unconditional assignment of `path` and what it includes, in order. An
  /// `#include` is looked up beside the including file, then (as swift-build does) in the
  /// project's `sourceRoot` when one is given.
  func assignments(of path: String, sourceRoot: String? = nil) throws(VersioningError)
    -> [SettingAssignment]
  {
    var stack: [String] = []
    return try flatten(path, sourceRoot: sourceRoot, stack: &stack, includedFrom: nil)
  }

  private func flatten(
    _ path: String, sourceRoot: String?, stack: inout [String],
    includedFrom: (file: String, line: Int)?
  ) throws(VersioningError) -> [SettingAssignment] {
    let key = (sourceRoot ?? "") + "\u{0}" + path
    if let known = flattened[key] { return known }
    var result: [SettingAssignment] = []
    try collect(
      path, sourceRoot: sourceRoot, into: &result, stack: &stack, includedFrom: includedFrom)
    flattened[key] = result
    return result
  }

  /// The files of the chain, in reading order: for locks and messages.
  func file(_ path: String) throws(VersioningError) -> XcconfigFile {
    if let known = files[path] { return known }
    // CocoaPods writes its xcconfigs at `pod install`: before it they do not exist (Xcode
    // would not build either), and they never set a version. Read as empty, not an error.
    if path.contains("Pods/Target Support Files/"), !FileIO.exists(path) {
      let empty = XcconfigFile(path: path, bytes: [])
      files[path] = empty
      return empty
    }
    try scope.check(path, as: "the .xcconfig")
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path)
    } catch {
      throw .file(error)
    }
    if let (line, problem) = XcconfigFile.contentProblem(bytes) {
      throw .unreadable(path: path, line: line, message: problem)
    }
    let file = XcconfigFile(path: path, bytes: bytes)
    files[path] = file
    return file
  }

  private func collect(
    _ path: String, sourceRoot: String?, into result: inout [SettingAssignment],
    stack: inout [String], includedFrom: (file: String, line: Int)?
  ) throws(VersioningError) {
    if stack.contains(path) {
      throw .unreadable(
        path: includedFrom?.file ?? path, line: includedFrom?.line,
        message:
          "#include \(path) includes itself (through \(stack.suffix(8).joined(separator: " -> ")))")
    }
    guard stack.count < 64 else {
      throw .unreadable(
        path: includedFrom?.file ?? path, line: includedFrom?.line,
        message: "#include chains nest more than 64 files deep")
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
        // `App/../Shared/Versions.xcconfig` is `Shared/Versions.xcconfig`: one file, one
        // name, so a bump edits it once and its diff names it as git does.
        var target = Paths.collapsed(
          include.path.hasPrefix("/") ? include.path : Paths.join(Paths.parent(path), include.path))
        if !FileIO.exists(target), !include.path.hasPrefix("/"), let sourceRoot {
          // Not beside the including file: the project's folder, as swift-build looks.
          let fromRoot = Paths.collapsed(Paths.join(sourceRoot, include.path))
          if FileIO.exists(fromRoot) { target = fromRoot }
        }
        if !FileIO.exists(target) {
          if include.isOptional || target.contains("Pods/Target Support Files/") { continue }
          throw .unreadable(
            path: path, line: include.line,
            message:
              "#include \"\(include.path)\": no such file (\(target)); #include? skips a missing file"
          )
        }
        // Never outside the trees: a settings file of the user's, or of the system, is no
        // part of this checkout.
        try scope.check(target, as: "#include", from: (path, include.line))
        let included: [SettingAssignment]
        do {
          included = try flatten(
            target, sourceRoot: sourceRoot, stack: &stack, includedFrom: (path, include.line))
        } catch .file(let error) {
          // Named at the #include: the file may be anywhere (/dev/zero, a FIFO).
          throw .unreadable(
            path: path, line: include.line,
            message: "#include \"\(include.path)\": \(error.message)")
        }
        guard result.count + included.count <= Self.maximumAssignments else {
          throw .unreadable(
            path: path, line: include.line,
            message:
              "#include \"\(include.path)\": the chain expands to more than \(Self.maximumAssignments) assignments (files included over and over)"
          )
        }
        result += included
      }
    }
  }
}
