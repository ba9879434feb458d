import Foundation

/// The README's code blocks checked against the tool a user builds, so the README cannot drift
/// from what the tool does.
///
/// A fence's info string says what a block is:
/// - `sh`: commands run as written (bash, `set -e -o pipefail`) and must succeed;
/// - `sh synopsis`: usage lines; each `bundlekit` line's subcommand must answer `--help` and
///   list every option the line shows, and each `swift package VERB` must be a plugin verb;
/// - `sh no-run`: commands that need the network or run the whole suite (named, not run);
/// - `text output`: `$ command` lines run, and what follows each compared with what it prints,
///   hashes, byte sizes and seconds masked.
///
/// Commands run in a fresh folder holding a copy of `Examples/DemoApp` at the same relative
/// path, with `../shared` (the corpus) beside it when there is one, and the tool on `PATH`.
public enum ReadmeCheck {
  /// A fenced block of the README.
  public struct Block: Sendable {
    /// The fence's info string (`sh synopsis`).
    public var info: String
    /// The page it is in, as its path below the package (`README.md`).
    public var file = "README.md"
    /// The line of the opening fence.
    public var line: Int
    /// The lines inside the fence.
    public var lines: [String]

    /// Whether the block uses `bundlekit translate`, which needs `bundlekit-translate`.
    public var usesTranslate: Bool { lines.contains { $0.contains("bundlekit translate") } }
  }

  /// What a check found.
  public struct Outcome: Sendable {
    /// One message per mismatch or failed command, with its README line.
    public var failures: [String] = []
    /// The blocks checked, as `file:line`.
    public var checked: [String] = []
    /// Blocks not checked, with why.
    public var skipped: [String] = []
  }

  /// The pages whose commands are checked: the README and every article of the tool's
  /// manual (`Sources/BundleKitCLI/bundlekit.docc`).
  public static func pages(packageRoot: URL) throws -> [URL] {
    let manual = packageRoot.appendingPathComponent("Sources/BundleKitCLI/bundlekit.docc")
    let articles = try FileManager.default.contentsOfDirectory(atPath: manual.path)
      .filter { $0.hasSuffix(".md") }.sorted()
    return [packageRoot.appendingPathComponent("README.md")]
      + articles.map { manual.appendingPathComponent($0) }
  }

  /// Checks the blocks of every page (``pages(packageRoot:)``) that `include` accepts.
  public static func checkAll(tool: String, packageRoot: URL, include: (Block) -> String?)
    throws -> Outcome
  {
    var total = Outcome()
    for page in try pages(packageRoot: packageRoot) {
      let outcome = try check(readme: page, tool: tool, packageRoot: packageRoot, include: include)
      total.failures += outcome.failures
      total.checked += outcome.checked
      total.skipped += outcome.skipped
    }
    return total
  }

