import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// `bundlekit morse decode|encode`, run as a user runs them.
struct MorseCommandTests {
  @Test("encode as dots and dashes and as timings; decode both back")
  func roundTrip() throws {
    var run = try BundleKitTool.run(["morse", "encode", "SOS Hello", "--format", "text"])
    #expect(run.status == 0)
    #expect(run.stdout == "... --- ... / .... . .-.. .-.. ---\n")
    run = try BundleKitTool.run(["morse", "encode", "PARIS", "--wpm", "20"])
    #expect(run.stdout.hasPrefix("60 -60 180 -60 180 -60 60 -180 60 -60 180 -180"))
    let folder = try TemporaryFolder()
    let timings = try BundleKitTool.run([
      "morse", "encode", "CQ CQ de Paris, 73", "--wpm", "13", "--farnsworth", "6",
    ])
    try FileIO.writeAtomically(Array(timings.stdout.utf8), to: folder.file("keying.txt"))
    run = try BundleKitTool.run(["morse", "decode", folder.file("keying.txt")])
    #expect(run.status == 0)
    #expect(run.stdout == "CQ CQ DE PARIS, 73\n")
    try FileIO.writeAtomically(
      Array("-.-. --.- / --... ...--\n".utf8), to: folder.file("symbols.txt"))
    run = try BundleKitTool.run(["morse", "decode", folder.file("symbols.txt")])
    #expect(run.stdout == "CQ 73\n")
  }

  @Test("bad input names the file, line and column; text without a code is refused")
  func errors() throws {
    let folder = try TemporaryFolder()
    try FileIO.writeAtomically(Array("60 -60 60\n-60 6O 60\n".utf8), to: folder.file("bad.txt"))
    var run = try BundleKitTool.run(["morse", "decode", folder.file("bad.txt")])
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "bad.txt:2:5: error: expected a duration (signed milliseconds, not 0), found '6O'"))
    try FileIO.writeAtomically(Array(".- -...\n.-_.\n".utf8), to: folder.file("bad-symbols.txt"))
    run = try BundleKitTool.run(["morse", "decode", folder.file("bad-symbols.txt")])
    #expect(
      run.stderr.contains(
        "bad-symbols.txt:2:3: error: expected a dot, dash, '/' or space, found '_'"))
    run = try BundleKitTool.run(["morse", "encode", "a~b"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("'~' (U+7E) has no Morse code"))
    run = try BundleKitTool.run(["morse", "encode", "ab", "--wpm", "20", "--farnsworth", "30"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--farnsworth must be between 1 and --wpm"))
  }
}
