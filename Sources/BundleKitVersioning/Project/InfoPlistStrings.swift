import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList

/// The strings of each target's Info.plist that Xcode exports for translators as
/// `InfoPlist.strings` (`CFBundleDisplayName`, `NSCameraUsageDescription` ...), with the
/// values the built app gets: `$(PRODUCT_NAME)` and every other reference resolved through
/// the target's settings.
///
/// Xcode 11 to 16 export them for every app, extension and framework target with an
/// Info.plist file, as `<the Info.plist's folder>/<development language>.lproj/InfoPlist.strings`,
/// keys sorted, each with the key's name in Xcode's Info.plist editor as its comment (stats,
/// FocusedWork, Mastoot and tink's committed exports).
public enum InfoPlistStrings {
  /// One target's table.
  public struct Table: Sendable, Hashable {
    /// Where Xcode names the table: the target's own `InfoPlist.strings` (the development
    /// language's, else Base's) when it copies one, which Xcode exports with these keys added;
    /// else `<folder of the Info.plist>/<language>.lproj/InfoPlist.strings`, or
    /// `<folder of the Info.plist>/InfoPlist.xcstrings` where the target's settings prefer
    /// String Catalogs.
    public var path: String
    /// The Info.plist it is read from.
    public var infoPlist: String
    /// The target.
    public var target: String
    /// Its strings, sorted by key.
    public var entries: [Entry]
  }

  /// One localizable key of an Info.plist.
  public struct Entry: Sendable, Hashable {
    /// The key (`CFBundleName`).
    public var key: String
    /// The value the built product gets.
    public var value: String
    /// The key's name in Xcode's Info.plist editor (`Bundle name`), Xcode's comment.
    public var note: String
  }

  /// The comment Xcode gives each localizable key: its name in the Info.plist editor.
  static let names: [String: String] = [
    "CFBundleDisplayName": "Bundle display name",
    "CFBundleName": "Bundle name",
    "CFBundleSpokenName": "Accessibility Bundle Name",
    "CFBundleGetInfoString": "Get Info string",
    "NSHumanReadableCopyright": "Copyright (human-readable)",
    "NFCReaderUsageDescription": "Privacy - NFC Scan Usage Description",
    "NSAppleEventsUsageDescription": "Privacy - AppleEvents Sending Usage Description",
    "NSAppleMusicUsageDescription": "Privacy - Media Library Usage Description",
    "NSCalendarsWriteOnlyAccessUsageDescription":
      "Privacy - Calendars Write Only Usage Description",
    "NSHealthClinicalHealthRecordsShareUsageDescription":
      "Privacy - Health Records Usage Description",
    "NSLocationAlwaysAndWhenInUseUsageDescription":
      "Privacy - Location Always and When In Use Usage Description",
    "NSPhotoLibraryAddUsageDescription": "Privacy - Photo Library Additions Usage Description",
    "NSUserTrackingUsageDescription": "Privacy - Tracking Usage Description",
    "NSGKFriendListUsageDescription": "Privacy - GameKit Friend List Usage Description",
  ]

  /// Whether Xcode exports `key` for translation, and its comment: the keys above, and every
  /// other privacy usage description (`NS…UsageDescription`, named by its words:
  /// `NSFaceIDUsageDescription` is "Privacy - Face ID Usage Description").
  static func note(for key: String) -> String? {
    if let name = names[key] { return name }
    guard key.hasPrefix("NS"), key.hasSuffix("UsageDescription"), key.count > 18 else {
      return nil
    }
    let middle = key.dropFirst(2).dropLast("UsageDescription".count)
    // Words start at a capital that follows a lower-case letter, or that ends a run of
    // capitals (`FaceID` -> `Face ID`, `HomeKit` -> `Home Kit`, kept as Xcode writes it).
    var words: [String] = []
    var current = ""
    let characters = Array(middle)
    for (index, character) in characters.enumerated() {
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      let previous = index > 0 ? characters[index - 1] : nil
      let startsWord =
        character.isUppercase
        && (previous?.isLowercase == true
          || (previous?.isUppercase == true && next?.isLowercase == true))
      if startsWord, !current.isEmpty {
        words.append(current)
        current = ""
      }
      current.append(character)
    }
    if !current.isEmpty { words.append(current) }
    let known = ["Home Kit": "HomeKit", "Sensor Kit": "SensorKit"]
    var name = words.joined(separator: " ")
    for (split, kept) in known { name = name.replacingOccurrences(of: split, with: kept) }
    return "Privacy - \(name) Usage Description"
  }

