import BundleKitDiagnostics
import Foundation
import Testing
import _BundleKitCommandLineTool

/// The one place a run's findings go: what it counts, raises and adds.
struct DiagnosticsEngineTests {
  /// An engine that keeps what it would print.
  final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [Diagnostic] = []
    var all: [Diagnostic] { lock.withLock { lines } }
    func add(_ diagnostic: Diagnostic) { lock.withLock { lines.append(diagnostic) } }
  }

  @Test("errors decide the exit status; warnings and notes do not, unless raised")
  func exitStatus() {
    let printed = Printed()
    let engine = DiagnosticsEngine(consumer: printed.add)
    engine.note("n")
    engine.emit(Diagnostic(.warning, path: "a.strings", line: 3, "w"))
    #expect(engine.exitStatus == 0)
    #expect(engine.warningCount == 1 && engine.errorCount == 0)
    engine.warningsAsErrors = true
    engine.emit(Diagnostic(.warning, path: "a.strings", line: 4, "w2"))
    #expect(engine.exitStatus == 1)
    #expect(engine.errorCount == 1 && engine.warningCount == 1)
    #expect(printed.all.map(\.severity) == [.note, .warning, .error])
    #expect(printed.all.last?.description == "a.strings:4: error: w2")
  }

  @Test("recorded findings count without being printed (the command prints them as data)")
  func recorded() {
    let printed = Printed()
    let engine = DiagnosticsEngine(consumer: printed.add)
    engine.record([.error("x.plist", "bad")])
    #expect(printed.all.isEmpty)
    #expect(engine.hasErrors)
  }

  @Test("a refusal gets the tool's hint as a note; the library's message names no flag")
  func hints() {
    let printed = Printed()
    let engine = DiagnosticsEngine(consumer: printed.add)
    engine.hints = ["archive-size-limit": "raise the limit with --max-size BYTES"]
    engine.emit(
      Diagnostic(
        .error, path: "a.tar", "extracts to more than 10 bytes",
        rule: .refusal("archive-size-limit")))
    engine.emit(Diagnostic(.error, path: "b.tar", "other"))
    #expect(
      printed.all.map(\.description) == [
        "a.tar: error: extracts to more than 10 bytes\n  raise the limit with --max-size BYTES",
        "b.tar: error: other",
      ])
  }
}