  /// The fenced blocks of `text`, in order.
  public static func blocks(of text: String) -> [Block] {
    var blocks: [Block] = []
    var open: Block?
    var indent = 0
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(raw)
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if var current = open {
        if trimmed == "```" {
          blocks.append(current)
          open = nil
        } else {
          // A block in a list item is indented as its fence is; that indentation is not its.
          let spaces = line.prefix { $0 == " " }.count
          current.lines.append(String(line.dropFirst(min(spaces, indent))))
          open = current
        }
      } else if trimmed.hasPrefix("```") {
        indent = line.prefix { $0 == " " }.count
        open = Block(info: String(trimmed.dropFirst(3)), line: index + 1, lines: [])
      }
    }
    return blocks
  }

  /// Checks the blocks of the README at `readme` that `include` accepts.
  ///
  /// - Parameters:
  ///   - readme: The README.
  ///   - tool: The `bundlekit` executable (its folder goes first on `PATH`).
  ///   - packageRoot: BundleKit's folder (for `Examples/DemoApp`, `Package.swift`, `../shared`).
  ///   - include: Which blocks to check; the others are listed as skipped.
  public static func check(
    readme: URL, tool: String, packageRoot: URL, include: (Block) -> String?
  ) throws -> Outcome {
    let text = try String(contentsOf: readme, encoding: .utf8)
    var outcome = Outcome()
    let verbs = try pluginVerbs(packageRoot.appendingPathComponent("Package.swift"))
    let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    let file =
      readme.path.hasPrefix(packageRoot.path + "/")
      ? String(readme.path.dropFirst(packageRoot.path.count + 1)) : readme.lastPathComponent
    for var block in blocks(of: text) {
      block.file = file
      let kind = block.info.split(separator: " ").map(String.init)
      guard kind.first == "sh" || kind == ["text", "output"] else { continue }
      if kind.contains("no-run") {
        outcome.skipped.append("\(block.file):\(block.line): no-run")
        continue
      }
      if let reason = include(block) {
        outcome.skipped.append("\(block.file):\(block.line): \(reason)")
        continue
      }
      if block.lines.contains(where: { $0.contains("../shared/") }),
        !FileManager.default.fileExists(atPath: corpus.path)
      {
        outcome.skipped.append("\(block.file):\(block.line): ../shared is not beside this clone")
        continue
      }
      let sandbox = try Sandbox(packageRoot: packageRoot, corpus: corpus, tool: tool)
      outcome.checked.append("\(block.file):\(block.line)")
      switch kind {
      case ["sh"]:
        let script = block.lines.joined(separator: "\n")
        let result = try sandbox.run(script)
        if result.status != 0 {
          outcome.failures.append(
            "\(block.file):\(block.line): block exited \(result.status): \(result.stderr)")
        }
      case ["sh", "synopsis"]:
        outcome.failures += try checkSynopsis(block, sandbox: sandbox, verbs: verbs)
      default:
        outcome.failures += try checkOutput(block, sandbox: sandbox)
      }
    }
    return outcome
  }

  /// Usage lines: subcommands answer `--help` with every option shown; plugin verbs exist.
  static func checkSynopsis(_ block: Block, sandbox: Sandbox, verbs: Set<String>) throws
    -> [String]
  {
    var failures: [String] = []
    // A line indented under the one before continues it.
    var commands: [(line: Int, text: String)] = []
    for (offset, line) in block.lines.enumerated() {
      let code = line.range(of: " #").map { String(line[..<$0.lowerBound]) } ?? line
      if line.first == " ", let last = commands.popLast() {
        commands.append((last.line, last.text + " " + code))
      } else if !code.trimmingCharacters(in: .whitespaces).isEmpty {
        commands.append((block.line + 1 + offset, code))
      }
    }
    for (line, command) in commands {
      let words = command.split(separator: " ").map(String.init)
      if words.first == "bundlekit" {
        let subcommand = words.dropFirst().prefix {
          $0.range(of: "^[a-z][a-z-]*$", options: .regularExpression) != nil
        }
        let help = try sandbox.run(
          (["bundlekit"] + subcommand + ["--help"]).joined(separator: " "))
        guard help.status == 0 else {
          failures.append(
            "\(block.file):\(line): `bundlekit \(subcommand.joined(separator: " ")) --help` failed: \(help.stderr)"
          )
          continue
        }
        for option in options(in: command) where !help.stdout.contains(option) {
          failures.append(
            "\(block.file):\(line): `bundlekit \(subcommand.joined(separator: " "))` has no \(option)"
          )
        }
      } else if words.starts(with: ["swift", "package"]) {
        let verb = words.dropFirst(2).first { !$0.hasPrefix("-") } ?? ""
        if !verbs.contains(verb) {
          failures.append("\(block.file):\(line): no plugin has the verb '\(verb)'")
        }
      } else {
        failures.append("\(block.file):\(line): a synopsis line that is not a command: \(command)")
      }
    }
    return failures
  }

  /// The options a usage line shows: `--long` and `-x`.
  public static func options(in command: String) -> [String] {
    let pattern = "(?<![A-Za-z0-9-])(--[a-z][a-z0-9-]*|-[A-Za-z])(?![A-Za-z0-9-])"
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(command.startIndex..., in: command)
    var found: [String] = []
    for match in expression.matches(in: command, range: range) {
      guard let part = Range(match.range(at: 1), in: command) else { continue }
      let option = String(command[part])
      if !found.contains(option) { found.append(option) }
    }
    return found
  }

  /// `$ command` lines run, each followed by the output it must print.
  static func checkOutput(_ block: Block, sandbox: Sandbox) throws -> [String] {
    var failures: [String] = []
    var steps: [(line: Int, command: String, expected: [String])] = []
    for (offset, line) in block.lines.enumerated() {
      if line.hasPrefix("$ ") {
        steps.append((block.line + 1 + offset, String(line.dropFirst(2)), []))
      } else if var last = steps.popLast() {
        last.expected.append(line)
        steps.append(last)
      }
    }
    for step in steps {
      // What a user sees: both streams, in the order printed.
      let result = try sandbox.run(step.command + " 2>&1")
      guard result.status == 0 else {
        failures.append(
          "\(block.file):\(step.line): `\(step.command)` exited \(result.status): \(result.stderr)")
        continue
      }
      var printed = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)
      if printed.last == "" { printed.removeLast() }
      let got = printed.map(mask)
      let want = step.expected.map(mask)
      if got != want {
        let index =
          (0..<min(got.count, want.count)).first { got[$0] != want[$0] }
          ?? min(got.count, want.count)
        let wanted = index < want.count ? want[index] : "<end>"
        let line = index < got.count ? got[index] : "<end>"
        failures.append(
          "\(block.file):\(step.line + 1 + index): `\(step.command)` printed\n  \(line)\nwhere the page shows\n  \(wanted)"
        )
      }
    }
    return failures
  }

  /// A line with what changes between runs and machines masked: hashes, sizes, seconds.
  public static func mask(_ line: String) -> String {
    var text = line
    let rules = [
      ("[0-9a-f]{8,}…?", "<hash>"), ("[0-9]+ bytes", "<n> bytes"),
      ("[0-9]+(\\.[0-9]+)? s\\b", "<t> s"),
    ]
    for (pattern, replacement) in rules {
      text = text.replacingOccurrences(
        of: pattern, with: replacement, options: .regularExpression)
    }
    return text
  }

  /// The verbs of the package's command plugins.
  static func pluginVerbs(_ manifest: URL) throws -> Set<String> {
    let text = try String(contentsOf: manifest, encoding: .utf8)
    var verbs: Set<String> = []
    var rest = text[...]
    while let start = rest.range(of: "verb: \"") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(of: "\"") else { break }
      verbs.insert(String(rest[..<end]))
    }
    return verbs
  }

  /// A folder shaped like a clone's root, with the demo package copied in.
  struct Sandbox {
    let folder: TemporaryFolder
    let work: String
    let tool: String

    init(packageRoot: URL, corpus: URL, tool: String) throws {
      folder = try TemporaryFolder()
      work = folder.file("work")
      self.tool = tool
      let manager = FileManager.default
      try manager.createDirectory(
        atPath: work + "/Examples", withIntermediateDirectories: true)
      try manager.copyItem(
        atPath: packageRoot.appendingPathComponent("Examples/DemoApp").path,
        toPath: work + "/Examples/DemoApp")
      if manager.fileExists(atPath: corpus.path) {
        try manager.createSymbolicLink(
          atPath: folder.file("shared"), withDestinationPath: corpus.path)
      }
    }

    /// Runs `script` with bash in the work folder.
    func run(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
      let bin = URL(fileURLWithPath: tool).deletingLastPathComponent().path
      let result = try Tool.run(
        "/bin/bash", ["-e", "-o", "pipefail", "-c", script],
        environment: ["PATH": bin + ":" + path, "NO_COLOR": "1", "COLUMNS": "100"], in: work)
      return (result.status, String(decoding: result.stdout, as: UTF8.self), result.stderr)
    }
  }
}
