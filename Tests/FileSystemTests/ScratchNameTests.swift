import Testing

@testable import BundleKitFileSystem

/// The names of temporary files: `.<name>~bundlekit-<transaction>.<n>`, at most 250 bytes (a
/// long name cut at a character boundary), and recognised as the transaction's.
struct ScratchNameTests {
  @Test(
    "a temporary file's name is the name, the marker, the transaction and the number",
    arguments: [
      ("Info.plist", 0, ".Info.plist~bundlekit-yyyyyyz2k.0"),
      ("Localizable.strings", 35, ".Localizable.strings~bundlekit-yyyyyyz2k.z"),
      ("Приложение.plist", 36, ".Приложение.plist~bundlekit-yyyyyyz2k.10"),
      ("e\u{301}", 1_000, ".e\u{301}~bundlekit-yyyyyyz2k.rs"),
    ])
  func named(_ name: String, _ index: Int, _ expected: String) {
    let made = ScratchFiles.temporaryName(for: name, transaction: "yyyyyyz2k", index: index)
    #expect(made == expected)
    #expect(ScratchFiles.kind(of: made) == .temporary(transaction: "yyyyyyz2k"))
  }

  @Test("a name too long for a file system is cut at a character boundary, to 250 bytes")
  func longNamesCut() {
    for name in [
      String(repeating: "a", count: 300), String(repeating: "日本", count: 80),
      String(repeating: "e\u{301}", count: 90), String(repeating: "b", count: 228),
    ] {
      let made = ScratchFiles.temporaryName(for: name, transaction: "yyyyyyz2k", index: 7)
      #expect(made.utf8.count <= 250)
      #expect(made.hasSuffix("~bundlekit-yyyyyyz2k.7"))
      let kept = made.dropFirst().dropLast("~bundlekit-yyyyyyz2k.7".count)
      #expect(name.hasPrefix(kept) && !kept.isEmpty)
      #expect(ScratchFiles.kind(of: made) == .temporary(transaction: "yyyyyyz2k"))
    }
    // 250 bytes exactly: kept whole.
    let fits = String(repeating: "b", count: 227)
    #expect(
      ScratchFiles.temporaryName(for: fits, transaction: "yyyyyyz2k", index: 7)
        == "." + fits + "~bundlekit-yyyyyyz2k.7")
  }
}
