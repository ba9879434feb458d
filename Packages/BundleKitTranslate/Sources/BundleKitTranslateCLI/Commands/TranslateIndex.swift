import ArgumentParser
import BundleKitDiagnostics
import BundleKitTranslation
import BundleKitTranslationPostgres
import _BundleKitCommandLineTool

/// `bundlekit translate index PATH... -o TM_FILE | --database URL`.
struct TranslateIndex: AsyncToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "Build a translation memory from .strings, .stringsdict and .xcstrings tables.",
    discussion: """
      PATH may be table files or folders (searched for <lang>.lproj tables and catalogs, text \
      or compiled; .build, .git and the like are skipped). The memory is one SQLite file, \
      replaced atomically: a failed build leaves the old one as it was. With --database, \
      the tables replace the project's entries in a PostgreSQL memory shared by many \
      projects, in one transaction (created on first use; other projects are not touched).
      """
  )

  @Argument(help: "Table files or folders to read.")
  var paths: [String]

  @Option(name: [.customShort("o"), .customLong("output")], help: "The memory file to write.")
  var output: String?

  @Option(help: "A PostgreSQL memory instead: postgres://USER@HOST:PORT/DATABASE.")
  var database: String?

  @Option(help: "The language of the source texts for <lang>.lproj tables.")
  var developmentLanguage = "en"

  @Option(help: "The project (app) the tables belong to, for a memory shared by several.")
  var project = ""

  @OptionGroup var formatOptions: FormatOptions

  func validate() throws {
    guard (output == nil) != (database == nil) else {
      throw ValidationError("give the memory as one of -o FILE or --database URL")
    }
  }

  func run(_ run: ToolRun) async throws {
    var builder = MemoryBuilder(developmentLanguage: developmentLanguage)
    builder.project = project
    let location = MemoryLocation(memory: output, database: database)
    let summary: MemoryBuilder.Summary
    if let postgres = try location.postgres() {
      let (records, files) = try builder.records(from: paths)
      let (language, project) = (developmentLanguage, project)
      summary = try await postgres.running {
        try await $0.write(
          records, developmentLanguage: language, replacingProject: project, files: files)
      }
    } else {
      summary = try builder.build(from: paths, to: output ?? "")
    }
    let output = location.name
    switch formatOptions.format(in: run) {
    case .json: StandardStreams.writeJSON(summary)
    case .text:
      StandardStreams.printLine(
        "\(output): \(summary.translations) translations of \(summary.units) entries in "
          + "\(summary.languages.count) languages from \(summary.files) files")
    }
  }
}
