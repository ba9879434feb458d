import BundleKitFileSystem
import Foundation

/// The `localize` suite: `bundlekit strings extract` and `sync` on a target of 2,000 SwiftUI
/// files (as a large app's views read: bodies with Text, Button, Label, alerts, interpolated
/// counts and names, tables and comments), against the compiler only parsing the same files
/// (`swiftc -frontend -parse`): the least any tool that reads Swift as Swift must do.
enum LocalizeSuite {
  static let fileCount = 2_000

  static func run() throws {
    print("## localize: extract and sync a target of \(fileCount) Swift files\n")
    // Built by its own package: Packages/BundleKitLocalize (release), or BUNDLEKIT_LOCALIZE.
    let tool =
      ProcessInfo.processInfo.environment["BUNDLEKIT_LOCALIZE"]
      ?? URL(
        fileURLWithPath: Bench.script(
          "../Packages/BundleKitLocalize/.build/release/bundlekit-localize")
      ).standardizedFileURL.path
    guard FileManager.default.isExecutableFile(atPath: tool), let swiftc = Bench.which("swiftc")
    else {
      print(
        "needs bundlekit-localize (swift build -c release --package-path Packages/BundleKitLocalize) and swiftc\n"
      )
      return
    }
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundlekit-bench-localize-\(getpid())"
    ).path
    defer { try? FileManager.default.removeItem(atPath: base) }
    let files = try makeTarget(base)
    let catalog = base + "/Resources/Localizable.xcstrings"
    let empty =
      "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n\n  },\n  \"version\" : \"1.0\"\n}"

    let parse = Bench.medianProcess(runs: 3, swiftc, ["-frontend", "-parse"] + files)
    let extract = Bench.medianProcess(runs: 3, tool, ["extract", base, "--format", "json"])
    // The first sync adds every key; each run starts from the empty catalog.
    var firstTimes: [Double] = []
    for _ in 0..<3 {
      try empty.write(toFile: catalog, atomically: true, encoding: .utf8)
      if let time = Bench.spawn(tool, ["sync", base]) { firstTimes.append(time) }
    }
    let first = firstTimes.sorted().dropFirst(firstTimes.count / 2).first
    // What CI runs on every change: the catalog is up to date, --check finds nothing.
    let check = Bench.medianProcess(runs: 3, tool, ["sync", base, "--check"])
    let keys =
      ((try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: catalog))))
      as? [String: Any]).flatMap { ($0["strings"] as? [String: Any])?.count } ?? 0

    var rows: [Bench.Row] = []
    for (work, time) in [
      ("extract (text of every string, JSON)", extract),
      ("sync: every key new (\(keys) keys written)", first),
      ("sync --check: up to date (the CI gate)", check),
    ] {
      guard let time else {
        print("\(work): failed\n")
        continue
      }
      rows.append(
        Bench.Row(
          work: work, ours: time, peers: [parse],
          note: time < 5 ? "under the 5 s goal" : "OVER the 5 s goal"))
    }
    Bench.printTable(
      title: "\(fileCount) files, one process each run (start-up included), median of 3",
      peers: ["swiftc -frontend -parse"], rows: rows)
  }

  /// A target of `fileCount` view files and an empty catalog; returns the Swift files.
  static func makeTarget(_ base: String) throws -> [String] {
    try FileManager.default.createDirectory(
      atPath: base + "/Resources", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: base + "/Sources/Views", withIntermediateDirectories: true)
    var files: [String] = []
    for index in 0..<fileCount {
      let feature = "Feature\(index % 40)"
      let source = """
        import SwiftUI

        struct \(feature)Row\(index): View {
          let item: Item
          let count: Int
          let ratio: Double
          @State private var showsDelete = false
          @State private var isOn = false

          var body: some View {
            VStack(alignment: .leading, spacing: 4) {
              Text("\(feature) item \(index)")
              Text("\\(count) replies in thread \(index)", comment: "Replies under a post")
              Text("By \\(item.author) in \(feature)")
              Label("Share \(index)", systemImage: "square.and.arrow.up")
              Toggle("Notify me \(index % 50)", isOn: $isOn)
              Text(verbatim: "id-\(index)")
              Text(String(format: "%.0f%%", ratio * 100))
              Button("Delete") { showsDelete = true }
            }
            .navigationTitle("\(feature)")
            .alert("Delete item \(index)?", isPresented: $showsDelete) {
              Button("Cancel", role: .cancel) {}
            }
            .accessibilityLabel(String(localized: "row.\(index).label", defaultValue: "Row \(index)", comment: "VoiceOver label of a row"))
          }
        }

        """
      let path = base + "/Sources/Views/\(feature)Row\(index).swift"
      try source.write(toFile: path, atomically: false, encoding: .utf8)
      files.append(path)
    }
    return files
  }
}
