import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyListCore
import Foundation

/// Export for translators and import of their work, as `xcodebuild -exportLocalizations`
/// and `-importLocalizations` do: one `.xcloc` per language holding an XLIFF 1.2 file with a
/// `<file>` per table, and back into String Catalogs, `.strings` and `.stringsdict` tables.
public enum LocalizationExchange {
  /// A file to write: its path and bytes.
  public typealias Output = FileWrite

  /// The tables of a project that export reads: catalogs, and the development language's
  /// `.strings` and `.stringsdict` tables with their translations beside them.
  struct Project {
    var catalogs: [(original: String, catalog: StringCatalog)] = []
    var strings: [(original: String, location: TableLocation)] = []
    /// The development language's storyboards, XIBs and intent definitions (in `Base.lproj`
    /// or its own).
    var interfaces: [(original: String, path: String)] = []
    var languages: Set<String> = []
    /// The bytes of tables Xcode makes at export and no file holds (a target's
    /// `InfoPlist.strings`), by path.
    var generated: [String: [UInt8]] = [:]
    /// The Info.plist entries Xcode adds to a target's own `.strings` table, by the table's
    /// path.
    var merged: [String: [GeneratedTable.Entry]] = [:]
    /// The strings of a target's code Xcode adds to its own `.strings` table, by the table's
    /// path.
    var code: [String: [CatalogSync.CodeString]] = [:]

    /// The bytes of a development table: the file's, or those made for it.
    func bytes(_ location: TableLocation) throws -> [UInt8] {
      try generated[location.path] ?? FileIO.read(location.path)
    }
  }

  /// A table Xcode makes when it exports, from something other than a table: a target's
  /// `InfoPlist.strings` from its Info.plist.
  public struct GeneratedTable: Sendable, Hashable {
    /// One entry: its key, value and comment.
    public struct Entry: Sendable, Hashable {
      /// The key.
      public var key: String
      /// The value.
      public var value: String
      /// The comment Xcode writes above it.
      public var comment: String

      /// An entry.
      public init(key: String, value: String, comment: String) {
        self.key = key
        self.value = value
        self.comment = comment
      }
    }

    /// Where Xcode names it: `<folder>/<development language>.lproj/<Table>.strings`, or
    /// `<folder>/<Table>.xcstrings`.
    public var path: String
    /// Its entries, in order.
    public var entries: [Entry]
    /// A catalog's bytes as made elsewhere (a target's code synced into an empty catalog);
    /// nil to make them from `entries`.
    public var contents: [UInt8]?

    /// A table at `path` holding `entries`.
    public init(path: String, entries: [Entry]) {
      self.path = path
      self.entries = entries
    }

    /// A String Catalog at `path` whose bytes are `contents`.
    public init(path: String, contents: [UInt8]) {
      self.path = path
      self.entries = []
      self.contents = contents
    }

    /// The table as Xcode writes it into `Source Contents/`: each entry under its comment,
    /// no blank line between them (Xcode 11.6 to 14).
    public var bytes: [UInt8] {
      var text = ""
      for entry in entries {
        text +=
          "/* \(entry.comment) */\n\(StringsFile.literal(entry.key)) = \(StringsFile.literal(entry.value));\n"
      }
      return Array(text.utf8)
    }

    /// The table as the String Catalog Xcode makes of it: each key with its comment and its
    /// value, extracted, new in the source language.
    func catalogBytes(sourceLanguage: String) throws -> [UInt8] {
      if let contents { return contents }
      var strings: [String: Any] = [:]
      for entry in entries {
        strings[entry.key] = [
          "comment": entry.comment, "extractionState": "extracted_with_value",
          "localizations": [
            sourceLanguage: ["stringUnit": ["state": "new", "value": entry.value]]
          ],
        ]
      }
      let root: [String: Any] = [
        "sourceLanguage": sourceLanguage, "strings": strings, "version": "1.0",
      ]
      return try CatalogJSON.bytes(root, like: [], path: path)
    }
  }

