import BundleKitFileSystem
import BundleKitLocalization
import BundleKitPropertyList
import Foundation

/// The `runtime` suite: BundleKit's Localization runtime against Foundation's Bundle on the
/// same compiled tables: a cached lookup, a plural lookup, and loading a 10,000-key table.
enum RuntimeSuite {
  static let keyCount = 10_000

  static func run() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-bench-runtime-\(getpid())"
    ).path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for language in ["en", "fr"] {
      var table = PropertyListDictionary()
      for index in 0..<keyCount {
        table["key.\(index)"] = .string("\(language) value \(index) for %@")
      }
      let path = "\(folder)/\(language).lproj/Localizable.strings"
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(
        try PropertyListValue.dictionary(table).encoded(as: .binary1), to: path)
      let plurals: PropertyListValue = [
        "%d files": [
          "NSStringLocalizedFormatKey": "%#@files@",
          "files": [
            "NSStringFormatSpecTypeKey": "NSStringPluralRuleType",
            "NSStringFormatValueTypeKey": "d", "one": "%d file", "other": "%d files",
          ],
        ]
      ]
      try FileIO.writeAtomically(
        try plurals.encoded(as: .binary1), to: "\(folder)/\(language).lproj/Localizable.stringsdict"
      )
    }
    print("## runtime: lookups in a compiled \(keyCount)-key table\n")
    let iterations = 200_000
    let strings = LocalizedStrings(path: folder)
    _ = strings.localized("key.1", language: "fr")
    let lookup =
      Bench.median {
        for index in 0..<iterations { _ = strings.localized("key.\(index % 1000)", language: "fr") }
      } / Double(iterations)
    let formatted =
      Bench.median {
        for index in 0..<iterations / 10 {
          _ = strings.localized("key.\(index % 1000)", language: "fr", arguments: ["x"])
        }
      } / Double(iterations / 10)
    let plural =
      Bench.median {
        for index in 0..<iterations / 10 {
          _ = strings.localized("%d files", language: "en", arguments: [index])
        }
      } / Double(iterations / 10)
    let load = Bench.median {
      let fresh = LocalizedStrings(path: folder)
      _ = fresh.localized("key.1", language: "en")
    }
    let french = Bundle(path: folder + "/fr.lproj")
    _ = french?.localizedString(forKey: "key.1", value: nil, table: nil)
    let foundationLookup =
      Bench.median {
        for index in 0..<iterations {
          _ = french?.localizedString(forKey: "key.\(index % 1000)", value: nil, table: nil)
        }
      } / Double(iterations)
    let foundationLoad = Bench.median {
      let fresh = Bundle(path: folder + "/en.lproj")
      _ = fresh?.localizedString(forKey: "key.1", value: nil, table: nil)
    }
    Bench.printTable(
      title: "runtime", peers: ["Foundation Bundle"],
      rows: [
        Bench.Row(
          work: "cached lookup (key string built each time)", ours: lookup,
          peers: [foundationLookup]),
        Bench.Row(work: "lookup + format one %@", ours: formatted, peers: [nil]),
        Bench.Row(
          work: "plural lookup (CLDR rules) + format", ours: plural, peers: [nil],
          note: "Foundation crashes on .stringsdict keys on Linux"),
        Bench.Row(
          work: "first lookup: load a \(keyCount)-key compiled table", ours: load,
          peers: [foundationLoad],
          note: "Foundation keeps bundles and tables cached by path across instances"),
      ])
  }
}
