import BundleKitTestSupport
import FileSystem
import Foundation
import PropertyListXML
import Testing

/// `bundlekit embed`, run as a user runs it, its output compiled and run by `swiftc`.
struct EmbedCommandTests {
  @Test(
    "file names that are keywords or hold quotes, backslashes or line breaks give code that compiles"
  )
  func awkwardNames() throws {
    guard let swiftc = Tool.path("swiftc") else {
      print("skipped: swiftc is not on PATH")
      return
    }
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
    #expect(code.contains("static let `class` = "))
    #expect(code.contains("static let styleCss = "))
    try FileIO.writeAtomically(
      Array(
        """
        for (name, file) in EmbeddedResources.all.sorted(by: { $0.key < $1.key }) {
          print(name, String(decoding: file.bytes, as: UTF8.self))
        }
        print(EmbeddedResources.`class`.bytes.count)
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
}
