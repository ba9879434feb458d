import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// The EmbedResources plugin lists for the build exactly the files `bundlekit embed` embeds.
struct EmbeddedFilesTests {
  @Test("the plugin's rule is the tool's walk: the same names skipped, the same files listed")
  func sameFilesAsTheTool() throws {
    #expect(EmbeddedFiles.skippedNames == SkippedFolders.names)
    let folder = try TemporaryFolder()
    let files = [
      "Embedded/a.txt", "Embedded/sub/b.css", "Embedded/.hidden/c.txt", "Embedded/.e",
      "Embedded/node_modules/d.js", "Embedded/Pods/e.txt", "Embedded/sub/.build/f.o",
      "Embedded/ünïcödé/ß.json",
    ]
    for path in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(path.utf8), to: folder.file(path))
    }
    let listed = EmbeddedFiles.files(in: URL(fileURLWithPath: folder.file("Embedded"))).map {
      String($0.path.dropFirst(folder.file("Embedded").count + 1))
    }
    #expect(listed == ["a.txt", "sub/b.css", "ünïcödé/ß.json"], "\(listed)")
    let run = try BundleKitTool.run([
      "embed", folder.file("Embedded"), "--output", folder.file("out.swift"),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let source = String(decoding: try FileIO.read(folder.file("out.swift")), as: UTF8.self)
    let embedded = source.split(separator: "\n").compactMap { line -> String? in
      guard line.contains("EmbeddedFile(name: \"") else { return nil }
      return line.components(separatedBy: "name: \"").dropFirst().first?
        .components(separatedBy: "\"").first
    }
    #expect(Set(embedded) == Set(listed), "tool \(embedded), plugin \(listed)")
    #expect(EmbeddedFiles.isEmbedded(relativePath: "a/b.txt"))
    #expect(!EmbeddedFiles.isEmbedded(relativePath: "a/.git/b.txt"))
  }
}