  /// The path a table is named by in XLIFF: relative to the current folder when it is below
  /// it and the folder given (`root`) is not above it, else to `root`; `./` dropped. Never with a `..` component: it is
  /// also where the table's copy goes in `Source Contents/`, which must stay in the export.
  static func original(_ path: String, root: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    let absolute = { (text: String) -> String in
      Paths.collapsed(text.hasPrefix("/") ? text : Paths.join(cwd, text))
    }
    let full = absolute(path)
    var relative = path
    // The current folder, unless the folder given reaches above it (`export ../..`): then
    // the folder given, so every table keeps its place in the project.
    let top = absolute(root)
    let bases = cwd.hasPrefix(top + "/") ? [top, cwd] : [cwd, top]
    for base in bases where full.hasPrefix(base + "/") {
      relative = String(full.dropFirst(base.count + 1))
      break
    }
    while relative.hasPrefix("./") { relative.removeFirst(2) }
    let parts = relative.split(separator: "/")
    if relative.hasPrefix("/") || parts.contains("..") {
      // Below neither (a link's doing): named by the part below its own folder.
      relative = parts.filter { $0 != ".." && $0 != "." }.suffix(2).joined(separator: "/")
    }
    return relative
  }

  static func project(
    _ paths: [String], developmentLanguage: String, generated: [GeneratedTable] = [],
    code: [String: [CatalogSync.CodeString]] = [:]
  ) throws -> Project {
    var project = Project()
    // A Base.lproj table is the development language's, as Xcode exports it, unless the
    // development language's own .lproj has the same table.
    var base: [(original: String, location: TableLocation)] = []
    for root in paths {
      for location in try TableDiscovery.tables(in: [root]) {
        switch location.kind {
        case .catalog:
          let catalog = try StringCatalog(contentsOfFile: location.path)
          project.catalogs.append((original(location.path, root: root), catalog))
          project.languages.formUnion(catalog.languages.filter { $0 != catalog.sourceLanguage })
        case .strings, .stringsdict:
          guard let language = location.language else { continue }
          if language == developmentLanguage || language == "Base" {
            base.append((original(location.path, root: root), location))
          } else {
            project.languages.insert(language)
          }
        }
      }
    }
    let developmentTables = Set(
      base.filter { $0.location.language != "Base" }.compactMap {
        StringsExchange.translatedPath($0.location.path, language: "Base")
      })
    project.strings = base.filter {
      $0.location.language != "Base" || !developmentTables.contains($0.location.path)
    }
    // A table Xcode makes is the project's own where the project has one: in the
    // development language's or Base.lproj beside it, or a catalog of that name in the
    // folder the `.lproj` is in, or below it.
    let cwd = FileManager.default.currentDirectoryPath
    let absolute = { (text: String) -> String in
      Paths.collapsed(text.hasPrefix("/") ? text : Paths.join(cwd, text))
    }
    let catalogs = project.catalogs.map {
      (absolute(Paths.parent($0.catalog.path)), $0.catalog.path)
    }
    if !code.isEmpty {
      for (_, location) in project.strings {
        if let strings = code[absolute(location.path)] { project.code[location.path] = strings }
      }
    }
    for table in generated {
      guard let location = TableLocation(path: table.path),
        location.kind == .strings || location.kind == .catalog
      else { continue }
      let folder = location.bundleFolder
      let absoluteFolder = absolute(folder)
      // The target's own table (the development language's, else Base's): Xcode exports it
      // with the Info.plist's keys it lacks (Loop's Base.lproj/InfoPlist.strings,
      // FitTrackPro's Resources/de.lproj/InfoPlist.strings).
      let ownTables = Set(
        [developmentLanguage, "Base"].map {
          absolute(Paths.join(folder, "\($0).lproj/\(location.table).strings"))
        })
      if location.kind == .strings,
        let own = project.strings.first(where: { ownTables.contains(absolute($0.location.path)) })
      {
        project.merged[own.location.path] = table.entries
        continue
      }
      guard !ownTables.contains(where: FileIO.exists),
        !catalogs.contains(where: { catalogFolder, path in
          Paths.lastComponent(path) == location.table + ".xcstrings"
            && (catalogFolder == absoluteFolder || catalogFolder.hasPrefix(absoluteFolder + "/"))
        })
      else { continue }
      let root =
        paths.first { absolute(table.path).hasPrefix(absolute($0) + "/") } ?? paths.first ?? "."
      if location.kind == .catalog {
        let bytes = try table.catalogBytes(sourceLanguage: developmentLanguage)
        project.catalogs.append(
          (original(table.path, root: root), try StringCatalog(bytes: bytes, path: table.path)))
      } else {
        project.strings.append((original(table.path, root: root), location))
        project.generated[table.path] = table.bytes
      }
    }
    for root in paths {
      for path in try TableDiscovery.interfaceDocuments(in: [root]) {
        let folder = Paths.lastComponent(Paths.parent(path))
        guard folder == "Base.lproj" || folder == developmentLanguage + ".lproj" else { continue }
        project.interfaces.append((original(path, root: root), path))
      }
    }
    return project
  }

