import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation

/// Assembles `<Name>.bundle` folders from a folder of resources: strings tables compiled,
/// other files copied, an Info.plist rendered from a template.
public struct ResourceBundleBuilder: Sendable {
  /// The bundle's name (`CFBundleName`).
  public var name: String
  /// `CFBundleIdentifier`.
  public var identifier: String
  /// `CFBundleShortVersionString`.
  public var version = "1.0"
  /// `CFBundleVersion`.
  public var build = "1"
  /// `CFBundleDevelopmentRegion`.
  public var developmentLanguage = "en"
  /// Extra `$(VAR)` values for the template, over the environment.
  public var variables: [String: String] = [:]
  /// Whether an output that is not an earlier bundle of this identifier (a folder of other
  /// files, a regular file) may be replaced.
  public var force = false

  /// A builder for a bundle called `name`.
  public init(name: String, identifier: String? = nil) {
    self.name = name
    self.identifier = identifier ?? "local.bundlekit.\(name)"
  }

  /// Why a bundle could not be built.
  public enum BuildError: DiagnosticConvertible, Sendable {
    /// The template names variables nothing defines.
    case undefinedVariables(template: String, names: [String])
    /// The rendered template is not a valid property list.
    case invalidTemplate(template: String, message: String)
    /// A file could not be copied or written.
    case file(path: String, message: String)
    /// An output that holds something other than an earlier bundle, replaced only when the
    /// caller asks (``ResourceBundleBuilder/force``).
    case replace(path: String, message: String)
    /// A strings table has errors.
    case strings(DiagnosticsError)

    /// The errors, each naming the template or file.
    public var diagnostics: [Diagnostic] {
      switch self {
      case .undefinedVariables(let template, let names):
        [
          Diagnostic(
            .error, path: template,
            "no value for \(names.map { "$(\($0))" }.joined(separator: ", ")); give one, or set it in the environment",
            rule: .refusal("template-variable"))
        ]
      case .invalidTemplate(let template, let message):
        [.error(template, "the rendered Info.plist is not valid: \(message)")]
      case .file(let path, let message): [.error(path, message)]
      case .replace(let path, let message):
        [Diagnostic(.error, path: path, message, rule: .refusal("replace-output"))]
      case .strings(let error): error.diagnostics
      }
    }
  }

  /// The template's text with `$(VAR)` and `${VAR}` filled: the builder's values first, then
  /// `variables`, then the environment. Values are escaped for XML.
  public func render(
    _ template: String, path: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(BuildError) -> String {
    let builtIn = [
      "PRODUCT_NAME": name, "PRODUCT_BUNDLE_IDENTIFIER": identifier, "MARKETING_VERSION": version,
      "CURRENT_PROJECT_VERSION": build, "DEVELOPMENT_LANGUAGE": developmentLanguage,
      "EXECUTABLE_NAME": name,
    ]
    var missing: [String] = []
    var output = ""
    var rest = template[...]
    while let dollar = rest.firstIndex(of: "$") {
      output += rest[..<dollar]
      let after = rest.index(after: dollar)
      guard after < rest.endIndex, rest[after] == "(" || rest[after] == "{",
        let close = rest[after...].firstIndex(of: rest[after] == "(" ? ")" : "}")
      else {
        output.append("$")
        rest = rest[after...]
        continue
      }
      let variable = String(rest[rest.index(after: after)..<close])
      // `$(NAME:rfc1034identifier)` and other modifiers: the name before the colon.
      let base = String(variable.split(separator: ":").first ?? "")
      if let value = variables[base] ?? builtIn[base] ?? environment[base] {
        output += XMLEscaping.escape(value)
      } else {
        missing.append(base)
      }
      rest = rest[rest.index(after: close)...]
    }
    output += rest
    if !missing.isEmpty {
      throw .undefinedVariables(template: path, names: Array(Set(missing)).sorted())
    }
    return output
  }

  /// Refuses an output that is not the place for this bundle: a device, FIFO, socket or
  /// link; the source itself, a folder holding it or one inside it; and, without ``force``, a
  /// regular file or a folder that is not empty and not an earlier bundle of ``identifier``.
  func checkReplaceable(_ output: String, source: String) throws(BuildError) {
    var info = stat()
    guard lstat(output, &info) == 0 else { return }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      break
    case S_IFREG:
      if force { return }
      throw .replace(
        path: output,
        message:
          "is a file, not an earlier bundle, and is replaced only when asked to; nothing was changed"
      )
    default:
      throw .file(
        path: output,
        message:
          "is a link, device, FIFO or socket, which bundle create never replaces; nothing was changed"
      )
    }
    if let real = FileIO.realPath(output), let from = FileIO.realPath(source),
      real == from || from.hasPrefix(real + "/") || real.hasPrefix(from + "/")
    {
      throw .file(
        path: output,
        message:
          "is the source folder \(source), holds it or is inside it: choose another output; nothing was changed"
      )
    }
    if force { return }
    let names = (DirectoryWalker.names(in: output)?.names ?? []).filter { $0 != ".DS_Store" }
    if names.isEmpty { return }
    let plist = Paths.join(output, "Info.plist")
    if let document = try? PropertyListDocument(contentsOfFile: plist),
      document.value["CFBundleIdentifier"]?.stringValue == identifier
    {
      return
    }
    throw .replace(
      path: output,
      message:
        "holds files and is not an earlier bundle of \(identifier) (no Info.plist with that CFBundleIdentifier), and is replaced only when asked to; nothing was changed"
    )
  }

