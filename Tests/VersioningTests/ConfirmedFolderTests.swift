import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

/// A bump reads and writes the Info.plists of the folders its walk confirmed through the
/// descriptors its locks hold (`ConfirmedFolders`): a folder swapped for a link once the
/// locks are held, after any check of paths, still gets its own file written, and nothing
/// is written where the link leads.
@Suite("Confirmed folders")
struct ConfirmedFolderTests {
  /// `count` folders `Target0`... (more than the walk reads ahead together), each with an
  /// Info.plist at build 1 in it or in the folders `below` it, half XML and half binary.
  func tree(_ count: Int, below: String = "") throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for index in 0..<count {
      let value: PropertyListValue = [
        "CFBundleIdentifier": .string("com.example.target\(index)"),
        "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
      ]
      let path = folder.file("Target\(index)/\(below.isEmpty ? "" : below + "/")Info.plist")
      try FileIO.createFolders(for: path)
      try FileIO.writeAtomically(
        try value.encoded(as: index % 2 == 0 ? .xml1 : .binary1), to: path)
    }
    return folder
  }

  func build(_ path: String) throws -> String? {
    try PropertyListDocument(contentsOfFile: path).value["CFBundleVersion"]?.stringValue
  }

  @Test(
    "a folder swapped for a link leading out, under the locks, is written in place, not through the link",
    arguments: [3, DirectoryWalker.readAheadThreshold + 8], ["", "Sources/Resources"])
  func swappedFolderIsWrittenInPlace(count: Int, below: String) throws {
    let folder = try tree(count, below: below)
    let inside = below.isEmpty ? "Info.plist" : below + "/Info.plist"
    let outside = try TemporaryFolder()
    // Where the link would lead the file's path.
    let canary = outside.file(inside)
    let canaryBytes = try (["CFBundleVersion": "7"] as PropertyListValue).encoded(as: .xml1)
    try FileIO.createFolders(for: canary)
    try FileIO.writeAtomically(canaryBytes, to: canary)
    let manager = FileManager.default
    let plan = try VersionBump(.build(.increment)).apply(paths: [folder.path]) { _ in
      // Every path check is behind; what is written is decided by the descriptors.
      try? manager.moveItem(atPath: folder.file("Target1"), toPath: folder.file("Moved"))
      try? manager.createSymbolicLink(
        atPath: folder.file("Target1"), withDestinationPath: outside.path)
    }
    #expect(plan.files.count == count)
    // Every file read through its folder, however deep: the walk confirmed each.
    #expect(plan.confirmed.count == count)
    #expect(try FileIO.read(canary) == canaryBytes)
    #expect(try manager.subpathsOfDirectory(atPath: Paths.parent(canary)) == ["Info.plist"])
    #expect(try build(folder.file("Moved/\(inside)")) == "2")
    for index in 0..<count where index != 1 {
      #expect(try build(folder.file("Target\(index)/\(inside)")) == "2", "Target\(index)")
    }
    // No scratch file is left anywhere.
    let left = try manager.subpathsOfDirectory(atPath: folder.path).filter {
      $0.contains("bundlekit")
    }
    #expect(left.isEmpty, "\(left)")
  }

  @Test(
    "a root named through a link, with a trailing slash, or through .., is placed as its real path",
    arguments: ["link/", "tree/Target0/../", "link/Target0/.."])
  func rootNamedOtherwise(root: String) throws {
    let folder = try tree(DirectoryWalker.readAheadThreshold + 8, below: "Sources/Resources")
    let names = try TemporaryFolder()
    let manager = FileManager.default
    try manager.createSymbolicLink(
      atPath: names.file("link"), withDestinationPath: folder.path)
    try manager.createSymbolicLink(
      atPath: names.file("tree"), withDestinationPath: folder.path)
    let plan = try VersionBump(.build(.increment)).apply(paths: [names.file(root)])
    #expect(plan.files.count == DirectoryWalker.readAheadThreshold + 8)
    #expect(plan.confirmed.count == plan.files.count)
    for index in 0..<(DirectoryWalker.readAheadThreshold + 8) {
      let file = folder.file("Target\(index)/Sources/Resources/Info.plist")
      #expect(try build(file) == "2", "Target\(index)")
    }
    // The links are as they were, and nothing was left beside them or in the tree.
    #expect(try manager.contentsOfDirectory(atPath: names.path).sorted() == ["link", "tree"])
    let left = try manager.subpathsOfDirectory(atPath: folder.path).filter {
      $0.contains("bundlekit")
    }
    #expect(left.isEmpty, "\(left)")
  }

  @Test("an Info.plist that is a link inside the tree is still written through it")
  func linkedInfoPlistIsFollowed() throws {
    let folder = try tree(2)
    // Not an Info.plist by name: found only through the link.
    let shared = folder.file("Shared/Base.plist")
    try FileIO.createFolders(for: shared)
    try FileIO.writeAtomically(
      try (["CFBundleVersion": "4"] as PropertyListValue).encoded(as: .xml1), to: shared)
    try FileManager.default.removeItem(atPath: folder.file("Target1/Info.plist"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("Target1/Info.plist"), withDestinationPath: "../Shared/Base.plist")
    _ = try VersionBump(.build(.increment)).apply(paths: [folder.path])
    #expect(try build(shared) == "5")
    #expect(try build(folder.file("Target0/Info.plist")) == "2")
    let link = try FileManager.default.destinationOfSymbolicLink(
      atPath: folder.file("Target1/Info.plist"))
    #expect(link == "../Shared/Base.plist")
  }

  @Test("an Info.plist linked out of the tree is refused, and nothing is written")
  func linkOutIsRefused() throws {
    let folder = try tree(2)
    let outside = try TemporaryFolder()
    let target = outside.file("Info.plist")
    let bytes = try (["CFBundleVersion": "3"] as PropertyListValue).encoded(as: .xml1)
    try FileIO.writeAtomically(bytes, to: target)
    try FileManager.default.removeItem(atPath: folder.file("Target1/Info.plist"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("Target1/Info.plist"), withDestinationPath: target)
    #expect(throws: VersioningError.self) {
      _ = try VersionBump(.build(.increment)).apply(paths: [folder.path])
    }
    #expect(try FileIO.read(target) == bytes)
    #expect(try build(folder.file("Target0/Info.plist")) == "1")
  }
}