  /// Every language's `.xcloc`, under `folder`: `<lang>.xcloc/contents.json`,
  /// `Localized Contents/<lang>.xliff` and `Source Contents/` (the development tables as
  /// exported). `languages` empty: every language the tables have.
  ///
  /// A text XML cannot carry (a control character such as U+0018, which real `.strings`
  /// files hold) is left out with a warning in `warnings`: the unit when its source holds
  /// one, else its translation or note, so that the export reads back and importing it
  /// unedited changes nothing.
  public static func export(
    _ paths: [String], to folder: String, languages: [String], developmentLanguage: String,
    toolVersion: String, generated: [GeneratedTable] = [],
    code: [String: [CatalogSync.CodeString]] = [:], warnings: inout [Diagnostic]
  ) throws -> [Output] {
    let project = try project(
      paths, developmentLanguage: developmentLanguage, generated: generated, code: code)
    let chosen = languages.isEmpty ? project.languages.sorted() : languages
    // Each language names a folder of the export: only a language may.
    let invalid = (chosen + [developmentLanguage]).filter { !LanguageName.isValid($0) }
    guard invalid.isEmpty else {
      throw DiagnosticsError(
        invalid.map {
          .error(nil, "\(StringCatalog.quoted($0)) \(StringCatalog.notALanguage)")
        })
    }
    var outputs: [Output] = []
    var cache: [String: [String]] = [:]
    var sources: [Output] = []
    for (original, catalog) in project.catalogs {
      sources.append(Output(path: original, bytes: catalog.contents))
    }
    for (original, location) in project.strings {
      sources.append(Output(path: original, bytes: try project.bytes(location)))
    }
    // Each storyboard's, XIB's and intent definition's strings, read once for every language.
    var interfaces: [(original: String, path: String, entries: [DocumentStrings.Entry])] =
      []
    for (original, path) in project.interfaces {
      let bytes = try FileIO.read(path)
      let entries = try DocumentStrings.entries(bytes, path: path)
      sources.append(Output(path: original, bytes: bytes))
      // A document with nothing to translate (a launch screen) has no <file>, as in Xcode's.
      if !entries.isEmpty { interfaces.append((original, path, entries)) }
    }
    for language in chosen {
      var files: [XLIFFDocument.File] = []
      var source = developmentLanguage
      for (original, catalog) in project.catalogs {
        source = catalog.sourceLanguage
        files.append(
          XLIFFDocument.File(
            original: original, sourceLanguage: catalog.sourceLanguage, targetLanguage: language,
            units: xmlSafe(
              CatalogExchange.units(catalog, language: language, cache: &cache),
              table: catalog.path, translation: catalog.path, language: language,
              warnings: &warnings)))
      }
      for (original, location) in project.strings {
        let translated = StringsExchange.translatedPath(location.path, language: language)
        let exists = translated.map(FileIO.exists) ?? false
        // The development language of a Base-localized table is the table itself: Xcode
        // gives each unit its source as the target.
        let selfTranslated = !exists && language == developmentLanguage
        let units: [XLIFFDocument.Unit]
        if location.kind == .strings {
          let table = try StringsFile(bytes: project.bytes(location), path: location.path)
          let target =
            exists
            ? try translated.map { try StringsFile(contentsOfFile: $0) }
            : selfTranslated ? table : nil
          units = Self.withCode(
            Self.withInfoPlist(
              StringsExchange.units(strings: table, target: target),
              project.merged[location.path] ?? [], target: target,
              isDevelopment: language == developmentLanguage),
            project.code[location.path] ?? [], target: target,
            isDevelopment: language == developmentLanguage)
        } else {
          let table = try StringsdictFile(contentsOfFile: location.path)
          let target =
            exists
            ? try translated.map { try StringsdictFile(contentsOfFile: $0) }
            : selfTranslated ? table : nil
          units = StringsExchange.units(
            stringsdict: table, target: target, language: language, cache: &cache)
        }
        var file = XLIFFDocument.File(
          original: original, sourceLanguage: developmentLanguage, targetLanguage: language,
          units: xmlSafe(
            units, table: location.path, translation: translated ?? location.path,
            language: language, warnings: &warnings))
        file.isTranslated = exists || language == developmentLanguage
        // An empty table has no <file>, as in Xcode's export (stats' Localizable.strings);
        // its copy is still in Source Contents.
        if !file.units.isEmpty { files.append(file) }
      }
      for (original, path, entries) in interfaces {
        let translation = DocumentStrings.translationPath(path, language: language)
        let translated = try translation.flatMap {
          FileIO.exists($0) ? try StringsFile(contentsOfFile: $0) : nil
        }
        // The development language's text is the document's own, unless its `.lproj` has a
        // table for the document (Xcode takes that).
        let units = entries.map { entry in
          XLIFFDocument.Unit(
            id: entry.id, source: entry.value,
            target: translated?.dictionary[entry.id]?.stringValue
              ?? (language == developmentLanguage ? entry.value : nil),
            state: nil, note: entry.note)
        }
        var file = XLIFFDocument.File(
          original: original, sourceLanguage: developmentLanguage, targetLanguage: language,
          units: xmlSafe(
            units.sorted { StringsExchange.numericOrder($0.id, $1.id) }, table: path,
            translation: translation ?? path, language: language, warnings: &warnings))
        file.isTranslated = translated != nil || language == developmentLanguage
        files.append(file)
      }
      // No table at all (a .lproj of images only): nothing to translate, no .xcloc.
      guard !files.isEmpty else { continue }
      // Xcode's order: by path, letters compared without case (`dexcom-share-client/…`
      // before `G7SensorKit/…`, `ckcomplication.strings` before `Localizable.strings`).
      files.sort {
        ($0.original.lowercased(), $0.original) < ($1.original.lowercased(), $1.original)
      }
      let bundle = Paths.join(folder, "\(language).xcloc")
      outputs.append(
        Output(
          path: Paths.join(bundle, "Localized Contents/\(language).xliff"),
          bytes: XLIFFDocument(files: files).xml(toolVersion: toolVersion)))
      outputs.append(
        Output(
          path: Paths.join(bundle, "contents.json"),
          bytes: contents(language: language, developmentLanguage: source, toolVersion: toolVersion)
        ))
      for file in sources {
        outputs.append(
          Output(path: Paths.join(bundle, "Source Contents/" + file.path), bytes: file.bytes))
      }
    }
    return outputs
  }

