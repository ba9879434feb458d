import ArgumentParser

/// `bundlekit strings`: check and compile strings tables.
struct StringsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "strings",
    abstract: "Check and compile .strings, .stringsdict and .xcstrings tables.",
    subcommands: [
      StringsLint.self, StringsCompile.self, StringsGenerate.self, StringsLookup.self,
      StringsCoverage.self, StringsPseudo.self, StringsExtract.self, StringsSync.self,
      StringsExport.self, StringsImport.self,
    ]
  )
}
