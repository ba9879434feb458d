import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// SHA-256 (the journals' MAC, archive manifests) against Python's `hashlib`, an independent
/// implementation: random messages of every length around the block size, fed whole and in
/// random pieces, so each path through the buffering is taken.
struct SHA256Tests {
  @Test("SHA-256 agrees with Python's hashlib, whole and fed in pieces")
  func agreesWithHashlib() throws {
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let seed = SeededGenerator.seed("SHA256Tests.agreesWithHashlib")
    var generator = SeededGenerator(seed: seed)
    let lengths = Array(0...200) + [447, 448, 511, 512, 1_000, 4_096, 65_537, 250_001]
    let messages = lengths.map { length in
      (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }
    let script = """
      import hashlib, sys
      for line in sys.stdin:
          print(hashlib.sha256(bytes.fromhex(line.strip())).hexdigest())
      """
    let input =
      messages.map { $0.map { String(format: "%02x", $0) }.joined() }
      .joined(separator: "\n") + "\n"
    let run = try Tool.run(python, ["-c", script], input: Data(input.utf8))
    #expect(run.status == 0, "\(run.stderr)")
    let expected = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map(
      String.init)
    try #require(expected.count == messages.count)
    for (index, message) in messages.enumerated() {
      #expect(
        SHA256.hex(message) == expected[index],
        "length \(message.count), whole (seed \(seed))")
      // The same message in up to four pieces of random lengths, one update each.
      var hash = SHA256()
      var start = 0
      for _ in 0..<3 where start < message.count {
        let end = start + Int(generator.next() % UInt64(message.count - start + 1))
        hash.update(message[start..<end])
        start = end
      }
      hash.update(message[start...])
      #expect(
        SHA256.hexString(hash.finalize()) == expected[index],
        "length \(message.count), in pieces (seed \(seed))")
    }
  }
}
