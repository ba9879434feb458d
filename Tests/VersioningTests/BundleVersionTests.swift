import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

struct BundleVersionTests {
  @Test(
    "not versions: empty, five parts, empty parts, signs, letters, 2^32, spaces, wide digits",
    arguments: ["", "1.2.3.4.5", "1..2", "-1", "1.a", "4294967296", " 1", "1.0b2", "１"])
  func notVersions(text: String) {
    #expect(BundleVersion(text) == nil)
  }

  @Test("1 to 4 non-negative integers below 2^32; increments and semantic bumps")
  func rules() {
    #expect(BundleVersion("42")?.description == "42")
    #expect(BundleVersion("1.2.3")?.components == [1, 2, 3])
    #expect(BundleVersion("4294967295") != nil)
    #expect(BundleVersion("1.2.9")?.incremented()?.description == "1.2.10")
    #expect(BundleVersion("4294967295")?.incremented() == nil)
    #expect(BundleVersion("1.4.9")?.bumped(.minor)?.description == "1.5.0")
    #expect(BundleVersion("2.1")?.bumped(.minor)?.description == "2.2")
    #expect(BundleVersion("2.1")?.bumped(.patch)?.description == "2.1.1")
    #expect(BundleVersion("2")?.bumped(.major)?.description == "3")
    #expect(BundleVersion("1.10")! > BundleVersion("1.9")!)
    // Four components, as shipping apps' build numbers have them: read, raised at the end,
    // flagged.
    #expect(BundleVersion("7.75.0.3")?.incremented()?.description == "7.75.0.4")
    #expect(BundleVersion("7.75.0.3")?.hasMoreThanAppleDocuments == true)
    #expect(BundleVersion("7.75.0")?.hasMoreThanAppleDocuments == false)
    #expect(BundleVersion("7.75.0.3")?.bumped(.minor)?.description == "7.76.0.0")
    // Zero-padded components keep their width (date versions).
    #expect(BundleVersion("26.07.5")?.bumped(.patch)?.description == "26.07.6")
    #expect(BundleVersion("26.07.5")?.bumped(.minor)?.description == "26.08.0")
    #expect(BundleVersion("2026.09")?.incremented()?.description == "2026.10")
    #expect(BundleVersion("007")?.incremented()?.description == "008")
    #expect(BundleVersion("26.07")! == BundleVersion("26.7")!)
    #expect(BundleVersion("1.0")! == BundleVersion("1")!)
    #expect(buildSettingReference(in: "$(CURRENT_PROJECT_VERSION)") == "CURRENT_PROJECT_VERSION")
    #expect(buildSettingReference(in: "${MARKETING_VERSION}") == "MARKETING_VERSION")
    #expect(buildSettingReference(in: "1.0") == nil)
  }
}
