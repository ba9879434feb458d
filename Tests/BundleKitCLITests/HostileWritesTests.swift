import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// Writes that must not destroy: outputs that are not ours, files outside the tree given,
/// write-protected files; and archives checked to the last byte.
@Suite("Hostile writes")
struct HostileWritesTests {
  static let info = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>CFBundleVersion</key><string>900</string></dict></plist>

    """

  func resources() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("src/en.lproj/Localizable.strings"))
    try Data("\"a\" = \"b\";\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("src/en.lproj/Localizable.strings")))
    return folder
  }

  @Test(
    "bundle create replaces an earlier bundle of its identifier, and nothing else without --force")
  func bundleOutput() throws {
    let folder = try resources()
    let create = [
      "bundle", "create", "Res", "--from", folder.file("src"), "--identifier", "com.example.res",
    ]
    // A folder of unrelated files.
    try FileIO.createFolders(for: folder.file("other/keep.txt"))
    try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.file("other/keep.txt")))
    var run = try BundleKitTool.run(create + ["-o", folder.file("other")])
    #expect(run.status == 1)
    #expect(run.stderr.contains("not an earlier bundle"), "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.file("other/keep.txt")))
    // A regular file, a FIFO.
    try Data("file".utf8).write(to: URL(fileURLWithPath: folder.file("plain")))
    run = try BundleKitTool.run(create + ["-o", folder.file("plain")])
    #expect(run.status == 1)
    #expect(try String(contentsOfFile: folder.file("plain"), encoding: .utf8) == "file")
    try #require(mkfifo(folder.file("pipe"), 0o644) == 0)
    run = try BundleKitTool.run(create + ["-o", folder.file("pipe")])
    #expect(run.status == 1)
    var info = stat()
    #expect(lstat(folder.file("pipe"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    // The sources themselves, a folder holding them.
    for output in [folder.file("src"), folder.path] {
      run = try BundleKitTool.run(create + ["-o", output, "--force"])
      #expect(run.status == 1, "\(output)")
      #expect(
        FileManager.default.fileExists(atPath: folder.file("src/en.lproj/Localizable.strings")))
    }
    // A new bundle, then the same bundle again; another identifier is refused.
    #expect(try BundleKitTool.run(create + ["-o", folder.file("Res.bundle")]).status == 0)
    #expect(try BundleKitTool.run(create + ["-o", folder.file("Res.bundle")]).status == 0)
    run = try BundleKitTool.run(
      [
        "bundle", "create", "Res", "--from", folder.file("src"), "--identifier", "com.other", "-o",
        folder.file("Res.bundle"),
      ])
    #expect(run.status == 1)
    // --force replaces the unrelated folder.
    #expect(try BundleKitTool.run(create + ["-o", folder.file("other"), "--force"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: folder.file("other/keep.txt")))
  }

  @Test("bump does not write outside the paths given without --allow-outside")
  func bumpOutside() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("outside/Info.plist"))
    try Data(Self.info.utf8).write(to: URL(fileURLWithPath: folder.file("outside/Info.plist")))
    try FileIO.createFolders(for: folder.file("repo/App/x"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("repo/App/Info.plist"),
      withDestinationPath: folder.file("outside/Info.plist"))
    var run = try BundleKitTool.run(["bump", "build", folder.file("repo")])
    #expect(run.status == 1)
    #expect(run.stderr.contains("outside"), "\(run.stderr)")
    #expect(run.stderr.contains("--allow-outside"))
    #expect(
      try String(contentsOfFile: folder.file("outside/Info.plist"), encoding: .utf8) == Self.info)
    run = try BundleKitTool.run(["bump", "build", folder.file("repo"), "--allow-outside"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try String(contentsOfFile: folder.file("outside/Info.plist"), encoding: .utf8).contains("901")
    )
  }

  @Test("bump refuses a tree with an Info.plist under a folder whose name is not UTF-8")
  func undecodableFolder() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("repo/App/x"))
    try Data(Self.info.utf8).write(to: URL(fileURLWithPath: folder.file("repo/App/Info.plist")))
    // Made through bytes: `String` paths cannot name it.
    let bad = Array(folder.file("repo/Caf").utf8) + [0xE9, 0]
    #expect(
      bad.withUnsafeBufferPointer {
        mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755)
      } == 0)
    var plist = Array(folder.file("repo/Caf").utf8) + [0xE9] + Array("/Info.plist".utf8) + [0]
    let descriptor = plist.withUnsafeMutableBufferPointer {
      open(
        UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY,
        0o644)
    }
    #expect(descriptor >= 0)
    _ = Array(Self.info.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    let run = try BundleKitTool.run(["bump", "build", folder.file("repo")])
    #expect(run.status == 1)
    #expect(run.stderr.contains("Caf\\xE9: error: the name is not UTF-8"), "\(run.stderr)")
    // Nothing half bumped.
    #expect(
      try String(contentsOfFile: folder.file("repo/App/Info.plist"), encoding: .utf8) == Self.info)
  }

  @Test("plist set and remove refuse a write-protected file")
  func writeProtected() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("Info.plist")
    try Data(Self.info.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o444)
    for command in [
      ["plist", "set", path, "CFBundleVersion", "1"], ["plist", "remove", path, "CFBundleVersion"],
    ] {
      let run = try BundleKitTool.run(command)
      #expect(run.status == 1, "\(command)")
      #expect(run.stderr.contains("write-protected"), "\(run.stderr)")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.info)
    }
  }

  /// Runs Python to build an archive.
  func python(_ script: String, _ arguments: [String]) throws {
    let python = try #require(Tool.path("python3"))
    let run = try Tool.run(python, ["-c", script] + arguments)
    try #require(run.status == 0, "\(run.stderr)")
  }

  @Test(
    "a zip entry with a wrong CRC-32 is refused, as unzip -t and bsdtar refuse it",
    .enabled(if: Tool.path("python3") != nil))
  func zipCRC() throws {
    let folder = try TemporaryFolder()
    let zip = folder.file("bad.zip")
    try python(
      """
      import sys, zipfile
      with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
          z.writestr("hello.txt", b"hello world, stored\\n" * 20)
      data = bytearray(open(sys.argv[1], "rb").read())
      index = data.index(b"hello world")
      data[index] ^= 0x20
      open(sys.argv[1], "wb").write(data)
      """, [zip])
    let run = try BundleKitTool.run(["archive", "extract", zip, "-C", folder.file("out")])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("out/hello.txt")))
    if let bsdtar = Tool.path("bsdtar") {
      #expect(try Tool.run(bsdtar, ["-xOf", zip]).status != 0)
    }
  }

  @Test(
    "extraction clears set-id and world-writable bits unless asked to keep them",
    .enabled(if: Tool.path("python3") != nil))
  func setIDBits() throws {
    let folder = try TemporaryFolder()
    let tar = folder.file("modes.tar")
    try python(
      """
      import io, sys, tarfile
      with tarfile.open(sys.argv[1], "w") as t:
          for name, mode in (("tool", 0o4755), ("group", 0o2755), ("open", 0o666)):
              info = tarfile.TarInfo(name); info.mode = mode; info.size = 2
              t.addfile(info, io.BytesIO(b"hi"))
      """, [tar])
    #expect(
      try BundleKitTool.run(["archive", "extract", tar, "-C", folder.file("out")]).status == 0)
    for (name, mode) in [("tool", 0o755), ("group", 0o755), ("open", 0o664)] {
      var info = stat()
      #expect(stat(folder.file("out/\(name)"), &info) == 0)
      #expect(
        info.st_mode & 0o7777 == mode_t(mode), "\(name): \(String(info.st_mode & 0o7777, radix: 8))"
      )
    }
    // Asked for, the archive's bits stay (world-writable for anyone; set-id bits as root).
    #expect(
      try BundleKitTool.run([
        "archive", "extract", tar, "-C", folder.file("kept"), "--preserve-permissions",
      ]).status == 0)
    var info = stat()
    #expect(stat(folder.file("kept/open"), &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o666)
    if getuid() == 0 {
      #expect(stat(folder.file("kept/tool"), &info) == 0)
      #expect(info.st_mode & 0o7777 == 0o4755)
    }
  }

  @Test(
    "zip and tar names that are not UTF-8 are escaped, never merged into one U+FFFD name",
    .enabled(if: Tool.path("python3") != nil))
  func nonUTF8Names() throws {
    let folder = try TemporaryFolder()
    let zip = folder.file("latin.zip")
    let tar = folder.file("latin.tar")
    try python(
      """
      import io, sys, tarfile, zipfile
      with zipfile.ZipFile(sys.argv[1], "w") as z:
          for name in ("cafX.txt", "cafY.txt"):
              z.writestr(zipfile.ZipInfo(name), name[3])
      data = open(sys.argv[1], "rb").read()
      data = data.replace(b"cafX", b"caf\\xe9").replace(b"cafY", b"caf\\xe8")
      open(sys.argv[1], "wb").write(data)
      with tarfile.open(sys.argv[2], "w", format=tarfile.GNU_FORMAT, encoding="latin-1") as t:
          info = tarfile.TarInfo("caf\\xe9.txt"); info.size = 1
          t.addfile(info, io.BytesIO(b"X"))
          link = tarfile.TarInfo("link"); link.type = tarfile.SYMTYPE
          link.linkname = "caf\\xe9.txt"; t.addfile(link)
      """, [zip, tar])
    let list = try BundleKitTool.run(["archive", "list", zip])
    #expect(list.stdout.contains("caf%E9.txt") && list.stdout.contains("caf%E8.txt"))
    #expect(
      try BundleKitTool.run(["archive", "extract", zip, "-C", folder.file("zip")]).status == 0)
    #expect(try String(contentsOfFile: folder.file("zip/caf%E9.txt"), encoding: .utf8) == "X")
    #expect(try String(contentsOfFile: folder.file("zip/caf%E8.txt"), encoding: .utf8) == "Y")
    #expect(
      try BundleKitTool.run(["archive", "extract", tar, "-C", folder.file("tar")]).status == 0)
    #expect(try String(contentsOfFile: folder.file("tar/link"), encoding: .utf8) == "X")
  }

  @Test(
    "links are judged on the final tree: a link through a later link, and across two archives",
    .enabled(if: Tool.path("python3") != nil))
  func linksOnFinalTree() throws {
    let folder = try TemporaryFolder()
    let make = """
      import sys, tarfile
      def link(t, name, target):
          info = tarfile.TarInfo(name); info.type = tarfile.SYMTYPE; info.linkname = target; t.addfile(info)
      def folder(t, name):
          info = tarfile.TarInfo(name); info.type = tarfile.DIRTYPE; info.mode = 0o755; t.addfile(info)
      with tarfile.open(sys.argv[1], "w") as t:
          folder(t, "a")
          link(t, "c", "a/up/..")
          link(t, "a/up", "..")
      with tarfile.open(sys.argv[2], "w") as t:
          folder(t, "d")
          link(t, "d/x", "../y")
      with tarfile.open(sys.argv[3], "w") as t:
          link(t, "y", "..")
      with tarfile.open(sys.argv[4], "w") as t:
          link(t, "a", ".")
          folder(t, "a")
          link(t, "a/b", "..")
      """
    try python(
      make,
      [
        folder.file("order.tar"), folder.file("first.tar"), folder.file("second.tar"),
        folder.file("repeat.tar"),
      ])
    var run = try BundleKitTool.run([
      "archive", "extract", folder.file("order.tar"), "-C", folder.file("one"),
    ])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("one")))
    // The first archive's `d/x -> ../y` dangles inside; the second's `y -> ..` makes it lead out.
    run = try BundleKitTool.run([
      "archive", "extract", folder.file("first.tar"), "-C", folder.file("two"),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    run = try BundleKitTool.run([
      "archive", "extract", folder.file("second.tar"), "-C", folder.file("two"),
    ])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(FileIO.linkDestination(folder.file("two/y")) == nil)
    // A folder entry repeating a link's name: whatever lands, every link stays inside.
    run = try BundleKitTool.run([
      "archive", "extract", folder.file("repeat.tar"), "-C", folder.file("three"),
    ])
    let three = try #require(FileIO.realPath(folder.file("three")))
    for relative
      in (FileManager.default.enumerator(atPath: folder.file("three"))?.allObjects
      as? [String]) ?? []
    {
      guard FileIO.linkDestination(folder.file("three/" + relative)) != nil else { continue }
      let real = FileIO.realPath(folder.file("three/" + relative)) ?? "/"
      #expect(real == three || real.hasPrefix(three + "/"), "\(relative) -> \(real)")
    }
  }

  @Test(
    "a malformed pax header is an error, as bsdtar reports it, never ignored",
    .enabled(if: Tool.path("python3") != nil))
  func malformedPax() throws {
    let folder = try TemporaryFolder()
    let tar = folder.file("pax.tar")
    try python(
      """
      import io, sys, tarfile
      with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
          info = tarfile.TarInfo("f.txt"); info.size = 2; info.pax_headers = {"comment": "hello"}
          t.addfile(info, io.BytesIO(b"hi"))
      data = open(sys.argv[1], "rb").read().replace(b"17 comment=hello", b"99 comment=hello")
      open(sys.argv[1], "wb").write(data)
      """, [tar])
    for command in [
      ["archive", "list", tar], ["archive", "extract", tar, "-C", folder.file("out")],
    ] {
      let run = try BundleKitTool.run(command)
      #expect(run.status == 1, "\(command)")
      #expect(run.stderr.contains("malformed pax"), "\(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("catalogs: invalid UTF-8 is an error at its line and column, a key written twice a warning")
  func catalogText() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("Localizable.xcstrings")
    try Data(
      Array("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"caf".utf8) + [0xE9]
        + Array("\" : {}\n  }\n}\n".utf8)
    )
    .write(to: URL(fileURLWithPath: path))
    var run = try BundleKitTool.run(["strings", "lint", path])
    #expect(run.status == 1)
    #expect(run.stderr.contains("Localizable.xcstrings:4:9: error:"), "\(run.stderr)")
    try Data(
      """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "a" : {},
          "a" : {}
        },
        "version" : "1.0"
      }

      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    run = try BundleKitTool.run(["strings", "lint", path])
    #expect(run.stderr.contains("Localizable.xcstrings:5:5: warning:"), "\(run.stderr)")
    #expect(run.stderr.contains("written twice"))
  }
}
