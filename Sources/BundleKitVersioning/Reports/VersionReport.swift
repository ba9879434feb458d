import Foundation

// What `version` and `bump` report: Apple's rules about numbers (the App Store's, the
// documented three components), and the rows their JSON is made of.

extension VersionInventory {
  /// For each embedded target whose build number differs from its app's, by label, why the
  /// App Store refuses it. Only what must carry its app's number is compared: an embedded
  /// framework, XPC service or helper keeps its own.
  public var buildNumberMismatches: [String: String] {
    var result: [String: String] = [:]
    for bundle in bundles {
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
      let shown = { (text: String?) in text.map(ShownValue.of) ?? "?" }
      let detail = differing.map {
        "\($0): \(shown(ours.byConfiguration[$0])) vs \(shown(theirs.byConfiguration[$0]))"
      }.joined(separator: ", ")
      result[bundle.label] =
        "\(bundle.label): CFBundleVersion differs from the one of \(host), the app it is part of (\(plain ? "\(shown(ours.current)) vs \(shown(theirs.current))" : detail)); the App Store refuses that: bump build on \(host) brings them together"
    }
    return result
  }

  /// A message for each value Xcode builds but Apple documents otherwise: four components,
  /// or a marketing version with a pre-release part (`2.7.0-beta.1`).
  public var beyondApple: [String] {
    bundles.flatMap { bundle in
      [bundle.version, bundle.build].compactMap { value -> String? in
        guard let value else { return nil }
        if BundleVersion(value.current)?.hasMoreThanAppleDocuments == true {
          return BundleVersion.fourComponentsWarning(
            bundle.label, key: value.key, value: value.current)
        }
        if BundleVersion(value.current) == nil, PrereleaseVersion(value.current) != nil {
          return PrereleaseVersion.warning(bundle.label, key: value.key, value: value.current)
        }
        return nil
      }
    }
  }

  /// The rows `version --format json` prints, one per bundle.
  ///
  /// - Parameter mismatches: ``buildNumberMismatches``, when the caller has them already.
  public func report(mismatches: [String: String]? = nil) -> [VersionedBundle.Report] {
    let mismatches = mismatches ?? buildNumberMismatches
    return bundles.map { VersionedBundle.Report($0, mismatch: mismatches[$0.label]) }
  }
}

extension BundleVersion {
  /// The warning for a value with four components, where Apple documents at most three.
  public static func fourComponentsWarning(_ label: String, key: String, value: String) -> String {
    "\(label): \(key) \(value) has four components, where Apple documents at most three; Xcode builds it\(key == "CFBundleVersion" ? " and App Store Connect takes it" : ""), and the last one is raised"
  }
}

extension VersionedBundle {
  /// One bundle as `version --format json` prints it.
  public struct Report: Encodable, Sendable {
    /// One assignment followed to a value.
    public struct Step: Encodable, Sendable {
      /// `CFBundleVersion` or `CFBundleShortVersionString`.
      public var key: String
      /// The file that holds the assignment.
      public var file: String
      /// Its 1-based line.
      public var line: Int
      /// The setting assigned.
      public var setting: String
      /// The value as written.
      public var value: String
    }

    /// The Info.plist, or the `.xcodeproj`.
    public var path: String
    /// The target or folder name.
    public var target: String
    /// `xml1`, `binary1`, `project` ...
    public var format: String
    /// The product type without its prefix.
    public var kind: String?
    /// The target that embeds it.
    var embeddedIn: String?
    /// The app whose build number it carries.
    var buildNumberOf: String?
    /// The version.
    public var version: String?
    /// The build number.
    public var build: String?
    /// Each configuration's two values, when the target has configurations.
    var configurations: [String: [String: String]]?
    /// The files the values are written in.
    var definedIn: [String]
    /// The assignments followed to the values.
    var resolvedThrough: [Step]?
    /// Why values could not be resolved.
    public var problems: [String]?
    /// Why the App Store refuses its build number.
    public var mismatch: String?
    /// Why it was not read.
    public var missing: String?

    enum CodingKeys: String, CodingKey {
      case path, target, format, kind, embeddedIn, buildNumberOf, configurations, definedIn
      case resolvedThrough, problems, mismatch, missing
      case version = "CFBundleShortVersionString"
      case build = "CFBundleVersion"
    }

    /// The row of `bundle`, with the App Store's objection to it, if any.
    public init(_ bundle: VersionedBundle, mismatch: String?) {
      path = bundle.path
      target = bundle.target
      format = bundle.format.description
      kind = bundle.kind
      embeddedIn = bundle.host
      buildNumberOf = bundle.app
      version = bundle.version.map { ShownValue.of($0.current) }
      build = bundle.build.map { ShownValue.of($0.current) }
      let values = [bundle.version, bundle.build].compactMap { $0 }
      var configurations: [String: [String: String]] = [:]
      for value in values {
        for (name, text) in value.byConfiguration {
          configurations[name, default: [:]][value.key] = ShownValue.of(text)
        }
      }
      self.configurations = configurations.isEmpty ? nil : configurations
      definedIn = Set(values.flatMap(\.places).map(\.file)).sorted()
      let steps = values.flatMap { value in
        value.chain.map {
          Step(
            key: value.key, file: $0.file, line: $0.line, setting: $0.setting,
            value: ShownValue.of($0.value))
        }
      }
      resolvedThrough = steps.isEmpty ? nil : steps
      problems = bundle.problems.isEmpty ? nil : bundle.problems.map(\.message)
      self.mismatch = mismatch
      missing = bundle.missing
    }
  }
}

extension VersionBump.ValueChange {
  /// One changed value as `bump --format json` prints it.
  public struct Report: Encodable, Sendable {
    /// Where the value is written.
    public struct Place: Encodable, Sendable {
      /// The file, as the caller shows paths.
      public var file: String
      /// The 1-based line, when the file has lines.
      public var line: Int?
    }

    /// The key.
    public var key: String
    /// The value before.
    public var old: String
    /// The value after.
    public var new: String
    /// The bundles that show it.
    public var targets: [String]
    /// Where it is written.
    public var places: [Place]
  }

  /// The row of this change; `show` turns a file's path into the one printed (relative to
  /// the working folder, say).
  public func report(in files: [VersionBump.FileChange], show: (String) -> String = { $0 })
    -> Report
  {
    Report(
      key: key, old: old, new: new, targets: bundles,
      places: VersionBump.locations(of: self, in: files).map {
        Report.Place(file: show($0.file), line: $0.line)
      })
  }
}
