import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import Foundation

/// The `strings` suite: a 200,000-entry `.strings` file compiled to a binary plist by
/// BundleKit and by the toolchain's `plutil -convert binary1` (and Foundation in process).
enum StringsSuite {
  static let entryCount = 200_000

  static func makeTable() -> [UInt8] {
    var text = ""
    text.reserveCapacity(entryCount * 90)
    for index in 0..<entryCount {
      if index % 10 == 0 { text += "/* Section \(index / 10) */\n" }
      text +=
        "\"settings.section.item.\(index).title\" = \"Value for item \(index), à traduire\";\n"
    }
    return Array(text.utf8)
  }

  static func run() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-bench-strings-\(getpid())"
    ).path
    try FileManager.default.createDirectory(
      atPath: folder + "/en.lproj", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = makeTable()
    let input = folder + "/en.lproj/Localizable.strings"
    try FileIO.writeAtomically(bytes, to: input)
    print(
      "## strings: a \(entryCount)-entry .strings file (\(bytes.count / 1024) KiB) to a binary plist\n"
    )

    // What `strings compile` runs: a clean table goes straight from its bytes to the binary.
    let locations = try TableDiscovery.tables(in: [input])
    let ours = try Bench.median { _ = try StringsCompiler().compile(locations) }
    // The table model's road, which a table with findings (or other languages) takes.
    let model = try Bench.median {
      let file = try StringsFile(bytes: bytes, path: input)
      _ = try PropertyListValue.dictionary(file.dictionary).encoded(as: .binary1)
    }
    let data = Data(bytes)
    let foundation = try Bench.median {
      let object = try PropertyListSerialization.propertyList(from: data, format: nil)
      _ = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }
    let tool = Bench.bundlekit
    let oursProcess =
      FileManager.default.isExecutableFile(atPath: tool)
      ? Bench.medianProcess(tool, ["strings", "compile", input, "--output-dir", folder + "/out"])
      : nil
    let plutil = Bench.which("plutil").flatMap {
      Bench.medianProcess($0, ["-convert", "binary1", "-o", folder + "/plutil.bplist", input])
    }
    Bench.printTable(
      title: "strings", peers: ["Foundation", "plutil -convert binary1"],
      rows: [
        Bench.Row(
          work: "check + write binary, in process (`StringsCompiler`)", ours: ours,
          peers: [foundation, nil]),
        Bench.Row(
          work: "parse to the table model + write binary, in process", ours: model,
          peers: [foundation, nil]),
        Bench.Row(
          work: "whole command: `bundlekit strings compile` (checks included)",
          ours: oursProcess ?? .nan,
          peers: [nil, plutil],
          note: oursProcess == nil
            ? "build bundlekit too: " + Bench.buildHint : ""),
      ])
    try catalog(
      folder: folder, tool: FileManager.default.isExecutableFile(atPath: tool) ? tool : nil)
    try commented(folder: folder)
    // Same table either way.
    if let theirs = try? PropertyListDocument(contentsOfFile: folder + "/plutil.bplist").value,
      let mine = try? PropertyListDocument(
        contentsOfFile: folder + "/out/en.lproj/Localizable.strings"
      ).value
    {
      print(
        "plutil's and BundleKit's binaries hold the same table: \(theirs.sortedByKey == mine.sortedByKey)\n"
      )
    }
  }
}

extension StringsSuite {
  static let catalogKeys = 50_000

  /// A String Catalog of `catalogKeys` keys in three languages, with placeholders and
  /// comments, as Xcode lays it out.
  static func makeCatalog() -> [UInt8] {
    var text = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"
    for index in 0..<catalogKeys {
      text += "    \"settings.item.\(index)\" : {\n      \"comment\" : \"Item \(index)\",\n"
      text += "      \"localizations\" : {\n"
      let values = [
        ("de", "Wert \(index) für %@"), ("en", "Value \(index) for %@"),
        ("fr", "Valeur \(index) pour %@"),
      ]
      for (position, (language, value)) in values.enumerated() {
        text += "        \"\(language)\" : {\n          \"stringUnit\" : {\n"
        text += "            \"state\" : \"translated\",\n            \"value\" : \"\(value)\"\n"
        text += "          }\n        }\(position == 2 ? "" : ",")\n"
      }
      text += "      }\n    }\(index == catalogKeys - 1 ? "" : ",")\n"
    }
    text += "  },\n  \"version\" : \"1.0\"\n}\n"
    return Array(text.utf8)
  }

