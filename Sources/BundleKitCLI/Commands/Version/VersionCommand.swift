import ArgumentParser
import PropertyList
import Versioning

/// `bundlekit version [PATH...]`: every Info.plist's versions.
struct VersionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "version",
    abstract: "Show the version and build number of every Info.plist and Xcode project found.",
    discussion: """
      PATH may be Info.plists, .xcodeproj folders or folders to search (default: the current \
      folder), skipping .build, DerivedData, Pods, Carthage and .git. $(SETTING) references \
      are resolved through .xcconfig files beside the Info.plist or the Xcode project above it.
      """
  )

  @Argument(help: "Info.plists, .xcodeproj folders, or folders to search.")
  var paths: [String] = ["."]

  @Flag(help: "Also take test bundles.")
  var includeTests = false

  @Option(help: "Output: text or json.")
  var format: OutputFormat = .text

  func run() throws {
    let inventory = try VersionInventory(paths: paths, includeTests: includeTests)
    guard !inventory.bundles.isEmpty else { throw VersioningError.nothingFound(paths: paths) }
    switch format {
    case .json:
      let rows = inventory.bundles.map { bundle -> PropertyListValue in
        var row: PropertyListDictionary = [
          "path": .string(bundle.path), "target": .string(bundle.target),
          "format": .string(bundle.format),
        ]
        if let version = bundle.version {
          row["CFBundleShortVersionString"] = .string(version.current)
        }
        if let build = bundle.build { row["CFBundleVersion"] = .string(build.current) }
        let sources = Set(
          ([bundle.version, bundle.build].compactMap { $0 }).flatMap(\.places).map(\.file)
        ).sorted()
        row["definedIn"] = .array(sources.map { .string($0) })
        return .dictionary(row)
      }
      Diagnostics.writeToStandardOutput(try PropertyListValue.array(rows).encoded(as: .json))
    case .text:
      var table = [["PATH", "TARGET", "VERSION", "BUILD", "FORMAT"]]
      for bundle in inventory.bundles {
        table.append([
          bundle.path, bundle.target, Self.show(bundle.version, of: bundle),
          Self.show(bundle.build, of: bundle), bundle.format,
        ])
      }
      Diagnostics.writeToStandardOutput(Array(TextTable.render(table).utf8))
    }
  }

  /// A value, with where it comes from when that is not the file itself.
  static func show(_ value: VersionValue?, of bundle: VersionedBundle) -> String {
    guard let value else { return "-" }
    let elsewhere = Set(value.places.map(\.file)).filter {
      $0 != bundle.path && !$0.hasPrefix(bundle.path + "/")
    }.sorted()
    return elsewhere.isEmpty
      ? value.current : "\(value.current) (\(elsewhere.joined(separator: ", ")))"
  }
}
