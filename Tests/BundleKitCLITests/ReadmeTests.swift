import BundleKitTestSupport
import Foundation
import Testing

/// The README's commands run as written and print what it shows (ReadmeCheck says how blocks
/// are marked). Blocks with `bundlekit translate` run in BundleKitTranslate's tests, where
/// its helper is built.
@Suite struct ReadmeTests {
  @Test func everyBlockHoldsAgainstTheBuiltTool() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built")
    let root = Corpus.packageRoot
    let outcome = try ReadmeCheck.check(
      readme: root.appendingPathComponent("README.md"), tool: tool, packageRoot: root
    ) { block in
      block.usesTranslate ? "bundlekit translate: checked in Packages/BundleKitTranslate" : nil
    }
    for skipped in outcome.skipped { print("README check skipped \(skipped)") }
    #expect(outcome.checked.count >= 12, "checked only \(outcome.checked)")
    #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
  }

  @Test func masksWhatChangesBetweenMachines() {
    #expect(
      ReadmeCheck.mask("written:  x.tar.gz (983 bytes, sha256 c571c34a…)")
        == "written:  x.tar.gz (<n> bytes, sha256 <hash>)")
    #expect(ReadmeCheck.mask("indexed in 1.3 s") == "indexed in <t> s")
    #expect(
      ReadmeCheck.options(in: "bundlekit archive extract ARCHIVE -C DIR [--max-size BYTES]")
        == ["-C", "--max-size"])
  }
}