  /// A target's own InfoPlist table's units with its Info.plist's `entries`, as Xcode
  /// exports them: the keys the table lacks added with the Info.plist's value (the
  /// translation from `target`, or the value itself in the development language), the key's name in Xcode's Info.plist editor as the note
  /// of a key the table gives none, every unit sorted by key.
  static func withInfoPlist(
    _ units: [XLIFFDocument.Unit], _ entries: [GeneratedTable.Entry], target: StringsFile?,
    isDevelopment: Bool
  ) -> [XLIFFDocument.Unit] {
    guard !entries.isEmpty else { return units }
    var result = units
    let known = Set(units.map(\.id))
    let names = Dictionary(entries.map { ($0.key, $0.comment) }, uniquingKeysWith: { a, _ in a })
    for index in result.indices where result[index].note?.isEmpty ?? true {
      if let name = names[result[index].id] { result[index].note = name }
    }
    for entry in entries where !known.contains(entry.key) {
      result.append(
        XLIFFDocument.Unit(
          id: entry.key, source: entry.value,
          target: target?.dictionary[entry.key]?.stringValue
            ?? (isDevelopment ? entry.value : nil), state: nil, note: entry.comment))
    }
    return result.sorted { $0.id < $1.id }
  }

  /// A target's `.strings` table's units with the strings of its code, as Xcode exports
  /// them (Xcode 13.1 to 26.5: FocusedWork, Mastoot, FitTrackPro): a key the table lacks is
  /// added with the code's value and comment ("No comment provided by engineer." where the
  /// code gives none) and the translation `target` has, and then every unit is in Xcode's
  /// order, by key with numbers compared as numbers.
  static func withCode(
    _ units: [XLIFFDocument.Unit], _ code: [CatalogSync.CodeString], target: StringsFile?,
    isDevelopment: Bool
  ) -> [XLIFFDocument.Unit] {
    guard !code.isEmpty else { return units }
    var result = units
    var known = Set(units.map(\.id))
    var comments: [String: [String]] = [:]
    for string in code {
      if let comment = string.comment, !comment.isEmpty,
        !(comments[string.key] ?? []).contains(comment)
      {
        comments[string.key, default: []].append(comment)
      }
    }
    for string in code where known.insert(string.key).inserted {
      let source = string.value ?? string.key
      result.append(
        XLIFFDocument.Unit(
          id: string.key, source: source,
          target: target?.dictionary[string.key]?.stringValue ?? (isDevelopment ? source : nil),
          state: nil,
          note: comments[string.key].map { $0.joined(separator: "\n") }
            ?? "No comment provided by engineer."))
    }
    return result.sorted { StringsExchange.numericOrder($0.id, $1.id) }
  }

