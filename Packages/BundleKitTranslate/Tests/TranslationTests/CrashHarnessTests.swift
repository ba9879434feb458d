import BundleKitTestSupport
import Foundation
import Testing

/// `translate index` and `translate import` SIGKILLed at random moments: the memory is the
/// old one or the new one,
/// and no temporary file survives the next run (Scripts/crash-test.py, short).
@Suite(.offThePool)
struct IndexCrashTests {
  @Test("translate index and translate import survive SIGKILL")
  func shortRun() throws {
    let tool = try #require(BundleKitTool.path, "bundlekit was not built beside the tests")
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let seed = SeededGenerator.seed("crash-test")
    let run = try Tool.run(
      python,
      [
        Corpus.packageRoot.appendingPathComponent("Scripts/crash-test.py").path,
        "--bundlekit", tool, "--kills", "8", "--seed", String(seed), "--seconds", "90",
        "--commands", "index,tmx",
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    let results = report?["commands"] as? [[String: Any]] ?? []
    #expect(results.count == 2)
    for result in results {
      #expect(result["failures"] as? Int == 0, "\(result)")
      #expect((result["kills"] as? Int ?? 0) > 0, "\(result)")
    }
  }
}
