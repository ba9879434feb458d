import BundleKitFileSystem
import BundleKitPropertyList
import Foundation
import Testing

/// Real files from other projects, read where they are: `../shared/corpus` beside the
/// repository (CI has it beside every clone). The repository holds none of them; tests that
/// need the corpus are gated with `.enabled(if: Corpus.has(...), Corpus.reason(...))` and skip
/// visibly on a clone without it.
public enum Corpus {
  /// The repository's root folder (the main package).
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus` beside the repository.
  public static let root: URL = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus")

  /// Whether the shared corpus is present on this machine (and not set aside with
  /// `BUNDLEKIT_CORPUS=absent`, which runs the tests as a fresh clone without it would).
  public static var isPresent: Bool {
    ProcessInfo.processInfo.environment["BUNDLEKIT_CORPUS"] != "absent"
      && FileManager.default.fileExists(atPath: root.path)
  }

  /// Whether `folder` of the shared corpus can be read.
  public static func has(_ folder: String) -> Bool {
    isPresent && FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path)
  }

  /// The reason a test gated on `folder` gives when it skips.
  public static func reason(_ folder: String) -> Comment {
    "corpus: ../shared/corpus/\(folder) is not beside this clone"
  }

  /// A path inside the shared corpus.
  public static func path(_ relative: String) -> String {
    root.appendingPathComponent(relative).path
  }

  /// Every file below `folder` of the corpus, sorted; empty when absent.
  public static func files(in folder: String) -> [String] {
    guard isPresent else { return [] }
    let url = root.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.sorted().map { url.appendingPathComponent($0).path }
  }
}

/// Fixtures this project wrote, shared by several test targets.
public enum Fixture {
  /// The path of the String Catalog `name` in `Tests/StringsTableTests/Fixtures/Catalogs`.
  public static func catalog(_ name: String) -> String {
    Corpus.packageRoot.appendingPathComponent(
      "Tests/StringsTableTests/Fixtures/Catalogs/\(name).xcstrings"
    ).path
  }
}

/// Tools on this machine that tests compare against.
public enum Tool {
  /// The tool `name` found on PATH, or nil; for `python3`, the interpreter it starts
  /// (``python3``).
  public static func path(_ name: String) -> String? {
    name == "python3" ? python3 : onPath(name)
  }

  /// The Python interpreter that `python3` on PATH runs, by its own path (`sys.executable`),
  /// or nil when there is none. On the CI machines `python3` is pyenv's shim, a bash script
  /// that runs `pyenv` to choose the interpreter: 55 ms of CPU a start, and the tests start
  /// Python about 150 times (the root bundle's `bash` and `pyenv` processes, 10 CPU-s). The
  /// interpreter is the same one, with the same packages.
  static let python3: String? = {
    guard let launcher = onPath("python3") else { return nil }
    guard let result = try? run(launcher, ["-c", "import sys; print(sys.executable)"]),
      result.status == 0
    else { return launcher }
    let path = String(decoding: result.stdout, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.isExecutableFile(atPath: path) ? path : launcher
  }()

  /// The first executable named `name` in a folder of PATH, or nil.
  static func onPath(_ name: String) -> String? {
    let search = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in search.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// The flags the tests' own build was made with (`BUNDLEKIT_TEST_BUILD_FLAGS`, which
  /// Scripts/test.sh sets), for the packages the tests build: in the tests' scratch folder a
  /// build with other flags would compile everything they share again.
  public static let buildFlags: [String] =
    (ProcessInfo.processInfo.environment["BUNDLEKIT_TEST_BUILD_FLAGS"] ?? "")
    .split(separator: " ").map(String.init)

  /// What a finished process left: its status and output.
  public struct Result {
    /// The exit status.
    public var status: Int32
    /// Standard output, as bytes.
    public var stdout: Data
    /// Standard error, as text.
    public var stderr: String

    /// Whether the process died of the libdispatch event-loop crash the Linux toolchain is
    /// known for (see ``Tool/swift(_:timeout:environment:in:)``).
    public var isToolchainCrash: Bool {
      (status == SIGSEGV || status == 128 + SIGSEGV) && stderr.contains("Program crashed")
        && stderr.contains("_dispatch_event_loop_drain")
    }
  }

  /// Runs a tool to completion and captures its output.
  public static func run(
    _ executable: String, _ arguments: [String], input: Data? = nil,
    environment: [String: String]? = nil, in folder: String? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    if let environment {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    return try run(process: process, input: input)
  }

  /// `swift ARGUMENTS` stopped after `timeout` seconds (exit 124), so a plugin or build that
  /// hangs fails its test instead of holding CI.
  ///
  /// SwiftPM on Linux now and then dies of SIGSEGV in libdispatch's event loop
  /// (`_dispatch_event_loop_drain`, swiftlang/swift#87033), whatever it was running: a crash of
  /// the toolchain, not of what it ran. Only that crash is run again, once, and said so.
  public static func swift(
    _ arguments: [String], timeout: Int = 600, environment: [String: String]? = nil,
    in folder: String? = nil
  ) throws -> Result {
    let swift = path("swift") ?? "swift"
    let command = ["\(timeout)", swift] + arguments
    let first = try run(
      path("timeout") ?? "/usr/bin/timeout", command, environment: environment, in: folder)
    guard first.isToolchainCrash else { return first }
    print(
      "swift \(arguments.joined(separator: " ")): the toolchain crashed in libdispatch; once more")
    return try run(
      path("timeout") ?? "/usr/bin/timeout", command, environment: environment, in: folder)
  }

  /// Runs a prepared process to completion and captures its output.
  public static func run(process: Process, input: Data? = nil) throws -> Result {
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
      inputPipe.fileHandleForWriting.write(input)
      try inputPipe.fileHandleForWriting.close()
    }
    // Read both pipes concurrently so neither fills up and blocks the child.
    nonisolated(unsafe) var errorData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errorData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitWithoutSpinning()
    return Result(
      status: process.terminationStatus, stdout: outputData,
      stderr: String(decoding: errorData, as: UTF8.self))
  }
}

extension WorkerThreads {
  /// `body(0)` ... `body(count - 1)` run at once, each on a thread of its own, and their
  /// results in index order: for blocking work (a command run and waited for).
  ///
  /// Not on Dispatch's global queue: on Linux its pool grows by about a thread a second while
  /// every thread is blocked, so twenty commands started "at once" there ran one after another,
  /// a second apart (each one's output reader, `Tool.run`'s, queued behind the blocked threads).
  public static func results<T: Sendable>(
    _ count: Int, _ body: @escaping @Sendable (Int) -> T
  ) -> [T] {
    let results = IndexedResults<T>(count)
    run(count) { index in results.set(index, body(index)) }
    return results.values
  }
}

/// Results that threads write by index, read once they have all returned.
private final class IndexedResults<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [T?]

  init(_ count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: T) { lock.withLock { slots[index] = value } }

  var values: [T] { lock.withLock { slots.compactMap { $0 } } }
}

/// A temporary folder removed when the value is released.
public final class TemporaryFolder {
  /// The folder.
  public let path: String

  /// A new empty folder under the system's temporary folder.
  public init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bundlekit-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` inside the folder.
  public func file(_ name: String) -> String { "\(path)/\(name)" }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// SplitMix64: small, fast and reproducible from a printed seed.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that starts from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A seed from the environment (`BUNDLEKIT_SEED`) or the clock, printed so a failure can
  /// be replayed.
  public static func seed(_ label: String) -> UInt64 {
    let seed =
      ProcessInfo.processInfo.environment["BUNDLEKIT_SEED"].flatMap { UInt64($0) }
      ?? UInt64(Date().timeIntervalSince1970 * 1000)
    print("\(label): seed \(seed) (replay with BUNDLEKIT_SEED=\(seed))")
    return seed
  }
}

