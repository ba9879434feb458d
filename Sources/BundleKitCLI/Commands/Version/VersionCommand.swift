import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitVersioning
import _BundleKitCommandLineTool

/// `bundlekit version [PATH...]`: every bundle's versions, as Xcode resolves them.
struct VersionCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "version",
    abstract: "Show the version and build number of every Xcode target and Info.plist found.",
    discussion: """
      PATH may be Info.plists, .xcodeproj or .xcworkspace folders, or folders to search \
      (default: the current folder), skipping .build, DerivedData, Pods, Carthage and .git. \
      A project's targets are resolved as Xcode resolves them: the Info.plist, or for a \
      generated one the build setting, each $(SETTING) followed through the target's \
      settings, its .xcconfig (and #includes), the project's settings and the project's \
      .xcconfig. Other Info.plists are read with an .xcconfig beside or above them. Read \
      only: a value that cannot be resolved is reported on its row and below the table, \
      the rest still prints (exit 1). An extension, widget or watch app whose build number \
      differs from its app's is flagged (the App Store refuses it); embedded frameworks, XPC \
      services, helper tools and login items keep numbers of their own. Libraries, \
      aggregate targets and tools without an Info.plist have no version and are not listed.
      """
  )

  @Argument(help: "Info.plists, .xcodeproj or .xcworkspace folders, or folders to search.")
  var paths: [String] = ["."]

  @Flag(help: "Also take test bundles and test targets.")
  var includeTests = false

  @Option(help: "Only these targets (and what they embed; repeatable).")
  var target: [String] = []

  @Flag(
    help:
      "Read settings files outside the paths given, where the project, a spec or an #include lead (refused otherwise: a checkout may point anywhere, ~/.aws/credentials too)."
  )
  var allowOutside = false

  @OptionGroup var formatOptions: FormatOptions

  func run(_ run: ToolRun) throws {
    let inventory = try formatOptions.reportingFailures(in: run) {
      let inventory = try VersionInventory(
        paths: paths, includeTests: includeTests, targets: target.isEmpty ? nil : Set(target),
        allowOutside: allowOutside)
      guard !inventory.bundles.isEmpty else { throw VersioningError.nothingFound(paths: paths) }
      return inventory
    }
    let mismatches = inventory.buildNumberMismatches
    switch formatOptions.format(in: run) {
    case .json:
      StandardStreams.writeJSON(inventory.report(mismatches: mismatches))
    case .text:
      var table = [["PATH", "TARGET", "VERSION", "BUILD", "KIND"]]
      for bundle in inventory.bundles {
        var build = Self.show(bundle.build, of: bundle, key: "CFBundleVersion")
        if mismatches[bundle.label] != nil { build += " (differs from its app)" }
        table.append([
          bundle.path, bundle.target,
          Self.show(bundle.version, of: bundle, key: "CFBundleShortVersionString"),
          build, bundle.kind ?? bundle.format.description,
        ])
      }
      StandardStreams.writeToStandardOutput(Array(TextTable.render(table).utf8))
    }
    let diagnostics = run.diagnostics
    for note in inventory.notes { diagnostics.note(note) }
    let missing = inventory.bundles.compactMap(\.missing)
    for message in missing + mismatches.values.sorted() + inventory.beyondApple {
      diagnostics.warning(message)
    }
    diagnostics.emit(inventory.bundles.flatMap(\.problems).map(\.diagnostic))
  }

  /// A value for the table: per configuration when they differ, with where it is defined
  /// when that is not the row's own file; `error` when it could not be resolved.
  static func show(_ value: VersionValue?, of bundle: VersionedBundle, key: String) -> String {
    if bundle.missing != nil { return "missing (below)" }
    if bundle.problems.contains(where: { $0.key == key || $0.key == nil }) {
      return "error (below)"
    }
    guard let value else { return "-" }
    var text = ShownValue.of(value.current)
    let distinct = Set(value.byConfiguration.values)
    if distinct.count > 1 {
      text = value.byConfiguration.keys.sorted().map {
        "\(ShownValue.of(value.byConfiguration[$0] ?? "")) (\($0))"
      }
      .joined(separator: ", ")
    }
    let elsewhere = Set(value.places.map(\.file)).filter {
      $0 != bundle.path && !$0.hasPrefix(bundle.path + "/")
    }.sorted()
    return elsewhere.isEmpty ? text : "\(text) (\(elsewhere.joined(separator: ", ")))"
  }
}

extension VersionCommand: ReportsFindingsInFormat {}
