import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit embed`, run as a user runs it, its output compiled and run by `swiftc`.
struct EmbedCommandTests {
  @Test(
    "file names that are keywords or hold quotes, backslashes or line breaks give code that compiles"
  )
  func awkwardNames() throws {
    let swiftc = try #require(
      Tool.path("swiftc"), "swiftc is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let files = [
      "in/class": "keyword", "in/style.css": "body {}", "in/say \"hi\" \\ now.txt": "quoted",
      "in/two\nlines\r.txt": "broken",
    ]
    for (name, text) in files {
      try FileIO.createFolders(for: folder.file(name))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(name))
    }
    let run = try BundleKitTool.run([
      "embed", folder.file("in"), "-o", folder.file("Embedded.swift"),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let code = String(decoding: try FileIO.read(folder.file("Embedded.swift")), as: UTF8.self)
    #expect(code.contains("static let class_ = "))
    #expect(code.contains("static let styleCss = "))
    try FileIO.writeAtomically(
      Array(
        """
        for (name, file) in EmbeddedResources.all.sorted(by: { $0.key < $1.key }) {
          print(name, String(decoding: file.bytes, as: UTF8.self))
        }
        print(EmbeddedResources.class_.bytes.count)
        """.utf8), to: folder.file("main.swift"))
    let build = try Tool.run(
      swiftc,
      ["-o", folder.file("embedded"), folder.file("Embedded.swift"), folder.file("main.swift")])
    #expect(build.status == 0, "\(build.stderr)")
    guard build.status == 0 else { return }
    let output = try Tool.run(folder.file("embedded"), [])
    #expect(
      String(decoding: output.stdout, as: UTF8.self)
        == "class keyword\nsay \"hi\" \\ now.txt quoted\nstyle.css body {}\ntwo\nlines\r.txt broken\n7\n"
    )
    #expect(code.contains("/// two\\nlines\\r.txt (6 bytes)"))
    let badName = try BundleKitTool.run([
      "embed", folder.file("in"), "-o", folder.file("Other.swift"), "--type-name", "My Files",
    ])
    #expect(badName.status == 2)
    #expect(badName.stderr.contains("'My Files' is not a Swift type name"))
  }

  @Test("a file named after every Swift keyword, or 'all', gives code that compiles")
  func everyKeyword() throws {
    let swiftc = try #require(
      Tool.path("swiftc"), "swiftc is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let folder = try TemporaryFolder()
    let names = [
      "all", "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func",
      "import", "init", "inout", "internal", "let", "open", "operator", "private", "protocol",
      "public", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
      "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
      "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "rethrows",
      "super", "self", "Self", "throw", "throws", "true", "try", "Type", "Protocol", "any",
      "some", "Any", "await", "precedencegroup", "nonisolated", "borrowing", "consuming",
      "actor", "async", "all_",
    ]
    try FileIO.createFolders(for: folder.file("in/x"))
    for name in names {
      try FileIO.writeAtomically(Array(name.utf8), to: folder.file("in/" + name))
    }
    let run = try BundleKitTool.run(["embed", folder.file("in"), "-o", folder.file("E.swift")])
    #expect(run.status == 0, "\(run.stderr)")
    try FileIO.writeAtomically(
      Array(
        """
        print(EmbeddedResources.all.count, String(decoding: EmbeddedResources.all["self"]!.bytes, as: UTF8.self))
        """.utf8), to: folder.file("main.swift"))
    let build = try Tool.run(
      swiftc, ["-o", folder.file("e"), folder.file("E.swift"), folder.file("main.swift")])
    #expect(build.status == 0, "\(build.stderr.prefix(2000))")
    guard build.status == 0 else { return }
    let output = try Tool.run(folder.file("e"), [])
    #expect(String(decoding: output.stdout, as: UTF8.self) == "\(names.count) self\n")
  }
}
