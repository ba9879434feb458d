import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// Nothing lost, nothing crashes: the command-line tool on input that broke it before.
struct PlistEditSafetyTests {
  let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>Flag</key>
    \t<true/>
    \t<key>Count</key>
    \t<integer>5</integer>
    \t<key>Ratio</key>
    \t<real>0.5</real>
    \t<key>Nested</key>
    \t<dict/>
    </dict>
    </plist>

    """

  @Test("set without --type keeps the value's type and reads the text as that type")
  func keepsType() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("Info.plist")
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    for (key, text) in [("Flag", "false"), ("Count", "7"), ("Ratio", "1.25"), ("New", "false")] {
      let run = try BundleKitTool.run(["plist", "set", path, key, text])
      #expect(run.status == 0, "\(run.stderr)")
    }
    let value = try PropertyListDocument(contentsOfFile: path).value
    #expect(value["Flag"] == .bool(false))
    #expect(value["Count"] == .int(7))
    #expect(value["Ratio"] == .real(1.25))
    // A new key is a string, as before.
    #expect(value["New"] == .string("false"))
    // Text that is not of the type: a clear error naming the file; nothing written.
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let bad = try BundleKitTool.run(["plist", "set", path, "Count", "many"])
    #expect(bad.status == 1)
    #expect(
      bad.stderr.hasPrefix("\(path): error: key path 'Count': holds a integer"), "\(bad.stderr)")
    let container = try BundleKitTool.run(["plist", "set", path, "Nested", "x"])
    #expect(container.status == 1)
    #expect(container.stderr.contains("--type json"), "\(container.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    // --type changes the type on purpose.
    #expect(
      try BundleKitTool.run(["plist", "set", path, "Flag", "on", "--type", "string"]).status == 0)
    #expect(try PropertyListDocument(contentsOfFile: path).value["Flag"] == .string("on"))
  }

  @Test("concurrent sets and removes on one file all land (the folder lock bump takes)")
  func concurrentEdits() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built beside the tests")
    let folder = try TemporaryFolder()
    let path = folder.file("Info.plist")
    try FileIO.writeAtomically(try PropertyListValue.dictionary([:]).encoded(as: .xml1), to: path)
    // 8 processes, each setting 30 keys of its own: 240 read-modify-write cycles racing.
    // (Processes started from here: a shell's own background jobs may never be reaped.)
    let workers = (0..<8).map { worker -> Process in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c",
        "for i in $(seq 1 30); do '\(tool)' plist set '\(path)' k\(worker)_$i v || exit 1; done",
      ]
      return process
    }
    for worker in workers { try worker.run() }
    for worker in workers {
      worker.waitWithoutSpinning()
      #expect(worker.terminationStatus == 0)
    }
    guard case .dictionary(let keys) = try PropertyListDocument(contentsOfFile: path).value else {
      Issue.record("not a dictionary")
      return
    }
    #expect(keys.count == 240, "lost \(240 - keys.count) of 240 updates")
  }
}

/// A bump holds every folder it writes locked, one descriptor each.
struct DescriptorLimitTests {
  /// The hard limit on open descriptors of processes this one starts.
  static let hardLimit = DescriptorLimits.current?.hard ?? 0

  /// A tree of `count` targets, each folder with an XML Info.plist at build 1.
  func targets(_ count: Int) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let plist = try PropertyListValue.dictionary([
      "CFBundleIdentifier": .string("com.example.app"), "CFBundleVersion": .string("1"),
    ]).encoded(as: .xml1)
    for index in 0..<count {
      try FileIO.createFolders(for: folder.file("Target\(index)/Info.plist"))
      try FileIO.writeAtomically(plist, to: folder.file("Target\(index)/Info.plist"))
    }
    return folder
  }

  /// `bundlekit bump build TREE` under `ulimit` settings given to the shell first.
  func bump(_ tree: TemporaryFolder, limits: String) throws -> Tool.Result {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built beside the tests")
    return try Tool.run(
      "/bin/sh", ["-c", "\(limits) && exec \"$0\" bump build \"$1\"", tool, tree.path])
  }

  /// The CFBundleVersion of every target.
  func builds(_ tree: TemporaryFolder, _ count: Int) throws -> Set<String> {
    try Set(
      (0..<count).map { index in
        let document = try PropertyListDocument(
          contentsOfFile: tree.file("Target\(index)/Info.plist"))
        guard case .dictionary(let keys) = document.value,
          case .string(let build)? = keys["CFBundleVersion"]
        else { return "?" }
        return build
      })
  }

  @Test(
    "more folders than the soft descriptor limit: the bump raises it, as far as the hard one allows",
    .enabled(if: hardLimit >= 2_048, "the hard descriptor limit here is too low to raise to"))
  func raisesSoftLimit() throws {
    let tree = try targets(400)
    let result = try bump(tree, limits: "ulimit -Sn 256")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try builds(tree, 400) == ["2"])
  }

  @Test(
    "more folders than the hard descriptor limit: refused, saying so, and nothing written",
    .enabled(if: hardLimit >= 256, "the hard descriptor limit here is lower than the test sets"))
  func hardLimitRefused() throws {
    let tree = try targets(400)
    let result = try bump(tree, limits: "ulimit -Sn 256 && ulimit -Hn 256")
    #expect(result.status == 1)
    #expect(result.stderr.contains("cannot open the folder to lock it"))
    #expect(result.stderr.contains("ulimit -Hn"))
    #expect(try builds(tree, 400) == ["1"])
  }
}

struct OutputSafetyTests {
  /// A character device (the null device's numbers) or a FIFO with a reader, standing
  /// where a command writes its output.
  enum Special: CaseIterable {
    case device, fifo
  }

  /// Readers draining FIFOs (a descriptor kept open, read on a thread), stopped when the
  /// test ends.
  final class Readers {
    /// Shared with the reading threads; they stop once it says so.
    final class Stop: @unchecked Sendable {
      private let lock = NSLock()
      private var value = false
      var isSet: Bool { lock.withLock { value } }
      func set() { lock.withLock { value = true } }
    }

    private let stop = Stop()

    func drain(_ path: String) -> Bool {
      let descriptor = open(path, O_RDONLY | O_NONBLOCK)
      guard descriptor >= 0 else { return false }
      let stop = stop
      Thread.detachNewThread {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stop.isSet {
          if read(descriptor, &buffer, buffer.count) <= 0 { usleep(2_000) }
        }
        close(descriptor)
      }
      return true
    }

    deinit { stop.set() }
  }

  func make(_ kind: Special, at path: String, readers: Readers) -> Bool {
    switch kind {
    case .device:
      return geteuid() == 0 && mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0
    case .fifo:
      return mkfifo(path, 0o644) == 0 && readers.drain(path)
    }
  }

  @Test("every -o writer writes into a device or FIFO and never replaces it")
  func writersKeepSpecialFiles() throws {
    let readers = Readers()
    let folder = try TemporaryFolder()
    let plist = folder.file("Info.plist")
    try FileIO.writeAtomically(
      try PropertyListValue.dictionary(["CFBundleVersion": "3"]).encoded(as: .xml1), to: plist)
    try FileIO.createFolders(for: folder.file("Tables/en.lproj/Localizable.strings"))
    try Data("\"a\" = \"b\";\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("Tables/en.lproj/Localizable.strings")))
    try FileIO.createFolders(for: folder.file("Files/a.txt"))
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("Files/a.txt")))
    let commands: [(String, [String])] = [
      ("convert", ["plist", "convert", plist, "--format", "json", "-o"]),
      ("generate", ["strings", "generate", folder.file("Tables"), "-o"]),
      ("embed", ["embed", folder.file("Files"), "-o"]),
      ("build-info", ["build-info", "--info-plist", plist, "-o"]),
      ("archive", ["archive", "create", folder.file("Files"), "--format", "tar.gz", "-o"]),
    ]
    for kind in Special.allCases {
      for (name, arguments) in commands {
        let output = folder.file("out-\(name)-\(kind)")
        guard make(kind, at: output, readers: readers) else {
          print("skipped: \(kind) for \(name) (creating a device needs root)")
          continue
        }
        let run = try BundleKitTool.run(arguments + [output])
        #expect(run.status == 0, "\(name) into a \(kind): \(run.stderr)")
        var info = stat()
        #expect(lstat(output, &info) == 0)
        let type = info.st_mode & S_IFMT
        #expect(type == (kind == .device ? S_IFCHR : S_IFIFO), "\(name) replaced the \(kind)")
      }
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix(".")
    }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  @Test("a copied bundlekit, build folder out of reach, still has its templates")
  func copiedTool() throws {
    try #require(BundleKitTool.path != nil, "bundlekit was not built beside the tests")
    let folder = try TemporaryFolder()
    let copy = folder.file("bin/bundlekit")
    try FileIO.createFolders(for: copy)
    try BundleKitTool.copy(to: copy)
    try FileIO.createFolders(for: folder.file("Res/en.lproj/Localizable.strings"))
    try Data("\"hello\" = \"Hello\";\n".utf8).write(
      to: URL(fileURLWithPath: folder.file("Res/en.lproj/Localizable.strings")))
    let generate = try Tool.run(
      copy, ["strings", "generate", folder.file("Res"), "-o", folder.file("L.swift")])
    #expect(generate.status == 0, "\(generate.stderr)")
    #expect(
      try String(contentsOfFile: folder.file("L.swift"), encoding: .utf8).contains("hello"))
    let bundle = try Tool.run(
      copy,
      ["bundle", "create", "Demo", "--from", folder.file("Res"), "-o", folder.file("Demo.bundle")])
    #expect(bundle.status == 0, "\(bundle.stderr)")
    let info = try PropertyListDocument(contentsOfFile: folder.file("Demo.bundle/Info.plist"))
    #expect(info.value["CFBundlePackageType"] == .string("BNDL"))
  }
}

/// The crash-consistency harness, short: every command SIGKILLed at random moments, each
/// write all or nothing once the next run has looked, no temporary file left. The long run
/// (`Scripts/crash-test.py --kills 200`) is reported in the release notes.
struct CrashHarnessTests {
  @Test(
    "bump, compile, archive create and extract, strings import, translate index survive SIGKILL")
  func shortRun() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built beside the tests")
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let seed = SeededGenerator.seed("crash-test")
    var commands = ["bump", "compile", "create", "extract", "import"]
    let helper = (tool as NSString).deletingLastPathComponent + "/bundlekit-translate"
    if FileManager.default.isExecutableFile(atPath: helper) {
      commands.append("index")
    } else {
      print("skipped in the crash harness: translate index (bundlekit-translate not built)")
    }
    let run = try Tool.run(
      python,
      [
        Corpus.packageRoot.appendingPathComponent("Scripts/crash-test.py").path,
        "--bundlekit", tool, "--kills", "8", "--seed", String(seed), "--seconds", "120",
        "--commands", commands.joined(separator: ","),
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    let results = report?["commands"] as? [[String: Any]] ?? []
    #expect(results.count == commands.count)
    for result in results {
      #expect(result["failures"] as? Int == 0, "\(result)")
      #expect((result["kills"] as? Int ?? 0) > 0, "\(result)")
    }
  }
}