  /// Builds `output` (a `.bundle` folder) from the files in `source`, replacing it atomically
  /// when it exists. Returns the files written.
  @discardableResult
  public func build(from source: String, to output: String, template: String, templatePath: String)
    throws(BuildError) -> [String]
  {
    let rendered = try render(template, path: templatePath)
    let info: PropertyListValue
    do {
      info = try PropertyListValue(bytes: Array(rendered.utf8))
    } catch {
      throw .invalidTemplate(template: templatePath, message: error.message)
    }
    if let path = DirectoryWalker.firstUndecodableName(under: source) {
      throw .file(path: path, message: DirectoryWalker.undecodableMessage)
    }
    try checkReplaceable(output, source: source)
    let manager = FileManager.default
    // Built in a locked scratch folder beside the output, then swapped into place in one
    // atomic step: a failed or killed run leaves the old bundle (or none) as it was, and the
    // scratch folder is removed by the next run that meets it.
    let staging: ScratchFolder
    do {
      try FileIO.createFolders(for: output)
      staging = try ScratchFolder(beside: output)
    } catch {
      throw .file(path: output, message: error.message)
    }
    staging.setMode(0o777 & ~FileIO.processUmask)
    do {
      for name in try manager.contentsOfDirectory(atPath: source).sorted()
      where name != ".DS_Store" && name != ".git" {
        try manager.copyItem(
          atPath: Paths.join(source, name), toPath: Paths.join(staging.path, name))
      }
    } catch {
      throw Self.copyFailure(error, source: source, staging: staging.path, output: output)
    }
    do {
      _ = try StringsCompiler(developmentLanguage: developmentLanguage).compileInPlace(
        staging.path)
    } catch {
      throw .strings(error)
    }
    let infoBytes: [UInt8]
    do {
      infoBytes = try info.encoded(as: .xml1)
    } catch {
      throw .invalidTemplate(template: templatePath, message: error.message)
    }
    do {
      try FileIO.writeAtomically(infoBytes, to: Paths.join(staging.path, "Info.plist"))
      try staging.flush()
      try FileIO.replaceFolder(output, with: staging.path)
    } catch {
      throw .file(path: error.path, message: error.message)
    }
    // The old bundle now has the scratch name: it goes with the scratch folder.
    staging.remove()
    let walker = manager.enumerator(atPath: output)
    var files: [String] = []
    while let relative = walker?.nextObject() as? String { files.append(relative) }
    return files.sorted()
  }

  /// Whom a failed copy blames: the output when the disk there is full or read-only (or the
  /// file named is being written), the source file otherwise, with the system's reason.
  static func copyFailure(_ error: any Error, source: String, staging: String, output: String)
    -> BuildError
  {
    let failure = error as NSError
    let underlying = failure.userInfo[NSUnderlyingErrorKey] as? NSError
    let code = underlying?.domain == NSPOSIXErrorDomain ? Int32(underlying?.code ?? 0) : 0
    let full = [ENOSPC, EDQUOT, EROFS].contains(code) || failure.code == NSFileWriteOutOfSpaceError
    var reason = failure.localizedDescription
    if code != 0 || full { reason = String(cString: strerror(code != 0 ? code : ENOSPC)) }
    if reason.hasSuffix(".") { reason.removeLast() }
    let named = failure.userInfo[NSFilePathErrorKey] as? String ?? ""
    if full || named.hasPrefix(staging + "/") || named == staging {
      return .file(path: output, message: "cannot write the bundle: \(reason); nothing was changed")
    }
    return .file(
      path: named.isEmpty ? source : named, message: "cannot copy: \(reason); nothing was changed")
  }
}
