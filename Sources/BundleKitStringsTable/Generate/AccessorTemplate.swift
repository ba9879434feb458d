import BundleKitDiagnostics
import BundleKitFileSystem

/// A code-generation template and the partials it may include: a shipped one by name, or a
/// `.mustache` file whose folder's other `.mustache` files are its partials.
public struct AccessorTemplate: Sendable, Hashable {
  /// The template's text.
  public var main: String
  /// The partials by name (file name without `.mustache`).
  public var partials: [String: String]

  /// A template from its text and partials.
  public init(main: String, partials: [String: String] = [:]) {
    self.main = main
    self.partials = partials
  }

  /// The template `nameOrPath` names: the path of a `.mustache` file (its partials read from
  /// its folder), or the name of one of `shipped` (file name to text, the tool's own).
  ///
  /// - Throws: ``BundleKitDiagnostics/DiagnosticsError`` naming the file that cannot be read, or the
  ///   template that is not there.
  public static func load(_ nameOrPath: String, shipped: [String: String]) throws(DiagnosticsError)
    -> AccessorTemplate
  {
    let files: [String: String]
    let mainName: String
    let folder: String
    if nameOrPath.hasSuffix(".mustache") {
      folder = Paths.parent(nameOrPath)
      mainName = Paths.removingExtension(Paths.lastComponent(nameOrPath))
      var read: [String: String] = [:]
      for file in (DirectoryWalker.names(in: folder)?.names ?? []) where file.hasSuffix(".mustache")
      {
        let path = Paths.join(folder, file)
        do {
          read[file] = String(decoding: try FileIO.read(path), as: UTF8.self)
        } catch {
          throw DiagnosticsError(Diagnostic.of(error))
        }
      }
      files = read
    } else {
      folder = "the shipped templates"
      mainName = nameOrPath
      files = shipped
    }
    var partials: [String: String] = [:]
    var main: String?
    for (file, text) in files where file.hasSuffix(".mustache") {
      let name = Paths.removingExtension(file)
      if name == mainName { main = text } else { partials[name] = text }
    }
    guard let main else {
      throw DiagnosticsError([
        .error(nameOrPath, "no template: no \(mainName).mustache in \(folder)")
      ])
    }
    return AccessorTemplate(main: main, partials: partials)
  }
}
