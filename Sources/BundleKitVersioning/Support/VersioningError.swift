import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList

/// Why a version command could not run; nothing was written.
public enum VersioningError: DiagnosticConvertible, Sendable, Equatable {
  /// A path given does not exist.
  case notFound(path: String)
  /// A file could not be read or parsed.
  case unreadable(path: String, line: Int?, message: String)
  /// A value that is not a valid version.
  case invalidVersion(path: String, key: String, value: String)
  /// A build-setting reference defined nowhere it could be edited.
  case unresolvedReference(path: String, key: String, setting: String)
  /// A property list that could not be read, parsed or written (the error names the file
  /// and, for malformed text, the line and column).
  case propertyList(PropertyListError)
  /// A file that could not be read.
  case file(FileSystemError)
  /// A batch whose writing failed; no file was replaced.
  case notWritten(FileSystemError)
  /// A file that would change but is write-protected; no file was replaced.
  case writeProtected(path: String)
  /// A version whose part would reach 2^32 if raised.
  case cannotRaise(path: String, key: String, value: String)
  /// A requested scheme could not give a number.
  case scheme(message: String)
  /// No Info.plist or project was found.
  case nothingFound(paths: [String])
  /// Values that could not be resolved or read as versions (each message names its file,
  /// line and chain).
  case unresolvable(problems: [VersionProblem])
  /// A bump that would lower a value, not asked for with `--allow-lower`.
  case wouldLower(path: String, key: String, current: String, new: String)
  /// Files the bump would write outside the folders it was given (reached through a
  /// project's settings, an `#include`, a workspace or a link), not allowed.
  case outside(paths: [String], roots: [String])
  /// A file outside the trees being read that a project, spec or `#include` names as
  /// settings: not read (``SettingsScope``).
  case readOutside(path: String, line: Int?, message: String)
  /// The remote's highest claimed build number is far above the files' next one: a stray
  /// ref, most likely; not taken unless asked to.
  case claimJump(remote: String, ref: String, claimed: UInt32, files: UInt32)
  /// A check the caller asked for before writing failed (`bump --commit` finding a detached
  /// HEAD, a tag that exists, a bumped file with edits of its own); nothing was written.
  case refused(path: String?, reason: String)
  /// git failed to record a bump already written: what stands, and what git said.
  case notRecorded(message: String)

  /// The errors, each naming its file (and line where known); nothing was changed.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .notFound(let path):
      [.error(path, "no such file or folder")]
    case .unreadable(let path, let line, let message):
      [.error(path, line: line, message)]
    case .invalidVersion(let path, let key, let value):
      [
        .error(
          path,
          "\(key) '\(ShownValue.of(value))' is not a version (\(BundleVersion.rule))"
        )
      ]
    case .unresolvedReference(let path, let key, let setting):
      [
        .error(
          path,
          "\(key) is $(\(setting)), which no .xcconfig beside it and no Xcode project above it defines"
        )
      ]
    case .propertyList(let error):
      error.diagnostics
    case .file(let error):
      error.diagnostics
    case .notWritten(let error):
      error.diagnostics.map { diagnostic in
        var diagnostic = diagnostic
        diagnostic.message += "; no file was changed"
        return diagnostic
      }
    case .writeProtected(let path):
      [
        .error(
          path,
          "the file is write-protected (make it writable, or open it for edit in your version control); no file was changed"
        )
      ]
    case .cannotRaise(let path, let key, let value):
      [
        .error(
          path,
          "\(key) \(value) cannot be raised: a part would pass 18 digits, the most App Store Connect takes"
        )
      ]
    case .scheme(let message):
      [.error(nil, message)]
    case .nothingFound(let paths):
      [.error(nil, "no Info.plist or Xcode project found in \(paths.joined(separator: ", "))")]
    case .unresolvable(let problems):
      problems.map(\.diagnostic) + [.error(nil, "nothing was changed")]
    case .outside(let paths, let roots):
      paths.map { path in
        Diagnostic(
          .error, path: path,
          "is outside \(roots.joined(separator: ", ")), where the project's settings, an #include, a workspace or a link lead; a checkout may point anywhere, so BundleKit writes there only when asked to; nothing was changed",
          rule: .refusal("write-outside"))
      }
    case .refused(let path, let reason):
      [.error(path, "\(reason); nothing was changed")]
    case .claimJump(let remote, let ref, let claimed, let files):
      [
        Diagnostic(
          .error, path: nil,
          "\(remote) has \(ref), \(claimed - files + 1) above the files' next build number (\(files)): a stray ref? Delete it on the remote, or take the jump; nothing was claimed",
          rule: .refusal("claim-jump"))
      ]
    case .readOutside(let path, let line, let message):
      [Diagnostic(.error, path: path, line: line, message, rule: .refusal("read-outside"))]
    case .notRecorded(let message):
      [.error(nil, message)]
    case .wouldLower(let path, let key, let current, let new):
      [
        Diagnostic(
          .error, path: path,
          "\(key) would go down from \(current) to \(new), which a bump does only when asked to; nothing was changed",
          rule: .refusal("lower-value"))
      ]
    }
  }
}