extension SeededGenerator {
  /// `count` random bytes, eight from each draw (byte by byte from the system's generator,
  /// a debug build spent about 1.8 CPU-seconds on 3 MB).
  public mutating func bytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(count + 8)
    while bytes.count < count {
      withUnsafeBytes(of: next().littleEndian) { bytes.append(contentsOf: $0) }
    }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

  /// `bytes` damaged one to four times, as a truncated download or a bad merge damages a
  /// file: a byte flipped, a run cut out, a run repeated, or the rest cut off. Never empty.
  public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...4, using: &self) {
      let at = Int.random(in: 0..<max(bytes.count, 1), using: &self)
      switch Int.random(in: 0..<4, using: &self) {
      case 0: bytes[at] = UInt8.random(in: 0...255, using: &self)
      case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &self)))
      case 2:
        let end = min(bytes.count, at + Int.random(in: 1...200, using: &self))
        bytes.insert(contentsOf: bytes[at..<end], at: at)
      default: bytes = Array(bytes.prefix(at))
      }
      if bytes.isEmpty { bytes = [0x3C] }
    }
    return bytes
  }
}

/// Random property-list values for differential tests.
public struct RandomValues {
  /// The generator the values come from.
  public var generator: SeededGenerator
  /// UIDs exist only in the binary format.
  public var includeUIDs = false
  /// Foundation and JSON have no UID; XML writers differ on non-finite reals.
  public var includeInfinity = true

  /// Values drawn from a generator seeded with `seed`.
  public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

  private static let pieces: [String] = [
    "a", "B", "z", "0", "9", " ", "\t", "\n", "<", ">", "&", "\"", "'", ".", "\\", "/", "=", ";",
    "é", "ß", "Å", "日本", "語", "😀", "👩‍👩‍👧", "ﬁ", "\u{0301}", "Ω", "key", "CFBundle", "%@", "%1$d",
  ]

