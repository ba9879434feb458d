import ArgumentParser
import CommandLineTool
import Diagnostics
import FileSystem
import PropertyListXML
import Versioning

/// `bundlekit version [PATH...]`: every bundle's versions, as Xcode resolves them.
struct VersionCommand: ParsableCommand {
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

  @OptionGroup var formatOptions: FormatOptions

  func run() throws {
    let inventory = try formatOptions.reportingFailures {
      let inventory = try VersionInventory(
        paths: paths, includeTests: includeTests, targets: target.isEmpty ? nil : Set(target))
      guard !inventory.bundles.isEmpty else { throw VersioningError.nothingFound(paths: paths) }
      return inventory
    }
    let mismatches = Self.mismatches(inventory.bundles)
    switch formatOptions.format {
    case .json:
      let rows = inventory.bundles.map { Self.json($0, mismatch: mismatches[$0.label]) }
      StandardStreams.writeToStandardOutput(
        try PropertyListValue.array(rows).encoded(as: .json))
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
    for note in inventory.notes { StandardStreams.printToStandardError("note: " + note) }
    let missing = inventory.bundles.compactMap(\.missing)
    for message in missing + mismatches.values.sorted() + Self.beyondApple(inventory.bundles) {
      StandardStreams.printToStandardError("warning: " + message)
    }
    let problems = inventory.bundles.flatMap(\.problems)
    for problem in problems { StandardStreams.printToStandardError(problem.message) }
    if !problems.isEmpty { throw ExitCode(1) }
  }

  /// A message for each value with four components, where Apple documents three.
  static func beyondApple(_ bundles: [VersionedBundle]) -> [String] {
    bundles.flatMap { bundle in
      [bundle.version, bundle.build].compactMap { value -> String? in
        guard let value, BundleVersion(value.current)?.hasMoreThanAppleDocuments == true else {
          return nil
        }
        return Self.fourComponents(bundle.label, key: value.key, value: value.current)
      }
    }
  }

  /// The warning for a value with four components.
  static func fourComponents(_ label: String, key: String, value: String) -> String {
    "\(label): \(key) \(value) has four components, where Apple documents at most three; Xcode builds it\(key == "CFBundleVersion" ? " and App Store Connect takes it" : ""), and the last one is raised"
  }

  /// For each embedded target whose build number differs from its host's, a message.
  static func mismatches(_ bundles: [VersionedBundle]) -> [String: String] {
    var result: [String: String] = [:]
    for bundle in bundles {
      // Only what must carry its app's number: an embedded framework or helper keeps its own.
      guard let host = bundle.app,
        let app = bundles.first(where: { $0.path == bundle.path && $0.target == host }),
        let ours = bundle.build, let theirs = app.build
      else { continue }
      let configurations = Set(ours.byConfiguration.keys).intersection(theirs.byConfiguration.keys)
      let differing = configurations.sorted().filter {
        ours.byConfiguration[$0] != theirs.byConfiguration[$0]
      }
      let plain = configurations.isEmpty && ours.current != theirs.current
      guard plain || !differing.isEmpty else { continue }
      let detail = differing.map {
        "\($0): \(ours.byConfiguration[$0] ?? "?") vs \(theirs.byConfiguration[$0] ?? "?")"
      }.joined(separator: ", ")
      result[bundle.label] =
        "\(bundle.label): CFBundleVersion differs from the one of \(host), the app it is part of (\(plain ? "\(ours.current) vs \(theirs.current)" : detail)); the App Store refuses that: bump build on \(host) brings them together"
    }
    return result
  }

  /// A value for the table: per configuration when they differ, with where it is defined
  /// when that is not the row's own file; `error` when it could not be resolved.
  static func show(_ value: VersionValue?, of bundle: VersionedBundle, key: String) -> String {
    if bundle.missing != nil { return "missing (below)" }
    if bundle.problems.contains(where: { $0.key == key || $0.key == nil }) {
      return "error (below)"
    }
    guard let value else { return "-" }
    var text = value.current
    let distinct = Set(value.byConfiguration.values)
    if distinct.count > 1 {
      text = value.byConfiguration.keys.sorted().map {
        "\(value.byConfiguration[$0] ?? "") (\($0))"
      }
      .joined(separator: ", ")
    }
    let elsewhere = Set(value.places.map(\.file)).filter {
      $0 != bundle.path && !$0.hasPrefix(bundle.path + "/")
    }.sorted()
    return elsewhere.isEmpty ? text : "\(text) (\(elsewhere.joined(separator: ", ")))"
  }

  static func json(_ bundle: VersionedBundle, mismatch: String?) -> PropertyListValue {
    var row: PropertyListDictionary = [
      "path": .string(bundle.path), "target": .string(bundle.target),
      "format": .string(bundle.format.description),
    ]
    if let kind = bundle.kind { row["kind"] = .string(kind) }
    if let host = bundle.host { row["embeddedIn"] = .string(host) }
    if let app = bundle.app { row["buildNumberOf"] = .string(app) }
    if let version = bundle.version { row["CFBundleShortVersionString"] = .string(version.current) }
    if let build = bundle.build { row["CFBundleVersion"] = .string(build.current) }
    var configurations: PropertyListDictionary = [:]
    for (key, value) in [
      ("CFBundleShortVersionString", bundle.version), ("CFBundleVersion", bundle.build),
    ] {
      for (name, text) in value?.byConfiguration ?? [:] {
        var entry = configurations[name]?.dictionaryValue ?? [:]
        entry[key] = .string(text)
        configurations[name] = .dictionary(entry)
      }
    }
    if !configurations.isEmpty {
      configurations.sort { $0.key < $1.key }
      row["configurations"] = .dictionary(configurations)
    }
    let sources = Set(
      ([bundle.version, bundle.build].compactMap { $0 }).flatMap(\.places).map(\.file)
    ).sorted()
    row["definedIn"] = .array(sources.map { .string($0) })
    var places: [PropertyListValue] = []
    for (key, value) in [
      ("CFBundleShortVersionString", bundle.version), ("CFBundleVersion", bundle.build),
    ] {
      for assignment in value?.chain ?? [] {
        places.append(
          .dictionary([
            "key": .string(key), "file": .string(assignment.file), "line": .int(assignment.line),
            "setting": .string(assignment.setting), "value": .string(assignment.value),
          ]))
      }
    }
    if !places.isEmpty { row["resolvedThrough"] = .array(places) }
    if !bundle.problems.isEmpty {
      row["problems"] = .array(bundle.problems.map { .string($0.message) })
    }
    if let mismatch { row["mismatch"] = .string(mismatch) }
    if let missing = bundle.missing { row["missing"] = .string(missing) }
    return .dictionary(row)
  }
}
