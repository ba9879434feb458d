import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import Foundation
import OrderedCollections

/// Compiles strings tables to binary property lists, as Xcode's CopyStringsFile and
/// `xcstringstool compile` do, keeping the `<lang>.lproj/` layout.
public struct StringsCompiler: Sendable {
  /// The language other languages are compared with when checking.
  public var developmentLanguage: String
  /// Which findings stop the compile: by default only those that leave a table unreadable
  /// or ambiguous, so what CoreFoundation reads and Xcode builds compiles.
  public var policy = SeverityPolicy.compile
  /// Languages translated below this share (0...1) over all the tables compiled are left
  /// out, as if they had no tables: an app half in French is better wholly in English. The
  /// development language is always kept. Nil keeps every language.
  public var pruneBelow: Double?
  /// What a left-out language's outputs become: nothing (an archive, a folder the caller
  /// owns), or, when true, the development language's tables at its paths. A SwiftPM
  /// build-tool plugin must write every output it declared, and SwiftPM copies a target's
  /// own `<lang>.lproj` tables into the bundle besides, so there the language cannot be
  /// removed, only given the development language's text, which is what its users then see.
  public var prunedLanguagesUseDevelopmentTables = false

  /// A compiler that checks against `developmentLanguage`.
  public init(developmentLanguage: String = "en") {
    self.developmentLanguage = developmentLanguage
  }

  /// One compiled file: where it goes (relative to the output folder) and its bytes.
  public struct Output: Sendable, Hashable {
    /// `<lang>.lproj/<Table>.strings`, or the file name for tables outside an `.lproj`.
    public var relativePath: String
    /// A binary property list.
    public var bytes: [UInt8]
  }

  /// The output paths (relative) a table compiles to, computable without compiling: a
  /// catalog gives `<lang>.lproj/<Table>.strings` and `.stringsdict` for each language.
  public static func outputPaths(for location: TableLocation, catalogLanguages: [String] = [])
    -> [String]
  {
    TableLayout.outputPaths(
      table: location.table, fileExtension: location.kind.rawValue, language: location.language,
      catalogLanguages: catalogLanguages)
  }

  /// Compiles the tables in memory. An error in any table (by default: syntax, encoding, a
  /// key defined twice with different values, two tables for one output) throws, with
  /// every finding; warnings are returned.
  public func compile(_ locations: [TableLocation]) throws(DiagnosticsError) -> Compiled {
    // Each file is read once, checked, then encoded; a table with nothing to report and
    // nothing to be compared with is compiled from its bytes, without the reader's model.
    let clean = pruneBelow == nil ? cleanTables(locations) : [:]
    let loaded = StringsTableSet.load(locations.filter { clean[$0] == nil })
    let diagnostics = policy.apply(
      StringsLinter(developmentLanguage: developmentLanguage).lint(loaded))
    if diagnostics.contains(where: { $0.severity == .error }) {
      throw DiagnosticsError(diagnostics)
    }
    var outputs = try encode(locations, loaded, clean: clean)
    var pruned: [String: Double] = [:]
    if let pruneBelow {
      let shares = TranslationCoverage(loaded, developmentLanguage: developmentLanguage)
        .languageShares
      for (language, share) in shares where share < pruneBelow && language != developmentLanguage {
        pruned[language] = share
      }
      let prunedPrefix = { (output: Output) -> String? in
        pruned.keys.first { output.relativePath.hasPrefix($0 + ".lproj/") }
      }
      if prunedLanguagesUseDevelopmentTables {
        var development: [String: [UInt8]] = [:]
        for output in outputs where output.relativePath.hasPrefix(developmentLanguage + ".lproj/") {
          development[String(output.relativePath.dropFirst(developmentLanguage.count + 7))] =
            output.bytes
        }
        let empty = (try? PropertyListValue.dictionary([:]).encoded(as: .binary1)) ?? []
        for index in outputs.indices {
          guard let language = prunedPrefix(outputs[index]) else { continue }
          let name = String(outputs[index].relativePath.dropFirst(language.count + 7))
          outputs[index].bytes = development[name] ?? empty
        }
      } else {
        outputs.removeAll { prunedPrefix($0) != nil }
      }
    }
    return Compiled(outputs: outputs, warnings: diagnostics, pruned: pruned)
  }

