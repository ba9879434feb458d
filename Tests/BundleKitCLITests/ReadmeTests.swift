import BundleKitTestSupport
import Foundation
import Testing

/// The commands of the README and of the tool's manual (bundlekit.docc) run as written and
/// print what the page shows (ReadmeCheck says how blocks are marked). Blocks with `bundlekit
/// translate` run in BundleKitTranslate's tests, where its helper is built.
@Suite struct ReadmeTests {
  @Test func everyBlockHoldsAgainstTheBuiltTool() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built")
    let root = Corpus.packageRoot
    let outcome = try ReadmeCheck.checkAll(tool: tool, packageRoot: root) { block in
      block.usesTranslate ? "bundlekit translate: checked in Packages/BundleKitTranslate" : nil
    }
    for skipped in outcome.skipped { print("documentation check skipped \(skipped)") }
    #expect(outcome.checked.count >= 15, "checked only \(outcome.checked)")
    #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
    // Every page of the manual that shows commands has some checked here, and the README
    // too (installing needs the network; translate is checked with its helper).
    let unchecked = ["bundlekit.md", "Architecture.md", "Translate.md", "Installing.md"]
    for page in try ReadmeCheck.pages(packageRoot: root)
    where !unchecked.contains(page.lastPathComponent) {
      let name = page.path.dropFirst(root.path.count + 1)
      #expect(
        outcome.checked.contains { $0.hasPrefix(name + ":") }, "no command of \(name) was checked")
    }
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
