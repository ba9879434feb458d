import BundleKitTestSupport
import Foundation
import Testing

/// `translate index` and `translate import` SIGKILLed at random moments: the memory is the
/// old one or the new one,
/// and no temporary file survives the next run (Scripts/crash-test.py, short).
struct IndexCrashTests {
  @Test("translate index and translate import survive SIGKILL")
  func shortRun() throws {
    guard let tool = BundleKitTool.path, let python = Tool.path("python3") else {
      print("skipped: the crash harness needs the built bundlekit and python3")
      return
    }
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
