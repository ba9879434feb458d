import BundleKitTestSupport
import Testing

@testable import BundleKitVersioning

/// The folder name a bump shows for each Info.plist (its target, for a plain folder), found
/// on the bytes from the end, against the `split` it replaced.
struct FolderNameTests {
  @Test("folderName(of:): the next-to-last non-empty component, as splitting the path gives")
  func asSplitting() {
    let seed = SeededGenerator.seed("FolderNameTests.asSplitting")
    var generator = SeededGenerator(seed: seed)
    let parts = ["", ".", "..", "App", "Info.plist", "é", "日本", "a b"]
    for round in 0..<5_000 {
      let path = generator.path(of: parts)
      let split = path.split(separator: "/")
      let expected = split.count >= 2 ? String(split[split.count - 2]) : "."
      #expect(
        VersionInventory.folderName(of: path) == expected, "round \(round) (seed \(seed)): \(path)")
    }
    #expect(VersionInventory.folderName(of: "t1/Target5/Info.plist") == "Target5")
    #expect(VersionInventory.folderName(of: "Info.plist") == ".")
    #expect(VersionInventory.folderName(of: "/App//Info.plist/") == "App")
  }
}