  /// The `.strings` tables of `locations` that the linter would compare with no other table
  /// (alone in their language's group, no catalog of their name beside them, in a folder
  /// that names a language) and that have nothing to report, compiled.
  private func cleanTables(_ locations: [TableLocation]) -> [TableLocation: [UInt8]] {
    var localized: [String: Int] = [:]
    var catalogs: Set<String> = []
    for location in locations {
      if location.kind == .strings, location.language != nil {
        localized[location.group, default: 0] += 1
      }
      if location.kind == .catalog { catalogs.insert(location.group) }
    }
    var clean: [TableLocation: [UInt8]] = [:]
    for location in locations where location.kind == .strings {
      guard !catalogs.contains(location.group),
        location.language.map({ LanguageName.isValid($0) && localized[location.group] == 1 })
          ?? true,
        let bytes = try? FileIO.read(location.path),
        let binary = CleanStringsTable.binary(bytes)
      else { continue }
      clean[location] = binary
    }
    return clean
  }

  private func encode(
    _ locations: [TableLocation], _ loaded: StringsTableSet, clean: [TableLocation: [UInt8]]
  ) throws(DiagnosticsError) -> [Output] {
    var outputs: [Output] = []
    var seen: [String: String] = [:]
    func add(_ relativePath: String, _ bytes: [UInt8], from path: String)
      throws(DiagnosticsError)
    {
      if let other = seen[relativePath] {
        throw DiagnosticsError([
          Diagnostic(
            .error, .duplicateOutput, path,
            "compiles to \(relativePath), which \(other) also writes")
        ])
      }
      seen[relativePath] = path
      outputs.append(Output(relativePath: relativePath, bytes: bytes))
    }
    // Tables hold only strings, arrays and dictionaries, which binary plists always hold.
    func binary(_ dictionary: PropertyListDictionary) -> [UInt8] {
      (try? PropertyListValue.dictionary(dictionary).encoded(as: .binary1)) ?? []
    }
    for location in locations {
      if let bytes = clean[location] {
        try add(Self.outputPaths(for: location)[0], bytes, from: location.path)
      } else if let file = loaded.strings[location] {
        try add(Self.outputPaths(for: location)[0], binary(file.dictionary), from: location.path)
      } else if let file = loaded.stringsdicts[location] {
        try add(Self.outputPaths(for: location)[0], binary(file.entries), from: location.path)
      } else if let catalog = loaded.catalogs[location] {
        // The catalog's reader refused any name that is no language; a path stays a path.
        for (language, tables) in catalog.compile() where LanguageName.isValid(language) {
          try add(
            "\(language).lproj/\(location.table).strings", binary(tables.strings),
            from: location.path)
          try add(
            "\(language).lproj/\(location.table).stringsdict", binary(tables.stringsdict),
            from: location.path)
        }
      }
    }
    return outputs
  }

  /// Compiles and writes every output under `folder` as one batch: all of them or none,
  /// even when the run is killed (`FileIO.writeAtomically`), and nothing when any table has
  /// an error. The folder is locked while the batch is written, so two runs into one folder
  /// never leave a mix of their tables.
  ///
  /// - Parameters:
  ///   - locations: The tables, as ``TableDiscovery`` finds them.
  ///   - folder: Where `LANGUAGE.lproj/TABLE.strings` (and `.stringsdict`) go.
  /// - Returns: The files written and the warnings found.
  /// - Throws: ``DiagnosticsError`` with every finding when a table is unreadable or
  ///   ambiguous (or a finding the policy raises); nothing is written then.
  public func compile(_ locations: [TableLocation], into folder: String) throws(DiagnosticsError)
    -> Written
  {
    let compiled = try compile(locations)
    let files = compiled.outputs.map {
      FileWrite(path: Paths.join(folder, $0.relativePath), bytes: $0.bytes)
    }
    do {
      try FileIO.createFolder(folder)
      let lock = try FolderLocks(folders: [folder])
      defer { lock.release() }
      for file in files { try FileIO.createFolders(for: file.path) }
      try FileIO.writeAtomically(files)
    } catch {
      throw DiagnosticsError([Diagnostic(.error, .syntax, error.path, error.message)])
    }
    return Written(paths: files.map(\.path), warnings: compiled.warnings, pruned: compiled.pruned)
  }

  /// Tables compiled in memory, and the warnings found on the way.
  public struct Compiled: Sendable {
    /// One output per file to write.
    public var outputs: [Output]
    /// Findings that did not stop the compile.
    public var warnings: [Diagnostic]
    /// The languages left out (``pruneBelow``), with the share each had.
    public var pruned: [String: Double] = [:]
  }

  /// Tables compiled into a folder, and the warnings found on the way.
  public struct Written: Sendable {
    /// The files written.
    public var paths: [String]
    /// Findings that did not stop the compile.
    public var warnings: [Diagnostic]
    /// The languages left out (``pruneBelow``), with the share each had.
    public var pruned: [String: Double] = [:]
  }
}
