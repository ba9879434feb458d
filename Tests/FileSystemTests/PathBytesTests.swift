import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// The path helpers a batch write runs for every file, worked out on bytes, against the
/// plain `split` versions they replaced: the same answer for every path, odd ones included
/// (empty components, trailing slashes, names of dots, names in other scripts).
struct PathBytesTests {
  /// Random paths from components that matter: dots, empty ones, names with dots.
  static func randomPath(_ generator: inout SeededGenerator) -> String {
    let parts = ["", ".", "..", "...", "a", "b.", ".c", "..d", "Info.plist", "é", "日本", "x y"]
    let count = Int(generator.next() % 5) + 1
    let path = (0..<count).map { _ in parts[Int(generator.next() % UInt64(parts.count))] }
      .joined(separator: "/")
    switch generator.next() % 4 {
    case 0: return "/" + path
    case 1: return path + "/"
    default: return path
    }
  }

  /// Calls `check` for `rounds` rounds of a generator seeded for `label` (the seed printed),
  /// with the words that place a failure: the round and the seed to replay it.
  static func seededRounds(
    _ label: String, _ rounds: Int, _ check: (inout SeededGenerator, String) -> Void
  ) {
    let seed = SeededGenerator.seed(label)
    var generator = SeededGenerator(seed: seed)
    for round in 0..<rounds { check(&generator, "round \(round) (seed \(seed))") }
  }

  /// Whether `Paths.collapsed` has work to do, as it asked before: split first, then look for
  /// a `.` or `..` component. Without one, the path comes back as it is.
  static func hasDotComponentBySplitting(_ path: String) -> Bool {
    path.split(separator: "/", omittingEmptySubsequences: true).contains {
      $0 == "." || $0 == ".."
    }
  }

  @Test("Paths.collapsed: a . or .. component found on the bytes as by splitting; else as it is")
  func collapsedAsSplitting() {
    Self.seededRounds("PathBytesTests.collapsedAsSplitting", 5_000) { generator, place in
      let path = Self.randomPath(&generator)
      let hasDot = Self.hasDotComponentBySplitting(path)
      #expect(Paths.hasDotComponent(path) == hasDot, "\(place): \(path)")
      if !hasDot { #expect(Paths.collapsed(path) == path, "\(place): \(path)") }
    }
    // Neither exists: collapsed where the folders lead to the same place, kept otherwise.
    #expect(Paths.collapsed("/tmp/./bundlekit-none") == "/tmp/bundlekit-none")
    #expect(Paths.collapsed("none-here/./b") == "none-here/./b")
    #expect(Paths.collapsed("a/.../b") == "a/.../b")
    #expect(Paths.collapsed("a/..b/c") == "a/..b/c")
    #expect(Paths.collapsed("./") == ".")
    #expect(Paths.collapsed("..") == "..")
  }

  /// `AbsolutePath.commonFolder` as it was: each path's parent copied out, then compared.
  static func commonFolderByCopying(_ paths: [String]) -> String {
    guard let first = paths.first else { return "/" }
    var common = Array(Paths.parent(first).utf8)
    for path in paths.dropFirst() {
      let folder = Array(Paths.parent(path).utf8)
      var length = 0
      let limit = min(common.count, folder.count)
      while length < limit, common[length] == folder[length] { length += 1 }
      func ends(_ bytes: [UInt8], _ at: Int) -> Bool { at == bytes.count || bytes[at] == 0x2F }
      while length > 0, !(ends(common, length) && ends(folder, length)) { length -= 1 }
      if length < common.count { common.removeSubrange(length...) }
    }
    return common.isEmpty ? "/" : String(decoding: common, as: UTF8.self)
  }

  @Test("AbsolutePath.commonFolder: the same folder as comparing copies of each parent")
  func commonFolder() {
    Self.seededRounds("PathBytesTests.commonFolder", 3_000) { generator, place in
      let absolute = generator.next() % 4 != 0
      let paths = (0..<Int(generator.next() % 6)).map { _ in
        let path = Self.randomPath(&generator)
        return absolute && !path.hasPrefix("/") ? "/" + path : path
      }
      #expect(
        AbsolutePath.commonFolder(paths) == Self.commonFolderByCopying(paths), "\(place): \(paths)")
    }
    #expect(AbsolutePath.commonFolder(["/a/b/c", "/a/b/d", "/a/bc/e"]) == "/a")
    #expect(AbsolutePath.commonFolder(["/a/b/c", "/a/b/d"]) == "/a/b")
    #expect(AbsolutePath.commonFolder(["/x", "/y/z"]) == "/")
  }

  /// `Paths.parent` and `Paths.lastComponent` as they were, walking `String.Index`es of the
  /// UTF-8 view: the reference for the versions that read offsets off the bytes.
  static func partsByIndexSteps(_ path: String) -> (parent: String, last: String) {
    let utf8 = path.utf8
    var end = utf8.endIndex
    let shortest = utf8.isEmpty ? utf8.startIndex : utf8.index(after: utf8.startIndex)
    while end > shortest, utf8[utf8.index(before: end)] == UInt8(ascii: "/") {
      end = utf8.index(before: end)
    }
    var cursor = end
    var slash: String.Index?
    while cursor > utf8.startIndex {
      let before = utf8.index(before: cursor)
      if utf8[before] == UInt8(ascii: "/") {
        slash = before
        break
      }
      cursor = before
    }
    guard let slash else { return (".", String(path[..<end])) }
    return (
      slash == path.startIndex ? "/" : String(path[..<slash]),
      String(path[utf8.index(after: slash)..<end])
    )
  }

  @Test("Paths.parent and lastComponent: as walking the UTF-8 view's indices gave")
  func parentAndLastComponent() {
    var fixed = ["", "/", "//", "a", "a/", "/a", "/a/", "a//b", "é/日本/", "///x///"]
    Self.seededRounds("PathBytesTests.parentAndLastComponent", 5_000 + fixed.count) {
      generator, place in
      let path = fixed.popLast() ?? Self.randomPath(&generator)
      let expected = Self.partsByIndexSteps(path)
      #expect(
        Paths.parent(path) == expected.parent && Paths.lastComponent(path) == expected.last,
        "\(place): \(path)")
    }
  }

  @Test("Paths.inSameFolder: true exactly when Paths.parent gives the same folder")
  func inSameFolder() {
    Self.seededRounds("PathBytesTests.inSameFolder", 5_000) { generator, place in
      let first = Self.randomPath(&generator)
      // Half the pairs share a folder by construction.
      let second =
        generator.next() % 2 == 0
        ? Paths.join(Paths.parent(first), "other") : Self.randomPath(&generator)
      #expect(
        Paths.inSameFolder(first, second) == (Paths.parent(first) == Paths.parent(second)),
        "\(place): \(first) and \(second)")
    }
  }
}
