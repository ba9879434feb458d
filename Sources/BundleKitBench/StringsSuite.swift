import Foundation
import PropertyList
import StringsTable

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

    let ours = try Bench.median {
      let file = try StringsFile(bytes: bytes, path: input)
      _ = try PropertyListValue.dictionary(file.dictionary).encoded(as: .binary1)
    }
    let data = Data(bytes)
    let foundation = try Bench.median {
      let object = try PropertyListSerialization.propertyList(from: data, format: nil)
      _ = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("bundlekit").path
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
        Bench.Row(work: "parse + write binary, in process", ours: ours, peers: [foundation, nil]),
        Bench.Row(
          work: "whole command: `bundlekit strings compile` (checks included)",
          ours: oursProcess ?? .nan,
          peers: [nil, plutil], note: oursProcess == nil ? "build the bundlekit product too" : ""),
      ])
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

extension PropertyListValue {
  fileprivate var sortedByKey: [String: PropertyListValue] {
    Dictionary(uniqueKeysWithValues: (dictionaryValue ?? [:]).map { ($0.key, $0.value) })
  }
}