  /// Lint and compile of a large catalog (once quadratic: 8,000 keys took 14-22 s), against
  /// reading the same JSON with Foundation and Python: what any tool must at least do.
  static func catalog(folder: String, tool: String?) throws {
    let bytes = makeCatalog()
    let path = folder + "/Localizable.xcstrings"
    try FileIO.writeAtomically(bytes, to: path)
    print(
      "## strings: a \(catalogKeys)-key String Catalog, 3 languages (\(bytes.count / 1024) KiB)\n")
    let location = try TableDiscovery.tables(in: [path])
    let lint = Bench.median {
      let findings = StringsLinter().lint(location)
      precondition(findings.isEmpty, "the catalog should be clean: \(findings.prefix(3))")
    }
    let compile = try Bench.median { _ = try StringsCompiler().compile(location) }
    let data = Data(bytes)
    let foundation = try Bench.median { _ = try JSONSerialization.jsonObject(with: data) }
    let python = Bench.python3.flatMap {
      Bench.medianProcess($0, ["-c", "import json,sys; json.load(open(sys.argv[1]))", path])
    }
    var rows = [
      Bench.Row(work: "lint, in process", ours: lint, peers: [foundation, nil]),
      Bench.Row(work: "check + compile, in process", ours: compile, peers: [foundation, nil]),
    ]
    if let tool {
      let lintCommand = Bench.medianProcess(tool, ["strings", "lint", path]) ?? .nan
      let compileCommand =
        Bench.medianProcess(tool, ["strings", "compile", path, "--output-dir", folder + "/cat"])
        ?? .nan
      rows.append(
        Bench.Row(
          work: "whole command: `bundlekit strings lint`", ours: lintCommand, peers: [nil, python]))
      rows.append(
        Bench.Row(
          work: "whole command: `bundlekit strings compile`", ours: compileCommand,
          peers: [nil, python]))
    }
    Bench.printTable(
      title: "String Catalog",
      peers: ["Foundation JSONSerialization (parse only)", "python3 json.load (process)"],
      rows: rows)
  }
}

extension StringsSuite {
  static let languages = ["en", "de", "fr", "es", "it", "ja", "pt-BR", "zh-Hans"]

  /// `keys` entries per language, each with the comment genstrings writes above it.
  static func writeCommented(keys: Int, in folder: String) throws {
    for language in languages {
      var text = ""
      text.reserveCapacity(keys * 110)
      for index in 0..<keys {
        text +=
          "/* Title of the button that opens item \(index). */\n\"item.\(index).open\" = \"\(language) open %@ (\(index))\";\n\n"
      }
      let path = folder + "/\(language).lproj/Localizable.strings"
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(Array(text.utf8), to: path)
    }
  }

  /// Lint of commented tables in eight languages (once quadratic: 4,000 keys took 34 s), and
  /// whether it stays linear: 4x the entries must take less than 5x the time, else the
  /// bench fails.
  static func commented(folder: String) throws {
    let perLanguage = 25_000
    print(
      "## strings: lint of commented tables, \(languages.count) languages x \(perLanguage) keys (\(languages.count * perLanguage) entries)\n"
    )
    var times: [Double] = []
    for keys in [perLanguage / 4, perLanguage] {
      let root = folder + "/commented-\(keys)"
      try writeCommented(keys: keys, in: root)
      let locations = try TableDiscovery.tables(in: [root])
      times.append(
        Bench.median(runs: 3) {
          let findings = StringsLinter().lint(locations)
          precondition(findings.isEmpty, "the tables should be clean: \(findings.prefix(3))")
        })
    }
    let ratio = times[1] / times[0]
    Bench.printTable(
      title: "commented .strings", peers: ["a quarter of the entries"],
      rows: [
        Bench.Row(
          work: "lint, in process", ours: times[1], peers: [times[0]],
          note: String(format: "4x the entries take %.1fx the time", ratio))
      ])
    guard ratio < 5 else {
      print("FAIL: lint is not linear: 4x the entries took \(ratio)x the time")
      exit(1)
    }
  }
}

extension PropertyListValue {
  fileprivate var sortedByKey: [String: PropertyListValue] {
    Dictionary(uniqueKeysWithValues: (dictionaryValue ?? [:]).map { ($0.key, $0.value) })
  }
}
