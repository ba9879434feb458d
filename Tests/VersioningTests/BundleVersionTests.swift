import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

struct BundleVersionTests {
  @Test(
    "not versions: empty, five parts, empty parts, signs, letters, 19 digits, spaces, wide digits",
    arguments: ["", "1.2.3.4.5", "1..2", "-1", "1.a", "1000000000000000000", " 1", "1.0b2", "１"])
  func notVersions(text: String) {
    #expect(BundleVersion(text) == nil)
  }

  @Test("1 to 4 non-negative integers of at most 18 digits; increments and semantic bumps")
  func rules() {
    #expect(BundleVersion("42")?.description == "42")
    #expect(BundleVersion("1.2.3")?.components == [1, 2, 3])
    // A timestamp build number (AppleDevToys' 202202012306) is one, past 2^32.
    #expect(BundleVersion("4294967295")?.incremented()?.description == "4294967296")
    #expect(BundleVersion("202202012306")?.incremented()?.description == "202202012307")
    #expect(BundleVersion("999999999999999999")?.incremented() == nil)
    #expect(BundleVersion("1.2.9")?.incremented()?.description == "1.2.10")
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

  @Test("pre-releases: parsed after their numbers, raised to their release as SemVer does")
  func prereleases() {
    #expect(PrereleaseVersion("2.7.0-beta.1")?.release.description == "2.7.0")
    #expect(PrereleaseVersion("2.7.0-beta.1")?.suffix == "-beta.1")
    #expect(PrereleaseVersion("1.0b3")?.suffix == "b3")
    #expect(PrereleaseVersion("3.1.0+42")?.suffix == "+42")
    for text in ["2.7.0", "beta", "-1", "1.-beta", "1.0 beta", "1.0-béta", ".1-a"] {
      #expect(PrereleaseVersion(text) == nil, "\(text)")
    }
    #expect(PrereleaseVersion("2.7.0-beta.1")?.bumped(.patch)?.description == "2.7.0")
    #expect(PrereleaseVersion("2.7.0-beta.1")?.bumped(.minor)?.description == "2.7.0")
    #expect(PrereleaseVersion("2.7.0-beta.1")?.bumped(.major)?.description == "3.0.0")
    #expect(PrereleaseVersion("2.7.1-rc")?.bumped(.minor)?.description == "2.8.0")
    #expect(PrereleaseVersion("2.0.0-rc")?.bumped(.major)?.description == "2.0.0")
  }

  @Test("a value joined from settings: each changed number lands in the setting that writes it")
  func distributed() {
    let major = VersionPlace.xcconfig(path: "C.xcconfig", setting: "MAJOR")
    let minor = VersionPlace.xcconfig(path: "C.xcconfig", setting: "MINOR")
    let patch = VersionPlace.xcconfig(path: "C.xcconfig", setting: "PATCH")
    let suffix = VersionPlace.xcconfig(path: "C.xcconfig", setting: "SUFFIX")
    let pieces = [
      VersionPiece(text: "2", place: major), VersionPiece(text: ".", place: nil),
      VersionPiece(text: "7", place: minor), VersionPiece(text: ".", place: nil),
      VersionPiece(text: "0", place: patch), VersionPiece(text: "-beta.1", place: suffix),
    ]
    #expect(
      VersionPiece.distribute(old: "2.7.0-beta.1", new: "2.7.0", over: pieces) == [suffix: ""])
    #expect(
      VersionPiece.distribute(old: "2.7.0-beta.1", new: "3.0.0", over: pieces)
        == [major: "3", minor: "0", suffix: ""])
    // Numbers changing in the text around references, a different count, a suffix added.
    #expect(VersionPiece.distribute(old: "2.7.0-beta.1", new: "2.7", over: pieces) == nil)
    let fixed = [VersionPiece(text: "2.", place: nil), VersionPiece(text: "7", place: minor)]
    #expect(VersionPiece.distribute(old: "2.7", new: "3.0", over: fixed) == nil)
    #expect(VersionPiece.distribute(old: "2.7", new: "2.8", over: fixed) == [minor: "8"])
    let release = [VersionPiece(text: "2", place: major), VersionPiece(text: "", place: suffix)]
    #expect(VersionPiece.distribute(old: "2", new: "2-rc", over: release) == nil)
    // A number split over two settings ($(A)$(B) = "12") is not guessed at.
    let split = [VersionPiece(text: "1", place: major), VersionPiece(text: "2", place: minor)]
    #expect(VersionPiece.distribute(old: "12", new: "13", over: split) == nil)
    // One setting used twice must come out the same both times.
    let twice = [
      VersionPiece(text: "1", place: major), VersionPiece(text: ".", place: nil),
      VersionPiece(text: "1", place: major),
    ]
    #expect(VersionPiece.distribute(old: "1.1", new: "1.2", over: twice) == nil)
  }
}
