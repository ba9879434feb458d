import BundleKitDiagnostics

/// Why an archive could not be written, read or extracted.
public enum ArchiveError: DiagnosticConvertible, Sendable, Equatable {
  /// A problem with a file on disk.
  case file(path: String, message: String)
  /// libarchive refused the archive or an entry.
  case archive(path: String, message: String)
  /// An entry refused by the safe extractor (path escape, device file ...).
  case unsafeEntry(archive: String, entry: String, reason: String)
  /// A limit that protects against archive bombs was reached.
  case limit(archive: String, limit: ExtractionLimits.Limit, message: String)
  /// An entry that could not be written out (a full disk, an I/O error).
  case unwritable(archive: String, entry: String, message: String)

  /// One error naming the file or archive.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .file(let path, let message), .archive(let path, let message):
      [.error(path, message)]
    case .limit(let path, let limit, let message):
      [Diagnostic(.error, path: path, message, rule: .refusal(limit.rawValue))]
    case .unsafeEntry(let archive, let entry, let reason):
      [.error(archive, "refused entry '\(entry)': \(reason)")]
    case .unwritable(let archive, let entry, let message):
      [.error(archive, "cannot extract '\(entry)': \(message); nothing was extracted")]
    }
  }
}
