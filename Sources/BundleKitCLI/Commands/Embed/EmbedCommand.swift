import ArgumentParser
import BundleKitCodeGeneration
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit embed FILE... -o OUT.swift`: files as Swift constants, for libraries that ship
/// resources without a bundle (the EmbedResources plugin runs it).
struct EmbedCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "embed",
    abstract: "Generate a Swift file that holds files' bytes (Data, [UInt8], UTF-8 String).",
    discussion: """
      Each file becomes a constant holding its bytes in base64 inside one string literal, \
      decoded once on first use: the compiler reads a literal in no time, where an array \
      literal of a million numbers takes minutes to type-check.
      """
  )

  @Argument(help: "Files, or folders whose files to embed (sorted, hidden files skipped).")
  var paths: [String]

  @Option(name: .shortAndLong, help: "The Swift file to write.")
  var output: String

  @Option(help: "The name of the generated enum.")
  var typeName = "EmbeddedResources"

  @Flag(help: "Make the generated declarations public.")
  var `public` = false

  func validate() throws {
    if let problem = Identifier.typeNameProblem(typeName) { throw ValidationError(problem) }
  }

  func run(_ run: ToolRun) throws {
    var files: [(name: String, path: String)] = []
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw ToolError.invalidValue(value: path, kind: "file", reason: "it does not exist")
      }
      if isFolder.boolValue {
        if let bad = DirectoryWalker.firstUndecodableName(under: path) {
          throw FileSystemError.io(path: bad, message: DirectoryWalker.undecodableMessage)
        }
        files += Self.files(under: path, warning: run.diagnostics)
      } else {
        files.append((Paths.lastComponent(path), path))
      }
    }
    files.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    var source = EmbeddedFilesSource(
      files: try files.map { .init(name: $0.name, bytes: try FileIO.read($0.path)) })
    source.typeName = typeName
    source.isPublic = `public`
    try FileIO.writeIfChanged(Array(source.code.utf8), to: output)
  }

  /// The files under `folder`, as every walk of BundleKit finds them: hidden names, build
  /// products and dependencies skipped (`SkippedFolders`), links never followed out of the
  /// folder (one that leads out is left out, with a warning into `diagnostics`).
  static func files(under folder: String, warning diagnostics: DiagnosticsEngine)
    -> [(name: String, path: String)]
  {
    let root = FileIO.realPath(folder) ?? folder
    var files: [(name: String, path: String)] = []
    DirectoryWalker.walk(folder) { entry in
      if SkippedFolders.skips(entry.name) { return .skip }
      guard !entry.isFolder else { return .descend }
      let full = Paths.join(folder, entry.relativePath)
      var info = stat()
      guard lstat(full, &info) == 0 else { return .descend }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        files.append((entry.relativePath, full))
      case S_IFLNK:
        var target = stat()
        if let real = FileIO.realPath(full), real.hasPrefix(root + "/"), stat(real, &target) == 0,
          target.st_mode & S_IFMT == S_IFREG
        {
          files.append((entry.relativePath, full))
        } else {
          diagnostics.emit(
            Diagnostic(
              .warning, path: full,
              "is a link that leads out of \(folder) (or to no file): not embedded"))
        }
      default:
        break
      }
      return .descend
    }
    return files
  }
}
