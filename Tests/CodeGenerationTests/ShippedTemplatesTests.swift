import BundleKitTemplates
import BundleKitTestSupport
import Foundation
import Testing

/// The templates compiled into the tool are the files in Templates/, byte for byte: an edit
/// to a template without `Scripts/embed-templates.py` fails here.
struct ShippedTemplatesTests {
  @Test("every file under Templates/ is shipped as it is, and nothing else is")
  func shippedEqualsFolder() throws {
    let root = Corpus.packageRoot.appendingPathComponent("Templates")
    var onDisk: [String: String] = [:]
    for kind in ["strings", "bundle"] {
      let folder = root.appendingPathComponent(kind)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        onDisk["\(kind)/\(name)"] = try String(
          contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      }
      let shipped = BundleKitTemplates.templates(kind)
      #expect(
        Set(shipped.keys.map { "\(kind)/\($0)" })
          == Set(onDisk.keys.filter { $0.hasPrefix(kind + "/") }),
        "run Scripts/embed-templates.py")
    }
    #expect(onDisk.count >= 3)
    for (path, text) in onDisk {
      #expect(
        BundleKitTemplates.text(path) == text, "\(path) differs: run Scripts/embed-templates.py")
    }
  }
}
