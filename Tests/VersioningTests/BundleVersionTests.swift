import BundleKitTestSupport
import FileSystem
import Foundation
import PropertyListXML
import Testing
import Versioning

struct BundleVersionTests {
  @Test(
    "not versions: empty, four parts, empty parts, signs, letters, 2^32, spaces, wide digits",
    arguments: ["", "1.2.3.4", "1..2", "-1", "1.a", "4294967296", " 1", "1.0b2", "１"])
  func notVersions(text: String) {
    #expect(BundleVersion(text) == nil)
  }

  @Test("1 to 3 non-negative integers below 2^32; increments and semantic bumps")
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
    #expect(buildSettingReference(in: "$(CURRENT_PROJECT_VERSION)") == "CURRENT_PROJECT_VERSION")
    #expect(buildSettingReference(in: "${MARKETING_VERSION}") == "MARKETING_VERSION")
    #expect(buildSettingReference(in: "1.0") == nil)
  }
}