  /// A string of up to `maxPieces` pieces, from every script and escape-worthy character.
  public mutating func string(maxPieces: Int = 8) -> String {
    let count = Int.random(in: 0...maxPieces, using: &generator)
    return (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
  }

  /// A random scalar value of any type.
  public mutating func scalar() -> PropertyListValue {
    switch Int.random(in: 0..<(includeUIDs ? 8 : 7), using: &generator) {
    case 0: return .string(string())
    case 1:
      switch Int.random(in: 0..<6, using: &generator) {
      case 0: return .int(Int.random(in: 0..<256, using: &generator))
      case 1: return .int(Int.random(in: -1000...1000, using: &generator))
      case 2:
        return .integer(PropertyListInteger(Int64.random(in: .min ... .max, using: &generator)))
      case 3:
        return .integer(
          PropertyListInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator)))
      case 4:
        return .integer(
          PropertyListInteger([Int64.min, Int64.max, -1, 0].randomElement(using: &generator) ?? 0))
      default: return .int(Int.random(in: 0..<(1 << 40), using: &generator))
      }
    case 2:
      switch Int.random(in: 0..<5, using: &generator) {
      case 0: return .real(Double(Int.random(in: -100...100, using: &generator)) / 4)
      case 1 where includeInfinity:
        return .real([Double.infinity, -.infinity].randomElement(using: &generator) ?? 0)
      case 2:
        return .real(
          Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator)))
      default: return .real(Double.random(in: -1e6...1e6, using: &generator))
      }
    case 3: return .bool(Bool.random(using: &generator))
    case 4:
      // Whole seconds between 1901 and 2100: XML dates carry no fractions.
      let seconds = Double(Int.random(in: -3_155_000_000...3_155_000_000, using: &generator))
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 5:
      let count = Int.random(in: 0...80, using: &generator)
      return .data(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    case 6:
      return .string(string(maxPieces: 30))
    default:
      return .uid(UInt64.random(in: 0...UInt64(UInt32.max), using: &generator))
    }
  }

  /// A random value, with arrays and dictionaries nested up to a few levels.
  public mutating func value(depth: Int = 0) -> PropertyListValue {
    let roll = Int.random(in: 0..<10, using: &generator)
    if depth >= 4 || roll < 6 { return scalar() }
    let count = Int.random(in: 0...8, using: &generator)
    if roll < 8 {
      return .array((0..<count).map { _ in value(depth: depth + 1) })
    }
    var dictionary = PropertyListDictionary()
    for _ in 0..<count { dictionary[string()] = value(depth: depth + 1) }
    return .dictionary(dictionary)
  }

  /// A dictionary at the top, as most property lists are.
  public mutating func document() -> PropertyListValue {
    var dictionary = PropertyListDictionary()
    for _ in 0..<Int.random(in: 1...12, using: &generator) {
      dictionary[string()] = value(depth: 1)
    }
    return .dictionary(dictionary)
  }
}

extension PropertyListValue {
  /// A form that survives any JSON round trip exactly, for comparing with other
  /// implementations: `[tag, payload]` pairs with numbers as strings of their bits.
  public var tagged: PropertyListValue {
    switch self {
    case .string(let s): return ["s", .string(s)]
    case .integer(let i): return ["i", .string(i.description)]
    case .real(let r): return ["r", .string(String(r.bitPattern))]
    case .bool(let b): return ["B", b ? "true" : "false"]
    case .date(let d):
      return ["d", .string(String(Int64((d.timeIntervalSince1970).rounded(.down))))]
    case .data(let d): return ["b", .string(d.map { String(format: "%02x", $0) }.joined())]
    case .uid(let u): return ["u", .string(String(u))]
    case .array(let a): return ["a", .array(a.map(\.tagged))]
    case .dictionary(let d): return ["D", .array(d.map { [.string($0.key), $0.value.tagged] })]
    }
  }

  /// The value with every dictionary's keys sorted, for comparing with readers that do not
  /// keep order.
  public var sortedKeys: PropertyListValue {
    switch self {
    case .array(let a): return .array(a.map(\.sortedKeys))
    case .dictionary(let d):
      var sorted = d.mapValues(\.sortedKeys)
      sorted.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      return .dictionary(sorted)
    default: return self
    }
  }
}

/// The inputs the fuzzing campaign found crashing, hanging or leaking a decoder
/// (`Scripts/fuzz/Regressions/<target>/`), each kept with its fix: run as ordinary tests.
public enum FuzzRegressions {
  /// The folder of `target`'s inputs.
  public static func folder(_ target: String) -> URL {
    Corpus.packageRoot.appendingPathComponent("Scripts/fuzz/Regressions/\(target)")
  }

  /// Every input kept for `target`, by file name, sorted.
  public static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
    let url = folder(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return try names.filter { !$0.hasPrefix(".") }.sorted().map { name in
      (name, Array(try Data(contentsOf: url.appendingPathComponent(name))))
    }
  }
}