  /// `units` with every text XML 1.0 can carry: a unit whose source holds a character it
  /// cannot (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF) is left
  /// out, a translation or note holding one is dropped; each with a warning.
  static func xmlSafe(
    _ units: [XLIFFDocument.Unit], table: String, translation: String, language: String,
    warnings: inout [Diagnostic]
  ) -> [XLIFFDocument.Unit] {
    func bad(_ text: String?) -> String? {
      guard let text else { return nil }
      for scalar in text.unicodeScalars {
        let value = scalar.value
        if (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D)
          || value == 0xFFFE || value == 0xFFFF
        {
          return String(format: "U+%04X", value)
        }
      }
      return nil
    }
    var kept: [XLIFFDocument.Unit] = []
    for var unit in units {
      if let character = bad(unit.source) {
        warnings.append(
          Diagnostic(
            .warning, path: table,
            "\(StringsFile.literal(unit.id)): the text holds \(character), which XML cannot carry: left out of the \(language) export"
          ))
        continue
      }
      if let character = bad(unit.target) {
        warnings.append(
          Diagnostic(
            .warning, path: translation,
            "\(StringsFile.literal(unit.id)): the \(language) translation holds \(character), which XML cannot carry: exported without it (an import of the export keeps it)"
          ))
        unit.target = nil
        unit.state = nil
      }
      if let character = bad(unit.note) {
        warnings.append(
          Diagnostic(
            .warning, path: table,
            "\(StringsFile.literal(unit.id)): the comment holds \(character), which XML cannot carry: exported without it"
          ))
        unit.note = nil
      }
      kept.append(unit)
    }
    return kept
  }

  /// `contents.json` as Xcode writes it.
  static func contents(language: String, developmentLanguage: String, toolVersion: String)
    -> [UInt8]
  {
    let project = Paths.lastComponent(FileManager.default.currentDirectoryPath)
    let text = """
      {
        "developmentRegion" : \(JSONEscaping.quoted(developmentLanguage)),
        "project" : \(JSONEscaping.quoted(project)),
        "targetLocale" : \(JSONEscaping.quoted(language)),
        "toolInfo" : {
          "toolBuildNumber" : \(JSONEscaping.quoted(toolVersion)),
          "toolID" : "org.bundlekit",
          "toolName" : "BundleKit",
          "toolVersion" : \(JSONEscaping.quoted(toolVersion))
        },
        "version" : "1.0"
      }
      """
    return Array(text.utf8)
  }

  // MARK: Import

  /// What an import would write, and what it found.
  public struct ImportPlan: Sendable {
    /// The tables to write, all in one batch.
    public var writes: [Output] = []
    /// Errors (nothing may be written when there is one) and warnings.
    public var diagnostics: [Diagnostic] = []
    /// Units refused on their own, each an error at its line (a translation whose
    /// placeholders disagree with the source's); the other units are planned. With `strict`
    /// they are errors like the others, and nothing is planned.
    public var refused: [Diagnostic] = []
    /// Units that changed a translation, by table.
    public var changes: [(path: String, units: Int)] = []
  }

  /// The XLIFF files of `paths`: `.xliff` files as they are, `.xcloc` folders through their
  /// `Localized Contents`.
  static func documents(_ paths: [String]) throws -> [String] {
    var found: [String] = []
    for path in paths {
      if path.hasSuffix(".xcloc") || path.hasSuffix(".xcloc/") {
        let localized = Paths.join(path, "Localized Contents")
        let names = DirectoryWalker.names(in: localized)?.names ?? []
        let xliffs = names.filter { $0.hasSuffix(".xliff") }.sorted()
        guard !xliffs.isEmpty else {
          throw DiagnosticsError([.error(path, "no Localized Contents/*.xliff in this .xcloc")])
        }
        found += xliffs.map { Paths.join(localized, $0) }
      } else {
        found.append(path)
      }
    }
    return found
  }