  /// The tables of every Xcode project under `paths` (named, found in folders, or listed by
  /// a workspace there): one per target with an Info.plist file that has a localizable key.
  /// Test bundles have none to translate. Settings are read only inside `paths`. A project
  /// or Info.plist that cannot be read is a warning in `warnings`, and its tables are left out.
  public static func tables(
    in paths: [String], developmentLanguage: String, warnings: inout [Diagnostic]
  ) throws(VersioningError) -> [Table] {
    let scope = SettingsScope(paths: paths)
    var tables: [Table] = []
    let chains = XcconfigChains(scope: scope)
    for project in try XcodeProject.projects(
      in: paths, scope: scope, unread: "its targets' Info.plist strings are not exported",
      warnings: &warnings)
    {
      var versions = ProjectVersions(project: project, chains: chains)
      for target in project.targetList where target.buildsProduct && !target.isTest {
        guard target.versioning != .none, let configuration = target.exportConfiguration else {
          continue
        }
        do throws(VersioningError) {
          let stack = try versions.stack(for: target, configuration)
          if let table = try table(
            of: target, stack: stack, project: project, language: developmentLanguage,
            versions: &versions)
          {
            tables.append(table)
          }
        } catch {
          warnings += error.diagnostics.map {
            var diagnostic = $0
            diagnostic.severity = .warning
            diagnostic.notes.append(
              "the Info.plist strings of \(target.name) in \(project.path) are not exported")
            return diagnostic
          }
        }
      }
    }
    return tables.sorted { $0.path < $1.path }
  }

  /// One target's table, or nil when it has no Info.plist file (a generated one has no
  /// folder for Xcode to name) or no localizable key in it.
  private static func table(
    of target: XcodeProject.Target, stack: SettingsStack, project: XcodeProject,
    language: String, versions: inout ProjectVersions
  ) throws(VersioningError) -> Table? {
    let file: String?
    do {
      file = try stack.resolve("INFOPLIST_FILE")?.value
    } catch {
      throw .unreadable(path: project.path, line: nil, message: error.message)
    }
    guard let file, !file.isEmpty else { return nil }
    // A target that copies an InfoPlist table of its own (wherever it keeps it: FitTrackPro's
    // is in Resources/) is exported from that table, with the Info.plist's keys it lacks; a
    // catalog of its own Xcode keeps in step itself.
    let own = project.localizedResource(
      named: "InfoPlist.strings", of: target, language: language)
    if own == nil, project.resourceNames(of: target).contains("InfoPlist.xcstrings") {
      return nil
    }
    let plist = InfoPlistDiscovery.normalized(
      file.hasPrefix("/") ? file : Paths.join(project.sourceRoot, file))
    guard FileIO.exists(plist) else { return nil }
    let read: (bytes: [UInt8], document: PropertyListDocument)
    switch versions.plist(plist) {
    case .success(let value): read = value
    case .failure(let problem):
      throw .unreadable(path: plist, line: nil, message: problem.message)
    }
    guard case .dictionary(let dictionary) = read.document.value else { return nil }
    // Each key's text as the file has it, or as a setting resolved it.
    var values: [String: (text: String, resolved: Bool)] = [:]
    for (key, value) in dictionary {
      guard note(for: key) != nil, let text = value.stringValue else { continue }
      values[key] = (text, false)
    }
    // Generating the Info.plist from it, Xcode writes the INFOPLIST_KEY_ settings over it.
    let generates = (try? stack.resolve("GENERATE_INFOPLIST_FILE"))??.value == "YES"
    if generates {
      for level in stack.levels {
        for assignment in level.assignments
        where assignment.setting.hasPrefix("INFOPLIST_KEY_") {
          let key = String(assignment.setting.dropFirst("INFOPLIST_KEY_".count))
          guard note(for: key) != nil,
            let resolved = (try? stack.resolve(assignment.setting)) ?? nil
          else { continue }
          values[key] = (resolved.value, true)
        }
      }
      // The Info.plist Xcode generates always names the bundle (FitTrackPro's widget).
      if values["CFBundleName"] == nil {
        values["CFBundleName"] = ("$(PRODUCT_NAME)", false)
      }
    }
    var entries: [Entry] = []
    for key in values.keys.sorted() {
      guard let (text, resolved) = values[key], let note = note(for: key) else { continue }
      let origin = SettingAssignment(
        setting: key, value: text, file: plist, line: 1, place: .plist(path: plist, key: key))
      // A reference that cannot be resolved stays as written: that is what the app shows.
      let value = resolved ? text : (try? stack.evaluate(origin).value) ?? text
      entries.append(Entry(key: key, value: value, note: note))
    }
    guard !entries.isEmpty else { return nil }
    // With LOCALIZATION_PREFERS_STRING_CATALOGS (Xcode 15's templates), Xcode makes a String
    // Catalog beside the Info.plist (FitTrackPro's widget, Xcode 26.5).
    let prefersCatalogs =
      (try? stack.resolve("LOCALIZATION_PREFERS_STRING_CATALOGS"))??.value == "YES"
    return Table(
      path: own
        ?? Paths.join(
          Paths.parent(plist),
          prefersCatalogs ? "InfoPlist.xcstrings" : "\(language).lproj/InfoPlist.strings"),
      infoPlist: plist, target: target.name, entries: entries)
  }
}
