import ArgumentParser

/// `bundlekit archive`: create, list and extract archives.
struct ArchiveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "archive",
    abstract: "Create reproducible archives, list them, and extract them safely.",
    subcommands: [ArchiveCreate.self, ArchiveList.self, ArchiveExtract.self]
  )
}