  /// Validates every XLIFF of `paths` against the tables below `root` and plans the merge.
  /// Nothing is planned when a file or unit does not fit its table (an unknown key, a plural
  /// category the language lacks ...): the plan then holds only diagnostics. A translation
  /// whose placeholders disagree with the source's refuses only its unit (``ImportPlan/refused``),
  /// unless `strict`.
  public static func planImport(_ paths: [String], into root: String, strict: Bool = false)
    throws -> ImportPlan
  {
    var plan = ImportPlan()
    var cache: [String: [String]] = [:]
    guard let realRoot = FileIO.realPath(root) else {
      throw DiagnosticsError([.error(root, "no such folder")])
    }
    // One table may be the target of several files (two languages): later writes start
    // from earlier ones.
    var pending: [String: [UInt8]] = [:]
    for xliffPath in try documents(paths) {
      let document = try XLIFFDocument.read(try FileIO.read(xliffPath), path: xliffPath)
      for file in document.files {
        func fail(_ message: String) {
          plan.diagnostics.append(
            .error(xliffPath, line: file.line, column: file.column, message))
        }
        let parts = file.original.split(separator: "/", omittingEmptySubsequences: false)
        guard !file.original.hasPrefix("/"), !parts.contains(".."), !parts.contains("") else {
          fail(
            "original \"\(file.original)\" must be a relative path inside the project, without '..'"
          )
          continue
        }
        let tablePath = Paths.join(root, file.original)
        // A table Xcode creates on import when it is missing (an Info.plist's strings, a
        // catalog or table for strings from code): its folder must be in the project, and
        // nothing may stand at its path.
        let missing = pending[tablePath] == nil && !FileIO.exists(tablePath)
        if missing {
          let kind = TableLocation(path: tablePath)?.kind
          guard kind == .catalog || kind == .strings, !DocumentStrings.isDocument(tablePath)
          else {
            fail("original \"\(file.original)\": no such table below \(root)")
            continue
          }
          // The `.lproj` may be missing too (an Info.plist's strings, made at export): then
          // the folder that would hold it must be there, and nothing may stand at its path.
          var folder = Paths.parent(tablePath)
          if folder.hasSuffix(".lproj"), !FileIO.exists(folder),
            FileIO.linkDestination(folder) == nil
          {
            folder = Paths.parent(folder)
          }
          guard FileIO.linkDestination(tablePath) == nil,
            let realFolder = FileIO.realPath(folder),
            realFolder == realRoot || realFolder.hasPrefix(realRoot + "/")
          else {
            fail(
              "original \"\(file.original)\": no such table below \(root), and its folder is not there to create it in"
            )
            continue
          }
        } else if pending[tablePath] == nil {
          guard let real = FileIO.realPath(tablePath) else {
            fail("original \"\(file.original)\": no such table below \(root)")
            continue
          }
          guard real.hasPrefix(realRoot + "/") else {
            fail("original \"\(file.original)\" leads out of \(root) through a link")
            continue
          }
        }
        // Storyboards, XIBs and intent definitions keep their translations in
        // `<lang>.lproj/<name>.strings`.
        let isInterface = DocumentStrings.isDocument(tablePath)
        guard let language = file.targetLanguage,
          let location = isInterface
            ? TableLocation(path: tablePath + ".strings") : TableLocation(path: tablePath)
        else {
          fail("original \"\(file.original)\" is not a strings table")
          continue
        }
        // A document's strings (storyboard, XIB, intent definition): the development
        // language's are the document's own (Xcode changes no document on import); others go
        // to `<lang>.lproj/<name>.strings`.
        if isInterface, language == file.sourceLanguage { continue }
        // A table Xcode makes at export (an Info.plist's strings, a target's code) is created
        // only by what a file changes: no translation, or, in the source language, the text
        // the Info.plist or the code already gives, creates nothing.
        if missing,
          file.units.allSatisfy({
            $0.target == nil || (language == file.sourceLanguage && $0.target == $0.source)
          })
        {
          continue
        }
        switch location.kind {
        case .catalog:
          let bytes: [UInt8]
          if missing {
            var created: [Diagnostic] = []
            bytes = try CatalogExchange.created(
              file, path: tablePath, xliffPath: xliffPath, diagnostics: &created)
            plan.diagnostics += created
            guard !created.contains(where: { $0.severity == .error }) else { continue }
            pending[tablePath] = bytes
          } else {
            bytes = try pending[tablePath] ?? FileIO.read(tablePath)
          }
          let catalog = try StringCatalog(bytes: bytes, path: tablePath)
          if catalog.sourceLanguage != file.sourceLanguage {
            fail(
              "source-language \(file.sourceLanguage) is not the catalog's (\(catalog.sourceLanguage))"
            )
            continue
          }
          let applied = try CatalogExchange.apply(
            file, to: catalog, xliffPath: xliffPath, cache: &cache)
          plan.diagnostics += applied.diagnostics
          plan.refused += applied.refused
          if let bytes = applied.bytes {
            pending[tablePath] = bytes
            plan.changes.append((tablePath, applied.changed))
          } else if missing {
            // Created with no translation to apply (the development language's file): its
            // units are what it holds.
            plan.changes.append((tablePath, file.units.count))
          }
        case .strings, .stringsdict:
          guard
            var target = isInterface
              ? DocumentStrings.translationPath(tablePath, language: language)
              : StringsExchange.translatedPath(tablePath, language: language)
          else {
            fail("original \"\(file.original)\" is not in a <language>.lproj folder")
            continue
          }
          // The development language of a Base-localized table with no table of its own is
          // the Base table (the export gave its text as the targets).
          if !isInterface, language == file.sourceLanguage, location.language == "Base",
            pending[target] == nil, !FileIO.exists(target)
          {
            target = tablePath
          }
          // A table created on import is its own source: the development language's targets
          // are its text.
          if missing, language == file.sourceLanguage { target = tablePath }
          let lproj = Paths.parent(Paths.parent(target))
          guard let realParent = FileIO.realPath(lproj),
            realParent == realRoot
              || realParent.hasPrefix(realRoot + "/")
          else {
            fail("the \(language) table of \"\(file.original)\" would be written outside \(root)")
            continue
          }
          if let realTarget = FileIO.realPath(Paths.parent(target)),
            !realTarget.hasPrefix(realRoot + "/")
          {
            fail("\(language).lproj of \"\(file.original)\" leads out of \(root) through a link")
            continue
          }
          // The table itself may be a link: followed only when it stays in the project (a
          // dangling one would create its target wherever it points).
          if FileIO.linkDestination(target) != nil,
            !(FileIO.realPath(target)?.hasPrefix(realRoot + "/") ?? false)
          {
            fail(
              "the \(language) table of \"\(file.original)\" is a link that leads out of \(root): not written through"
            )
            continue
          }
          let existing = try pending[target] ?? (FileIO.exists(target) ? FileIO.read(target) : nil)
          let applied: CatalogExchange.Applied
          if location.kind == .strings {
            // A document's source is the table ibtool would write for it.
            let source =
              isInterface
              ? try StringsFile(
                bytes: DocumentStrings.stringsTable(
                  DocumentStrings.entries(FileIO.read(tablePath), path: tablePath)),
                path: tablePath)
              : missing
                ? try StringsFile(bytes: [], path: tablePath)
                : try StringsFile(contentsOfFile: tablePath)
            applied = StringsExchange.apply(
              file, source: source,
              target: try existing.map { try StringsFile(bytes: $0, path: target) },
              xliffPath: xliffPath, addingUnknown: missing || target != tablePath,
              created: missing)
          } else {
            applied = try StringsExchange.apply(
              file, source: try StringsdictFile(contentsOfFile: tablePath),
              target: try existing.map { try StringsdictFile(bytes: $0, path: target) },
              xliffPath: xliffPath, cache: &cache)
          }
          plan.diagnostics += applied.diagnostics
          plan.refused += applied.refused
          if let bytes = applied.bytes {
            pending[target] = bytes
            plan.changes.append((target, applied.changed))
          }
        }
      }
    }
    if strict {
      plan.diagnostics += plan.refused
      plan.refused = []
    }
    if plan.diagnostics.contains(where: { $0.severity == .error }) {
      plan.changes = []
      return plan
    }
    plan.writes = pending.keys.sorted().compactMap { path in
      pending[path].map { Output(path: path, bytes: $0, confinedTo: realRoot) }
    }
    return plan
  }
}
