import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// Path arithmetic on bytes, and the batch writer's folder resolver against `realpath`.
@Suite("Path resolution")
struct PathResolutionTests {
  @Test(
    "lastComponent and parent split on the last slash, trailing slashes dropped",
    arguments: [
      ("a/b/c.txt", "c.txt", "a/b"), ("c.txt", "c.txt", "."), ("/c", "c", "/"), ("/", "", "/"),
      ("", "", "."), ("a//", "a", "."), ("a/b/", "b", "a"), ("//", "", "/"),
      ("/x/y//", "y", "/x"), ("Ünïcödé/Привет/日本語.plist", "日本語.plist", "Ünïcödé/Привет"),
      ("e\u{301}/f", "f", "e\u{301}"), ("./Info.plist", "Info.plist", "."),
    ])
  func splits(_ path: String, _ last: String, _ parent: String) {
    #expect(Paths.lastComponent(path) == last)
    #expect(Paths.parent(path) == parent)
  }

  @Test(
    "recovery is permitted in a root and below it, compared by whole components",
    arguments: [
      ("/a/b", true), ("/a/b/c", true), ("/a/b/c/d", true), ("/a/bc", false), ("/a", false),
      ("/a/c", false), ("/x/日本/語", true), ("/x/日本語", false), ("/x/日", false),
    ])
  func recoveryPermits(_ real: String, _ permitted: Bool) {
    let roots = ["/a/b", "/x/日本"]
    #expect(RecoveryScope.permits(real: real, in: roots) == permitted)
    // What the string test it replaces gave.
    #expect(roots.contains { real == $0 || real.hasPrefix($0 + "/") } == permitted)
    #expect(RecoveryScope.permits(real: real, in: ["/"]))
    #expect(!RecoveryScope.permits(real: real, in: []))
  }

  /// The real path of `path` as the C library gives it.
  func libcRealPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  @Test("RealFolders resolves folders and files as realpath does: links, .., missing, relative")
  func resolverMatchesRealpath() throws {
    let tree = try TemporaryFolder()
    let outside = try TemporaryFolder()
    let manager = FileManager.default
    for folder in ["App/Sources", "App/Resources/de.lproj", "Lib", "Ünï/Ø"] {
      try manager.createDirectory(
        atPath: tree.file(folder), withIntermediateDirectories: true)
    }
    for file in ["App/Info.plist", "Lib/Info.plist", "Ünï/Ø/Info.plist"] {
      try FileIO.writeAtomically(Array("x".utf8), to: tree.file(file))
    }
    try FileIO.writeAtomically(Array("y".utf8), to: outside.file("Info.plist"))
    // A link to a folder inside, a chain of links, a link out, a link to a file, a dangling one.
    try manager.createSymbolicLink(atPath: tree.file("Linked"), withDestinationPath: "App")
    try manager.createSymbolicLink(
      atPath: tree.file("Chain"), withDestinationPath: "Linked/Sources")
    try manager.createSymbolicLink(atPath: tree.file("Out"), withDestinationPath: outside.path)
    try manager.createSymbolicLink(
      atPath: tree.file("Lib/Alias.plist"), withDestinationPath: "../App/Info.plist")
    try manager.createSymbolicLink(atPath: tree.file("Dangling"), withDestinationPath: "Nowhere")
    let relative = [
      ".", "App", "App/Sources", "Linked", "Linked/Resources/de.lproj", "Chain", "Chain/..",
      "Out", "Ünï/Ø", "App/../Lib", "Missing", "Missing/Deeper", "Dangling", "App/Info.plist",
      "Lib/Alias.plist", "Linked/Info.plist", "Out/Info.plist", "Ünï/Ø/Info.plist",
      "Dangling/x", "App/Info.plist/x", "./App//Sources/",
    ]
    var resolver = AbsolutePath.RealFolders(current: try #require(libcRealPath(tree.path)))
    for path in relative {
      let expected = libcRealPath(tree.file(path))
      #expect(resolver.folder(path) == expected, "folder \(path)")
      #expect(resolver.file(path) == expected, "file \(path)")
      // Asked again, from the cache.
      #expect(resolver.folder(path) == expected, "folder \(path), again")
    }
    // Absolute paths, through a link to the tree itself.
    let linkedTree = outside.file("Tree")
    try manager.createSymbolicLink(atPath: linkedTree, withDestinationPath: tree.path)
    for path in relative {
      let absolute = linkedTree + "/" + path
      #expect(resolver.folder(absolute) == libcRealPath(absolute), "folder \(absolute)")
    }
  }
}
