import ArgumentParser
import BundleKitFileSystem
import BundleKitPropertyList

/// `bundlekit plist`: read, edit, convert and check property lists.
struct PlistCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plist",
    abstract: "Read, edit, convert and check property lists (XML, binary, OpenStep, JSON).",
    subcommands: [
      PlistPrint.self, PlistGet.self, PlistSet.self, PlistRemove.self, PlistConvert.self,
      PlistLint.self,
    ]
  )
}

extension PropertyListFormat: ExpressibleByArgument {}
